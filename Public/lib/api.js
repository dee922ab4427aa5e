// The playground's HTTP API, as the page uses it.

/** An error the API answered: status, code and the server's message. */
export class APIError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    /** The rest of the error object (a refused program's `diagnostics`). */
    this.details = details;
  }
}

/**
 * A refused program's problems (`details.diagnostics`) in one sentence, as the editor words them:
 * each message with its hint ("did you mean `take`?"). With `linesBefore`, each is prefixed by its
 * line, counted after that many lines the page added; without, no line is named.
 */
export function describeProblems(error, linesBefore) {
  return (error.details?.diagnostics ?? [])
    .map((item) => `${linesBefore === undefined ? "" : `line ${item.line - linesBefore}: `}${item.message}${item.hint ? ` — ${item.hint}` : ""}`)
    .join("; ");
}

/** Calls the API; `body` is sent as JSON, or as it is when `plain` is true (a program). */
async function call(method, path, body, { plain = false, answerText = false, key } = {}) {
  const options = { method, headers: {} };
  if (key) options.headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) {
    options.headers["Content-Type"] = plain ? "text/plain; charset=utf-8" : "application/json";
    options.body = plain ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new APIError(0, "offline", "The server cannot be reached. Is it running?");
  }
  const text = await response.text();
  if (answerText && response.ok) return text;
  const json = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const error = json?.error ?? { code: "http_" + response.status, message: response.statusText };
    throw new APIError(response.status, error.code, error.message, error);
  }
  return json;
}

export const catalogue = () => call("GET", "/api/scenarios").then((body) => body.scenarios);
export const createSession = (scenario, clock = "real") =>
  call("POST", `/api/scenarios/${encodeURIComponent(scenario)}/sessions${clock === "virtual" ? "?clock=virtual" : ""}`);
const roomPath = (id, rest = "") => `/api/rooms/${encodeURIComponent(id)}${rest}`;
/**
 * Where a session's routes are: `/api/sessions/{sid}…`, or for a room's session (`room`: `{id, key,
 * role}`) `/api/rooms/{rid}/session…`, which only a key of the room opens — the session's own
 * routes answer 403 `room_session` for it, so that its id alone shows nobody the class's diagram.
 */
export const sessionPath = (sessionID, room, rest = "") =>
  room ? roomPath(room.id, `/session${rest}`) : `/api/sessions/${encodeURIComponent(sessionID)}${rest}`;
/**
 * A room's address for what cannot send the key as a header (an `EventSource`, a link): it shows
 * the room's cookie, `?as=` saying whose when a browser holds the teacher's and a student's.
 */
export const roomAddress = (room, rest, query = {}) => `${roomPath(room.id, rest)}?${new URLSearchParams({ ...query, as: room.role })}`;
/** A session's RAC objects at `at` (ms; null: now), with the changes after `since` (GET …/inside). */
export const sessionInside = (id, { at = null, since = 0 } = {}) =>
  call("GET", `${sessionPath(id, null, "/inside")}?${new URLSearchParams({ since, ...(at === null ? {} : { at }) })}`);
/** A kept run's RAC objects at `at` (ms; null: its end), with the changes after `since` (GET /api/links/{id}/inside). */
export const linkInside = (id, { at = null, since = 0 } = {}) =>
  call("GET", `/api/links/${encodeURIComponent(id)}/inside?${new URLSearchParams({ since, ...(at === null ? {} : { at }) })}`);
