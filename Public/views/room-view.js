// A room (`#teach`, `#teach/ROOM`, `#join/CODE`, `#room/ROOM`): a teacher opens one from a lesson,
// a scenario or their program and drives its session (the session view below, its inputs and clock
// going through the room); students join by the code, watch the same diagram, and answer the
// teacher's questions by drawing marbles. The room's event stream carries whole snapshots of what
// each person sees, so a reconnect shows the current question and one's own answer again.
import { answerRoom, askRoom, endRoom, joinRoom, openRoom, revealRoom, roomCookie, roomStudents, takeRoomHome } from "../api.js";
import { html, prose } from "../dom.js";
import { lastProgram } from "./editor-view.js";
import { parseRow } from "../marble-notation.js";
import { FRAME_WIDTH, editableRow } from "../marble-row.js";
import { explain, notice } from "../notice.js";
import { classPanel, legend, questionWords, revealPanel } from "./room-panels.js";

const $ = (id) => document.getElementById(id);
const STORE = "playground.rooms";

/** The keys this browser holds, by room: `{role, key, name?}`. Kept here, never in an address. */
export function roomKeys() {
  try {
    return JSON.parse(localStorage.getItem(STORE) ?? "{}");
  } catch {
    return {};
  }
}

export function rememberRoomKey(id, entry) {
  localStorage.setItem(STORE, JSON.stringify({ ...roomKeys(), [id]: entry }));
}

/** A labelled field in a form: `[label, control]`. */
function field(id, text, control) {
  const label = html("label", undefined, text);
  label.htmlFor = id;
  control.id = id;
  const wrap = html("div", "field");
  wrap.append(label, control);
  return wrap;
}

/** Runs `action` when `form` is sent; what it throws is said in the notice. */
function onSubmit(form, action) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await action();
    } catch (error) {
      notice(explain(error));
    }
  });
}

function button(text, className = "action", type = "button") {
  const node = html("button", className, text);
  node.type = type;
  return node;
}

export class RoomView {
  /** `lessons()` lists the course's lessons, `scenarios` the built-in scenarios. */
  constructor({ lessons, scenarios }) {
    this.section = $("room");
    this.lessons = lessons;
    this.scenarios = scenarios;
    this.source = null;
  }

  /**
   * `mode`: `open` (a form that opens a room), `join` (a form with `code`), or a room to show:
   * `teacher` or `student`, with `id`, `key` and `streams` (the session's stream names).
   */
  async mount(params) {
    this.section.hidden = false;
    this.close();
    Object.assign(this, { params, view: null, drawn: null, shownQuestion: null, shell: null });
    if (params.mode === "open") await this.renderOpen();
    else if (params.mode === "join") this.renderJoin(params.code ?? "");
    else if (params.mode === "key") this.renderKey(params);
    else await this.connect();
  }

  unmount() {
    this.close();
    this.section.hidden = true;
    document.body.classList.remove("presenting");
  }

  close() {
    this.source?.close();
    this.source = null;
  }

  heading(text) {
    const title = html("h2", undefined, text);
    title.id = "room-title";
    title.tabIndex = -1;
    return title;
  }

  // MARK: Opening and joining

  async renderOpen() {
    const form = html("form", "room-form");
    const from = html("select");
    const lessons = await this.lessons().catch(() => []);
    const group = (label, entries) => {
      const node = html("optgroup");
      node.label = label;
      for (const [value, text] of entries) {
        const option = html("option", undefined, text);
        option.value = value;
        node.append(option);
      }
      return node;
    };
    from.append(
      group("Lessons", lessons.map((lesson) => [`lesson:${lesson.id}`, lesson.title])),
      group("Scenarios", this.scenarios.map((scenario) => [`scenario:${scenario.id}`, scenario.title])),
      ...(lastProgram() ? [group("Programs", [["program:", "My last program in the editor"]])] : []),
    );
    const title = html("input");
    title.maxLength = 200;
    title.placeholder = "(its lesson's or scenario's title)";
    form.append(
      prose("p", "A room runs one session on a virtual clock that only you move. Your class joins with its code, watches the same diagram, and predicts what you ask; you see their answers as they come."),
      field("room-from", "What the class works on", from),
      field("room-title-field", "Title (optional)", title),
      button("Open the room", "action", "submit"),
    );
    onSubmit(form, async () => {
      const [kind, id] = from.value.split(/:(.*)/s);
      const opened = await openRoom({ [kind]: kind === "program" ? lastProgram() : id }, title.value.trim() || undefined);
      rememberRoomKey(opened.room, { role: "teacher", key: opened.teacherKey });
      location.hash = `teach/${opened.room}`;
    });
    this.section.replaceChildren(this.heading("Teach a class"), form);
    $("room-title").focus();
  }

