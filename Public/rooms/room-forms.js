// A room's forms, before a room is shown: opening one (the teacher), joining one by its code (a
// student), and the teacher's key pasted into a browser that does not hold it. The keys a browser
// holds are kept in its local storage, never in an address.
import { joinRoom, openRoom, roomState } from "../lib/api.js";
import { byId, html, prose } from "../lib/dom.js";
import { myLinks } from "../lib/links.js";
import { explain, notice } from "../lib/notice.js";
import { lastProgram } from "../editor/editor-view.js";

const STORE = "playground.rooms";

/** The panel's heading, focusable so that a route can move the focus to it. */
export function heading(text) {
  const title = html("h2", undefined, text);
  title.id = "room-title";
  title.tabIndex = -1;
  return title;
}

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
export function field(id, text, control) {
  const label = html("label", undefined, text);
  label.htmlFor = id;
  control.id = id;
  const wrap = html("div", "field");
  wrap.append(label, control);
  return wrap;
}

/** Runs `action` when `form` is sent; what it throws is said in the notice. */
export function onSubmit(form, action) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await action();
    } catch (error) {
      notice(explain(error));
    }
  });
}

export function button(text, className = "action", type = "button") {
  const node = html("button", className, text);
  node.type = type;
  return node;
}

/** The form that opens a room: what the class works on, and a title. */
export async function renderOpen(room) {
  const form = html("form", "room-form");
  const from = html("select");
  const lessons = await room.lessons().catch(() => []);
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
  // Courses and lessons this browser kept or opened by a link ("My links"), then the course's own.
  const kept = (kind) => myLinks().filter((link) => link.kind === kind).map((link) => [`${kind}:${link.id}`, link.title]);
  from.append(
    ...[["My courses", kept("course")], ["My lessons", kept("lesson")]].filter(([, entries]) => entries.length)
      .map(([label, entries]) => group(label, entries)),
    group("Lessons", lessons.map((lesson) => [`lesson:${lesson.id}`, lesson.title])),
    group("Scenarios", room.scenarios.map((scenario) => [`scenario:${scenario.id}`, scenario.title])),
    ...(lastProgram() ? [group("Programs", [["program:", "My last program in the editor"]])] : []),
  );
  const title = html("input");
  title.maxLength = 200;
  title.placeholder = "(its course's, lesson's or scenario's title)";
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
  room.section.replaceChildren(heading("Teach a class"), form);
  byId("room-title").focus();
}

/** The form that joins a room: its code, and the student's name. */
export function renderJoin(room, code) {
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
    rememberRoomKey(joined.room, { role: "student", key: joined.studentKey, name: joined.name, code: joinCode(codeField.value) });
    location.hash = `room/${joined.room}`;
  });
  room.section.replaceChildren(heading("Join a room"), form);
  (code ? name : codeField).focus();
  // The join link opened again (a reload, a second tab): back to the seat this browser holds.
  if (code) {
    seatFor(code).then((id) => {
      if (id && room.section.contains(form)) location.hash = `room/${id}`;
    });
  }
}

/** A join code as the server reads it: upper case, no spaces or dashes. */
const joinCode = (text) => String(text ?? "").toUpperCase().replace(/[\s-]/g, "");

/**
 * The room this browser holds a student's seat in for join code `code`, if the seat is still
 * there (not removed, the room not ended): its id. A seat kept before codes were kept with it is
 * asked about too.
 */
async function seatFor(code) {
  const wanted = joinCode(code);
  for (const [id, entry] of Object.entries(roomKeys())) {
    if (entry?.role !== "student" || (entry.code && entry.code !== wanted)) continue;
    try {
      const view = await roomState(id, entry.key);
      if (joinCode(view.code) === wanted && !view.ended) return id;
    } catch {
      // removed, ended or gone: no seat there
    }
  }
  return null;
}

/** A room this browser holds no key of: the teacher pastes theirs; a student joins again. */
export function renderKey(room, { id, role }) {
  if (role === "audience") {
    room.section.replaceChildren(heading("Audience view"),
      html("p", undefined, "This browser holds no audience key of this room: open the audience view from the teacher's screen."));
    return;
  }
  if (role === "student") {
    const again = html("a", undefined, "Join with the room's code");
    again.href = "#join";
    const words = html("p", undefined, "This browser has not joined this room. ");
    words.append(again, ".");
    room.section.replaceChildren(heading("Join a room"), words);
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
  room.section.replaceChildren(heading("Teach a class"), form);
  key.focus();
}