/** A virtual-clock session's breakpoints and where its clock stopped (GET /api/sessions/{sid}/breakpoints). */
export const sessionBreakpoints = (id) => call("GET", sessionPath(id, null, "/breakpoints"));
/** Sets them (PUT …/breakpoints), going on from a stop. */
export const setBreakpoints = (id, breakpoints) => call("PUT", sessionPath(id, null, "/breakpoints"), { breakpoints });
/** Goes on from the breakpoint the clock stopped at (POST …/breakpoints/continue). */
export const continueFromBreakpoint = (id) => call("POST", sessionPath(id, null, "/breakpoints/continue"));
/** A session's summary (GET /api/sessions/{sid}, or a room's session through the room). */
export const sessionInfo = (id, room = null) => call("GET", sessionPath(id, room), undefined, { key: room?.key });
/** The problems of a program, as the server's checker finds them. */
export const checkProgram = (program) =>
  call("POST", "/api/pipelines/check", program, { plain: true }).then((body) => body.diagnostics);
/** A new session running `program`; a refusal's `details.diagnostics` says why. */
export const runProgram = (program, clock = "real") =>
  call("POST", `/api/pipelines${clock === "virtual" ? "?clock=virtual" : ""}`, program, { plain: true });
/** A marble program run on the server's virtual clock, each named stream drawn (POST /api/marbles). */
export const drawMarbles = (program, until) => call("POST", `/api/marbles${until ? `?until=${until}` : ""}`, program, { plain: true });
/** `program` run as `drawMarbles` runs it, with its RAC objects at instant `at` as `inside` (POST /api/marbles?inside=MS). */
export const drawMarblesInside = (program, at) => call("POST", `/api/marbles?inside=${at}`, program, { plain: true });
/**
 * A built-in scenario run on a virtual clock with its inputs as marble rows (POST
 * /api/scenarios/{id}/marbles): `query` is `{inputs: {name: notation}, values, frame}`; the answer
 * is drawn as `drawMarbles`'s is. Both run until no work is left, or `until` virtual milliseconds.
 */
export const drawScenarioMarbles = (id, query, until) =>
  call("POST", `/api/scenarios/${encodeURIComponent(id)}/marbles${until ? `?until=${until}` : ""}`, query);
/**
 * `program` (as for `drawMarbles`) written as a Swift Testing test of its run (POST
 * /api/marbles/test): the test's source. `name` is its function's name, `title` its first comment
 * line, `streams` the streams it states (all named ones by default).
 */
export const writeMarbleTest = (program, { name, title, streams } = {}) => {
  const query = new URLSearchParams();
  if (name) query.set("name", name);
  if (title) query.set("title", title);
  if (streams?.length) query.set("streams", streams.join(","));
  return call("POST", `/api/marbles/test?${query}`, program, { plain: true, answerText: true });
};
/**
 * The operators that turn `inputs` (name → marble notation) into `output` (POST /api/marbles/find):
 * `{exact, near, tried, candidates, truncated}`, each answer with its program and drawn output.
 */
export const findOperators = (query) => call("POST", "/api/marbles/find", query);
/** The course's lessons: `{id, title, path}` each (GET /api/lessons). */
export const lessonList = () => call("GET", "/api/lessons").then((body) => body.lessons);
export const examplePrograms = () => call("GET", "/api/pipelines/examples").then((body) => body.examples);
/** Keeps `{kind, title, content, from?}` by a link (POST /api/links): `{id, url, kind, title, created, from}`. */
export const keepLink = (link) => call("POST", "/api/links", link);
/** The rules a lesson breaks and what it draws (POST /api/lessons/check). */
export const checkLesson = (lesson) => call("POST", "/api/lessons/check", lesson);
/** What reproduces a session: its events, its inputs as marble rows (GET …/recording; a room's through the room). */
export const sessionRecording = (sessionID, room = null) => call("GET", sessionPath(sessionID, room, "/recording"), undefined, { key: room?.key });
/** The session's recording kept as a link of kind `run` under `title` (the server's default if none; POST …/recording; a room's through the room). */
export const keepRun = (sessionID, room = null, title = undefined) =>
  call("POST", sessionPath(sessionID, room, "/recording"), title === undefined ? {} : { title }, { key: room?.key });
/** A kept link with its content (GET /api/links/{id}). */
export const readLink = (id) => call("GET", `/api/links/${encodeURIComponent(id)}`);

