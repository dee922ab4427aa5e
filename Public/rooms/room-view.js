// A room (`#teach`, `#teach/ROOM`, `#join/CODE`, `#room/ROOM`): a teacher opens one from a lesson,
// a scenario or their program and drives its session (the session view below, its inputs and clock
// going through the room); students join by the code, watch the same diagram, and answer the
// teacher's questions by drawing marbles. The room's event stream carries whole snapshots of what
// each person sees, so a reconnect shows the current question and one's own answer again.
import { answerRoom, askRoom, askRoomAgain, endRoom, noteRoomGroup, lockRoom, moveRoom, removeStudent, revealRoom, roomAddress, roomStudents, takeRoomHome } from "../lib/api.js";
import { byId, html, prose } from "../lib/dom.js";
import { parseRow } from "../lib/marble-notation.js";
import { FRAME_WIDTH, editableRow } from "../lib/marble-row.js";
import { explain, notice } from "../lib/notice.js";
import { RoomStream, goneWords } from "./room-stream.js";
import { button, field, heading, onSubmit, rememberRoomKey, renderJoin, renderKey, renderOpen } from "./room-forms.js";
import { classPanel, legend, materialRows, questionWords, revealPanel } from "./room-panels.js";
import { noteForms } from "./room-notes.js";

export class RoomView {
  /** `lessons()` lists the course's lessons, `scenarios` the built-in scenarios. */
  constructor({ lessons, scenarios }) {
    this.section = byId("room");
    this.lessons = lessons;
    this.scenarios = scenarios;
    this.source = null;
  }

  /**
   * `mode`: `open` (a form that opens a room), `join` (a form with `code`), or a room to show:
   * `teacher` or `student`, with `id`, `key`, `session` (the session shown below) and `streams` (its
   * stream names); `onMoved()` runs when the room's session is another (the course moved on);
   * `gone`, with the `error` that says the browser's key opens the room no more.
   */
  async mount(params) {
    this.section.hidden = false;
    this.close();
    Object.assign(this, { params, view: null, drawn: null, shownQuestion: null, shell: null });
    if (params.mode === "open") await renderOpen(this);
    else if (params.mode === "join") renderJoin(this, params.code ?? "");
    else if (params.mode === "key") renderKey(this, params);
    else if (params.mode === "gone") this.gone(params.error);
    else this.connect();
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
    return heading(text);
  }

  // MARK: A room, live

  /**
   * Follows the room's snapshots, through the cookie the stream shows (set again, and the stream
   * opened again, when it has expired); a line says when the stream is down.
   */
  connect() {
    const { id, key, role } = this.params;
    this.link = html("p", "room-link");
    this.link.id = "room-link";
    this.link.setAttribute("role", "status");
    this.section.replaceChildren(this.heading("Room"), html("p", "room-status", "Connecting…"), this.link);
    const source = new RoomStream({ id, key, role }, () => roomAddress({ id, role }, "/events"), (state, detail) => {
      if (this.source !== source) return;
      if (state === "gone") this.gone(detail);
      else this.link.textContent = state === "live" ? ""
        : `The room's stream was cut; reconnecting${detail ? ` in ${Math.round(detail / 1000)} s` : ""}…`;
    });
    this.source = source;
    source.addEventListener("room", (message) => this.render(JSON.parse(message.data)));
    source.addEventListener("end", (message) => {
      const { reason } = JSON.parse(message.data);
      const words = { draining: "Its server was replaced. Ask your teacher for a new room.",
        idle: "Nothing happened in it for a long while.", removed: "The teacher took you out of the room." };
      this.ended(reason === "removed" ? "You have left the room" : "The room has ended",
        words[reason] ?? "The teacher ended it. Thank you for taking part!");
    });
    source.start();
  }

  /** The room's stream is over: says why in place of the room, and stops following it. */
  ended(title, words) {
    this.close();
    this.section.replaceChildren(this.heading(title), html("p", "room-ended", words));
    document.body.classList.remove("presenting");
  }

  /** The browser's key opens the room no more (`error`: 403 taken out of it, 404 the room has ended); the notice says so too. */
  gone(error) {
    const words = goneWords(error, this.params.role);
    this.ended(error.status === 404 ? "The room has ended" : "You have left the room", words);
    notice(words);
  }

  render(view) {
    if (this.params.session && view.session !== this.params.session) {
      this.close(); // the course moved to another lesson: its session replaces this one
      this.params.onMoved?.();
      return;
    }
    const first = this.view === null;
    this.view = view;
    if (this.params.role === "teacher") this.renderTeacher(view);
    else if (this.params.role === "audience") this.renderAudience(view);
    else this.renderStudent(view);
    if (first) byId("room-title")?.focus();
  }