  renderJoin(code) {
    const form = html("form", "room-form");
    const codeField = html("input");
    codeField.value = code;
    codeField.autocomplete = "off";
    codeField.setAttribute("autocapitalize", "characters");
    const name = html("input");
    name.maxLength = 40;
    name.autocomplete = "nickname";
    form.append(
      prose("p", "Your teacher gives the room's code. Your name is how the class and your teacher see you; no account is needed."),
      field("join-code", "Room code", codeField),
      field("join-name", "Your name", name),
      button("Join", "action", "submit"),
    );
    onSubmit(form, async () => {
      const joined = await joinRoom(codeField.value, name.value);
      rememberRoomKey(joined.room, { role: "student", key: joined.studentKey, name: joined.name });
      location.hash = `room/${joined.room}`;
    });
    this.section.replaceChildren(this.heading("Join a room"), form);
    (code ? name : codeField).focus();
  }

  /** A room this browser holds no key of: the teacher pastes theirs; a student joins again. */
  renderKey({ id, role }) {
    if (role === "student") {
      const again = html("a", undefined, "Join with the room's code");
      again.href = "#join";
      const words = html("p", undefined, "This browser has not joined this room. ");
      words.append(again, ".");
      this.section.replaceChildren(this.heading("Join a room"), words);
      return;
    }
    const form = html("form", "room-form");
    const key = html("input");
    key.autocomplete = "off";
    key.spellcheck = false;
    form.append(html("p", undefined, "This browser does not hold this room's teacher key. Paste the key you were given when you opened it."),
      field("room-key", "Teacher key", key), button("Open", "action", "submit"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      rememberRoomKey(id, { role: "teacher", key: key.value.trim() });
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    });
    this.section.replaceChildren(this.heading("Teach a class"), form);
    key.focus();
  }

  // MARK: A room, live

  /** Sets the cookie the stream shows, then follows the room's snapshots. */
  async connect() {
    const { id, key, role } = this.params;
    this.section.replaceChildren(this.heading("Room"), html("p", "room-status", "Connecting…"));
    await roomCookie(id, key);
    const source = new EventSource(`/api/rooms/${encodeURIComponent(id)}/events?as=${role}`);
    this.source = source;
    source.addEventListener("room", (message) => this.render(JSON.parse(message.data)));
    source.addEventListener("end", (message) => {
      source.close();
      const { reason } = JSON.parse(message.data);
      this.section.replaceChildren(this.heading("The room has ended"), html("p", undefined, reason === "draining"
        ? "Its server was replaced. Ask your teacher for a new room."
        : reason === "idle" ? "Nothing happened in it for a long while." : "The teacher ended it. Thank you for taking part!"));
      document.body.classList.remove("presenting");
    });
  }

  render(view) {
    const first = this.view === null;
    this.view = view;
    if (this.params.role === "teacher") this.renderTeacher(view);
    else this.renderStudent(view);
    if (first) $("room-title")?.focus();
  }

  renderTeacher(view) {
    if (!this.shell) this.shell = this.teacherShell(view);
    const parts = [];
    if (view.question) {
      const words = prose("p", `Asked: ${questionWords(view.question)}`);
      words.id = "room-question";
      const reveal = button(view.question.revealed ? "Revealed" : "Reveal the answer");
      reveal.id = "room-reveal";
      reveal.disabled = view.question.revealed;
      reveal.addEventListener("click", () => revealRoom(view.id, this.params.key).catch((error) => notice(explain(error))));
      parts.push(words, ...classPanel(view), reveal);
    } else {
      const counts = html("p", "room-counts", `${view.students} joined. Ask the class when you are ready.`);
      counts.id = "room-counts";
      parts.push(counts);
    }
    this.keepFocus(() => this.shell.replaceChildren(...parts));
  }

  /** The teacher's controls, made once: the join code, presentation mode, names, the end, the ask form. */
  teacherShell(view) {
    const head = html("div", "room-head");
    const code = html("p", "room-code");
    code.append("Join at ", html("strong", undefined, `${location.origin}/#join/${view.code}`), " — code ",
      html("strong", "room-code-value", view.code));
    const present = button("Presentation mode", "secondary");
    present.setAttribute("aria-pressed", "false");
    present.addEventListener("click", () => {
      present.setAttribute("aria-pressed", String(document.body.classList.toggle("presenting")));
    });
    const names = button("Show names", "secondary");
    const nameList = html("p", "hint room-names");
    nameList.id = "room-names";
    names.addEventListener("click", async () => {
      try {
        nameList.textContent = (await roomStudents(view.id, this.params.key)).join(", ") || "Nobody has joined yet.";
      } catch (error) {
        notice(explain(error));
      }
    });
    const end = button("End the room", "secondary");
    end.addEventListener("click", () => endRoom(view.id, this.params.key).catch((error) => notice(explain(error))));
    head.append(code, present, names, end);
    const shell = html("div", "room-class-view");
    this.section.replaceChildren(this.heading(view.title), head, nameList, this.askForm(view), shell);
    return shell;
  }