/** A room's API (docs/API.md, "Rooms"): each call shows `key`, the teacher's or a student's. */
export const openRoom = (from, title) => call("POST", "/api/rooms", title ? { from, title } : { from });
/** Joins the room whose code is `code` (as typed: case, spaces and dashes do not matter). */
export const joinRoom = (code, name) => call("POST", `/api/join/${encodeURIComponent(code.toUpperCase().replace(/[\s-]/g, ""))}`, { name });
export const roomState = (id, key) => call("GET", roomPath(id), undefined, { key });
/** Sets the cookie the room's `EventSource` shows (it cannot send the key as a header). */
export const roomCookie = (id, key) => call("POST", roomPath(id, "/cookie"), undefined, { key });
export const askRoom = (id, key, question) => call("POST", roomPath(id, "/questions"), question, { key });
/** Moves a course's room to its lesson `index` (from 0): a new session, the question closed. */
export const moveRoom = (id, key, index) => call("POST", roomPath(id, "/lesson"), { index }, { key });
export const revealRoom = (id, key) => call("POST", roomPath(id, "/reveal"), undefined, { key });
/** The teacher's note to the students whose answer missed `group` (null takes it back): POST /api/rooms/{rid}/notes. */
export const noteRoomGroup = (id, key, group, note) => call("POST", roomPath(id, "/notes"), { group, note }, { key });
/** The question asked again, as its second vote (Peer Instruction): POST /api/rooms/{rid}/again. */
export const askRoomAgain = (id, key) => call("POST", roomPath(id, "/again"), undefined, { key });
export const answerRoom = (id, key, question, marbles) => call("POST", roomPath(id, "/answers"), { question, marbles }, { key });
export const endRoom = (id, key) => call("DELETE", roomPath(id), undefined, { key });
/** The room's students, `{number, name}` each, in the order they joined (the teacher's alone). */
export const roomStudents = (id, key) => call("GET", roomPath(id, "/students"), undefined, { key }).then((body) => body.students);
/** Takes student `number` out of the room. */
export const removeStudent = (id, key, number) => call("DELETE", roomPath(id, `/students/${number}`), undefined, { key });
/** Closes the room to newcomers (`locked`), or opens it again. */
export const lockRoom = (id, key, locked) => call("POST", roomPath(id, "/lock"), { locked }, { key });
/** A session of one's own where the room's is now (its inputs and clock replayed). */
export const takeRoomHome = (id, key) => call("POST", roomPath(id, "/home"), undefined, { key });

/**
 * Posts values to one input strictly one at a time, in order: the next post waits for the
 * previous answer, so the server sees keystrokes in the order they were typed. With `room`
 * (`{id, key}`, its teacher's), the input is the room's session's, driven through the room.
 */
export class InputSender {
  constructor(sessionID, name, onError, room = null) {
    this.path = room
      ? roomPath(room.id, `/inputs/${encodeURIComponent(name)}`)
      : `/api/sessions/${encodeURIComponent(sessionID)}/inputs/${encodeURIComponent(name)}`;
    this.key = room?.key;
    this.queue = Promise.resolve();
    this.onError = onError;
  }

  /** Sends `value` after the values queued before it. Resolves to whether the server accepted it. */
  send(value) {
    const result = this.queue.then(() => call("POST", this.path, value, { key: this.key })).then(() => true);
    this.queue = result.catch((error) => {
      this.onError(error);
      return false;
    });
    return this.queue;
  }

  /**
   * Ends the input's signal, after the values queued before it: `completed`, or `error` with an
   * optional message. Resolves to whether the server accepted it.
   */
  end(kind, message) {
    const result = this.queue.then(() => call("POST", `${this.path}?event=${kind}`, message, { key: this.key })).then(() => true);
    this.queue = result.catch((error) => {
      this.onError(error);
      return false;
    });
    return this.queue;
  }
}