  renderTeacher(view) {
    if (!this.shell) this.shell = this.teacherShell(view);
    const parts = [];
    if (view.question) {
      const words = prose("p", `${view.question.round === 2 ? "Asked again, the second vote" : "Asked"}: ${questionWords(view.question)}`);
      words.id = "room-question";
      const reveal = button(view.question.revealed ? "Revealed" : "Reveal the answer");
      reveal.id = "room-reveal";
      reveal.disabled = view.question.revealed;
      reveal.addEventListener("click", () => revealRoom(view.id, this.params.key).catch((error) => notice(explain(error))));
      // Presenting (the screen the class sees), nothing of the answer shows before the reveal.
      const hidden = document.body.classList.contains("presenting") && !view.question.revealed;
      this.noteDrafts ??= new Map();
      const notes = noteForms(view, { drafts: this.noteDrafts,
        save: (group, note) => noteRoomGroup(view.id, this.params.key, group, note).catch((error) => notice(explain(error))) });
      parts.push(words, ...(hidden ? presentedCounts(view) : [...classPanel(view), ...notes, ...movementTable(view.class?.movement)]), reveal);
      // Vote, discuss, vote again: the second vote starts with nobody's answer, nothing revealed.
      if (!view.question.revealed && view.question.round === 1) {
        const again = button("Vote again, after discussion", "secondary");
        again.id = "room-again";
        again.addEventListener("click", () => askRoomAgain(view.id, this.params.key).catch((error) => notice(explain(error))));
        parts.push(again);
      }
    } else {
      const counts = html("p", "room-counts", `${view.students} joined. Ask the class when you are ready.`);
      counts.id = "room-counts";
      parts.push(counts);
    }
    this.keepFocus(() => this.shell.replaceChildren(...parts));
    // The names, once shown, follow who joined and who answered.
    const names = `${view.students}:${view.question?.id}:${view.class?.answered}`;
    if (this.namesShown && names !== this.namesSeen) this.showNames?.().catch((error) => notice(explain(error)));
    this.namesSeen = names;
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
      if (this.view) this.renderTeacher(this.view); // what the class may see changes with it
    });
    const names = button("Show names", "secondary");
    const nameList = html("ul", "room-names");
    nameList.id = "room-names";
    nameList.setAttribute("aria-label", "The class");
    const showNames = async () => {
      this.namesShown = true;
      const students = await roomStudents(view.id, this.params.key);
      nameList.replaceChildren(...students.map((student) => {
        const answered = student.answered === undefined ? "" : student.answered ? " — answered " : " — not answered yet ";
        const item = html("li", undefined, `${student.name}${answered || " "}`);
        if (student.answered !== undefined) item.dataset.answered = String(student.answered);
        const remove = button("Remove", "secondary");
        remove.setAttribute("aria-label", `Remove ${student.name} from the room`);
        remove.addEventListener("click", () => confirm(`Remove ${student.name} from the room? Their seat and answers go.`) && removeStudent(view.id, this.params.key, student.number)
          .then(showNames).catch((error) => notice(explain(error))));
        item.append(remove);
        return item;
      }));
      if (!students.length) nameList.replaceChildren(html("li", "hint", "Nobody has joined yet."));
    };
    names.addEventListener("click", () => showNames().catch((error) => notice(explain(error))));
    this.showNames = showNames; // shown once, the list follows the class (renderTeacher)
    const door = button("Close to newcomers", "secondary");
    door.id = "room-door";
    door.setAttribute("aria-pressed", "false");
    door.addEventListener("click", async () => {
      const locked = door.getAttribute("aria-pressed") !== "true";
      try {
        await lockRoom(view.id, this.params.key, locked);
        door.setAttribute("aria-pressed", String(locked));
        door.textContent = locked ? "Open to newcomers" : "Close to newcomers";
      } catch (error) {
        notice(explain(error));
      }
    });
    const end = button("End the room", "secondary");
    end.addEventListener("click", () => confirm("End the room for everyone? Every student's view of it closes.")
      && endRoom(view.id, this.params.key).catch((error) => notice(explain(error))));
    // The projector's own window: its key watches the room and controls nothing.
    const audience = button("Open the audience view", "secondary");
    audience.addEventListener("click", () => {
      rememberRoomKey(`${view.id}#audience`, { role: "audience", key: this.view?.audienceKey ?? view.audienceKey });
      window.open(`#audience/${view.id}`, "_blank");
    });
    // The report: every answer, question by question and vote by vote (the room's cookie opens it).
    const report = html("p", "room-report");
    report.append("The class's answers so far: ");
    for (const [format, words] of [["csv", "CSV"], ["json", "JSON"]]) {
      const link = html("a", undefined, words);
      link.href = roomAddress({ id: view.id, role: "teacher" }, "/report", { format });
      link.download = `room-report.${format}`;
      link.id = `room-report-${format}`;
      report.append(link, format === "csv" ? " · " : ".");
    }
    head.append(code, present, audience, names, door, end, report);
    const shell = html("div", "room-class-view");
    this.section.replaceChildren(this.heading(view.title), head, this.link, nameList, ...this.courseControls(view), this.askForm(view), shell);
    return shell;
  }

  /** For a course: the lesson shown, and buttons to the one before and after. */
  courseControls(view) {
    const course = view.course;
    if (!course || course.lessons.length < 2) return [];
    const line = html("p", "room-course");
    line.id = "room-lesson";
    line.append(`Lesson ${course.current + 1} of ${course.lessons.length}: `, html("strong", undefined, course.lessons[course.current].title), " ");
    for (const [text, index] of [["Previous lesson", course.current - 1], ["Next lesson", course.current + 1]]) {
      if (index < 0 || index >= course.lessons.length) continue;
      const move = button(text, "secondary");
      move.addEventListener("click", () => moveRoom(view.id, this.params.key, index).catch((error) => notice(explain(error))));
      line.append(move, " ");
    }
    return [line];
  }

  /** Replaces the panel's content, the focused control focused again (found by its id). */
  keepFocus(replace) {
    const focused = this.section.contains(document.activeElement) ? document.activeElement.id : null;
    replace();
    if (focused) byId(focused)?.focus();
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

  /**
   * The audience view, for the projector: the room's code to join with, the question, and how
   * many answered — nothing of the answer (the server sends none) until the reveal, then the
   * answer and the class's answers.
   */
  renderAudience(view) {
    const join = html("p", "room-code");
    join.append("Join at ", html("strong", undefined, `${location.origin}/#join/${view.code}`), " — code ",
      html("strong", "room-code-value", view.code));
    const parts = [this.heading(view.title), join, this.link];
    const question = view.question;
    if (!question) parts.push(html("p", "room-status", `${view.students} joined. The question comes soon.`));
    else if (question.revealed) parts.push(prose("p", questionWords(question)), ...materialRows(question), ...classPanel(view));
    else parts.push(prose("p", questionWords(question)), ...materialRows(question), ...presentedCounts({ ...view, class: { answered: view.answered } }));
    this.keepFocus(() => this.section.replaceChildren(...parts));
  }

  renderStudent(view) {
    const lesson = view.course && view.course.lessons.length > 1
      ? ` Lesson ${view.course.current + 1} of ${view.course.lessons.length}: ${view.course.lessons[view.course.current].title}.` : "";
    const parts = [this.heading(view.title), html("p", "hint", `You are ${view.you?.name ?? "a student"} in this room.${lesson}`), this.link];
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
    parts.push(prose("p", questionWords(question)), ...legend(question.letters), ...materialRows(question));
    if (question.round === 2 && !question.revealed) {
      const second = prose("p", `Second vote: talk it over with your neighbours, then answer again.${view.you?.first ? ` Your first answer was \`${view.you.first}\`.` : ""}`);
      second.id = "room-round";
      parts.push(second);
    }
    if (question.revealed) {
      const note = view.you?.note ? [html("p", "room-teacher-note", `Your teacher's note: ${view.you.note}`)] : [];
      if (note.length) note[0].id = "room-teacher-note";
      parts.push(...revealPanel(question, view.you?.answer), ...note, home);
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

/** In presentation mode before the reveal: how many joined and answered, and nothing of the answers. */
function presentedCounts(view) {
  const counts = html("p", "room-counts", `${view.students} joined · ${view.class?.answered ?? 0} answered`);
  counts.id = "room-counts";
  return [counts, html("p", "room-presenting-note", "The answer and the class's answers show after the reveal.")];
}

/** The teacher's table of how the class moved between the two votes (none before the second). */
function movementTable(movement) {
  if (!movement) return [];
  const table = html("table", "room-movement");
  table.id = "room-movement";
  table.append(html("caption", undefined, `From the first vote (${movement.firstRight} of ${movement.firstAnswered} right) to the second, of those who answered both`));
  for (const [words, count] of [["right → right", movement.rightToRight], ["wrong → right", movement.wrongToRight],
    ["right → wrong", movement.rightToWrong], ["wrong → wrong", movement.wrongToWrong]]) {
    const row = table.appendChild(html("tr"));
    row.append(html("th", undefined, words), html("td", undefined, String(Number(count) || 0)));
    row.firstChild.scope = "row";
  }
  const change = movement.normalizedChange;
  const words = change === undefined || change === null ? "Normalized change: none to measure (everyone was right, or nobody answered both)."
    : `Normalized change: ${Math.round(change * 100)} % of what could be gained.`;
  return [table, html("p", "room-change", words)];
}