  /** Replaces the panel's content, the focused control focused again (found by its id). */
  keepFocus(replace) {
    const focused = this.section.contains(document.activeElement) ? document.activeElement.id : null;
    replace();
    if (focused) $(focused)?.focus();
  }

  askForm(view) {
    const form = html("form", "room-ask");
    const stream = html("select");
    for (const name of this.params.streams) stream.append(html("option", undefined, name));
    const suggested = view.suggested;
    stream.value = suggested?.stream ?? this.params.streams.at(-1);
    const frames = html("input");
    Object.assign(frames, { type: "number", min: 1, max: 200, value: suggested?.frames ?? 20 });
    const frame = html("input");
    Object.assign(frame, { type: "number", min: 10, max: 10000, step: 10, value: 100 });
    form.append(field("ask-stream", "Predict the stream", stream), field("ask-frames", "Frames", frames),
      field("ask-frame", "ms a frame", frame), button("Ask the class", "action", "submit"));
    onSubmit(form, () => askRoom(view.id, this.params.key, { stream: stream.value, frames: Number(frames.value), frame: Number(frame.value) }));
    return form;
  }

  renderStudent(view) {
    const parts = [this.heading(view.title), html("p", "hint", `You are ${view.you?.name ?? "a student"} in this room.`)];
    const home = button("Take it home", "secondary");
    home.id = "room-home";
    home.addEventListener("click", async () => {
      try {
        const created = await takeRoomHome(view.id, this.params.key);
        location.hash = `session=${created.session}`;
      } catch (error) {
        notice(explain(error));
      }
    });
    const question = view.question;
    if (!question) {
      parts.push(html("p", "room-status", "Wait for your teacher's question; meanwhile, watch the diagram below."), home);
      this.keepFocus(() => this.section.replaceChildren(...parts));
      return;
    }
    parts.push(prose("p", questionWords(question)), ...legend(question.letters));
    if (question.revealed) {
      parts.push(...revealPanel(question, view.you?.answer), home);
      this.keepFocus(() => this.section.replaceChildren(...parts));
      return;
    }
    // The answer being drawn survives the snapshots of the same question.
    if (this.shownQuestion !== question.id || !this.drawn) this.drawn = this.answerForm(view);
    this.shownQuestion = question.id;
    this.drawn.status.textContent = view.you?.answer
      ? `Your answer is in: ${view.you.answer}. You can change it until the reveal.` : "Not answered yet.";
    parts.push(this.drawn.form, home);
    this.keepFocus(() => this.section.replaceChildren(...parts));
  }

  /** The prediction: a row to draw (or type) over the question's frames, and a button that sends it. */
  answerForm(view) {
    const question = view.question;
    const form = html("form", "room-answer");
    const text = html("input");
    text.autocomplete = "off";
    text.spellcheck = false;
    text.value = view.you?.answer ?? "";
    const lane = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    lane.setAttribute("class", "gallery-lane gallery-input");
    lane.setAttribute("aria-label", "Your answer: click a frame to add a marble");
    const end = html("select");
    for (const [value, label] of [["", "never ends"], ["|", "completes |"], ["#", "fails #"]]) {
      const option = html("option", undefined, label);
      option.value = value;
      end.append(option);
    }
    const problem = html("p", "problem");
    problem.id = "room-answer-problem";
    problem.setAttribute("aria-live", "polite");
    const status = html("p", "hint room-answer-status");
    status.id = "room-answer-status";
    status.setAttribute("role", "status");
    const scroll = html("div", "gallery-scroll");
    scroll.append(lane);
    form.append(field("room-answer", `Your answer for ${question.stream}`, text), scroll, field("room-answer-end", "How it ends", end),
      problem, button("Send my answer", "action", "submit"), status);
    editableRow({
      name: question.stream, field: text, lane, endChoice: end,
      letters: () => Object.keys(question.letters ?? {}), minFrames: () => question.frames + 2, onChange: () => { problem.textContent = ""; },
    });
    text.addEventListener("input", () => { problem.textContent = text.value.trim() ? parseRow(text.value.trim()).error ?? "" : ""; });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const marbles = text.value.trim();
      const parsed = parseRow(marbles);
      if (parsed.error) {
        problem.textContent = parsed.error;
        return;
      }
      try {
        await answerRoom(view.id, this.params.key, question.id, marbles);
      } catch (error) {
        problem.textContent = error.message;
      }
    });
    lane.setAttribute("width", (question.frames + 2) * FRAME_WIDTH);
    return { form, status };
  }
}
