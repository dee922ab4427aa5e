// The lesson writer (`#lessons/new`, and `#lessons/copy=KEY` from "Edit a copy"): a lesson's
// fields, checked as they are typed by the server's lesson validator (POST /api/lessons/check, the
// rules of the course's own files), each problem said under its field; "Use what it draws" fills
// the answers from a real run; previewed as a learner; kept by a link (a new version of the link it
// was copied from); copied as JSON for Public/lessons/. The draft is kept in this browser.
import { APIError, checkLesson, keepLink } from "../lib/api.js";
import { byId, html } from "../lib/dom.js";
import { LINK_ID } from "./lesson-source.js";
import { fieldsFromLesson, idFromTitle, lessonFromFields, writeNamed, writeValues } from "./lesson-form.js";
import { rememberLink } from "../lib/links.js";

const DRAFT_KEY = "playground.lessonDraft";
/** How long typing pauses before the lesson is checked. */
const CHECK_DELAY_MS = 400;

export class LessonWriter {
  /** `source`: where lessons come from (`LessonSource`), to copy one. */
  constructor(source) {
    this.source = source;
    this.controls = [...byId("writer-form").querySelectorAll("[data-field]")];
    this.base = {};
    this.from = null;
    this.drawn = null;
    for (const control of this.controls) {
      control.addEventListener("input", () => this.changed(control));
      const problem = html("p", "writer-problem");
      problem.id = `${control.id}-problem`;
      problem.hidden = true;
      control.setAttribute("aria-describedby", problem.id);
      control.after(problem);
    }
    byId("writer-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.keep();
    });
    byId("writer-fill").addEventListener("click", () => this.fill());
    byId("writer-preview").addEventListener("click", () => {
      this.saveDraft();
      location.hash = "lessons/preview";
    });
    byId("writer-copy").addEventListener("click", () => this.copyJSON());
    byId("writer-clear").addEventListener("click", () => this.start({}, null));
  }

  /** Opens the writer on a copy of lesson `copy` (a built-in id or a link's), else on the draft. */
  async mount({ copy }) {
    byId("writer").hidden = false;
    if (copy) {
      const lesson = await this.source.lesson(copy);
      if (!lesson) throw new APIError(404, "lesson_not_found", "There is no such lesson to copy.");
      this.start({ ...lesson, title: LINK_ID.test(copy) ? lesson.title : `${lesson.title} (my version)` }, LINK_ID.test(copy) ? copy : null);
      if (!LINK_ID.test(copy)) byId("writer-id").value = `${lesson.id}-mine`;
    } else {
      const draft = this.loadDraft();
      this.start(draft?.lesson ?? {}, draft?.from ?? null);
    }
    byId("writer-title").focus();
  }

  unmount() {
    byId("writer").hidden = true;
  }

  /** The lesson the fields say now. */
  lesson() {
    return lessonFromFields(this.fields(), this.base).lesson;
  }

  fields() {
    return Object.fromEntries(this.controls.map((control) => [control.dataset.field, control.value]));
  }

  /** Fills the fields with `lesson`, a new version of link `from` (or of nothing), and checks it. */
  start(lesson, from) {
    const { title, id, rac, explanation, inputs, values, program, predict, expected, subscriptions, result, challenge, ...rest } = lesson;
    const { task, solution, wrong, ...challengeRest } = challenge ?? {};
    this.base = { ...rest, ...(Object.keys(challengeRest).length ? { challenge: challengeRest } : {}) };
    this.from = from;
    const fields = fieldsFromLesson(lesson);
    for (const control of this.controls) control.value = fields[control.dataset.field] ?? "";
    byId("writer-from").hidden = !from;
    byId("writer-from").textContent = from ? `A new version of the lesson kept at /s/${from}: keeping it makes a new link, from that one.` : "";
    byId("writer-keep").textContent = from ? "Keep as a new version" : "Keep as a link";
    byId("writer-json").hidden = true;
    byId("writer-status").textContent = "";
    this.saveDraft();
    this.check();
  }

  changed(control) {
    // The id follows the title until the author writes one.
    if (control.id === "writer-lesson-title" && (!byId("writer-id").value || byId("writer-id").value === this.autoID)) {
      byId("writer-id").value = this.autoID = idFromTitle(control.value);
    }
    this.saveDraft();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), CHECK_DELAY_MS);
  }

  /** Checks the lesson: the form's own reading first, then the server's validator. */
  async check() {
    const visit = (this.visit = (this.visit ?? 0) + 1);
    const { lesson, problems } = lessonFromFields(this.fields(), this.base);
    if (problems.length) return this.show(problems);
    byId("writer-summary").textContent = "Checking…";
    let answer;
    try {
      answer = await checkLesson(lesson);
    } catch (error) {
      if (visit === this.visit) byId("writer-summary").textContent = `Not checked: ${error.message}`;
      return;
    }
    if (visit !== this.visit) return; // a later keystroke's check answers instead
    this.drawn = answer.drawn ?? null;
    this.show(answer.problems);
  }

  /** Says each problem under its field (the one whose name is the longest start of the problem's). */
  show(problems) {
    const byControl = new Map(this.controls.map((control) => [control, []]));
    const general = [];
    for (const problem of problems) {
      const control = this.controls
        .filter((item) => problem.field === item.dataset.field || problem.field.startsWith(`${item.dataset.field}.`) || problem.field.startsWith(`${item.dataset.field}[`))
        .sort((a, b) => b.dataset.field.length - a.dataset.field.length)[0];
      if (control) byControl.get(control).push(problem.message);
      else general.push(`${problem.field ? `${problem.field}: ` : ""}${problem.message}`);
    }
    for (const [control, messages] of byControl) {
      const line = byId(`${control.id}-problem`);
      line.hidden = !messages.length;
      line.textContent = messages.join(" ");
      if (messages.length) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
    }
    this.problems = problems;
    byId("writer-summary").textContent = problems.length
      ? `${problems.length} problem${problems.length === 1 ? "" : "s"} to fix${general.length ? `: ${general.join(" ")}` : ", each said under its field."}`
      : "Checked: the lesson keeps every rule. Preview it, then keep it.";
  }

  /** Writes what the program and the solution really draw as the answers, for the author to confirm. */
  fill() {
    if (!this.drawn) {
      byId("writer-status").textContent = "Nothing drawn yet: the program and the solution must run first.";
      return;
    }
    const lesson = this.lesson();
    const pick = (drawn, names) => Object.fromEntries(names.filter((name) => name in drawn).map((name) => [name, drawn[name]]));
    const named = Object.keys(lesson.expected).length ? Object.keys(lesson.expected) : [lesson.predict];
    const goals = Object.keys(lesson.challenge.expected).length ? Object.keys(lesson.challenge.expected) : [lesson.predict];
    byId("writer-expected").value = writeNamed(pick(this.drawn.lesson.expected, named));
    byId("writer-challenge-expected").value = writeNamed(pick(this.drawn.challenge.expected, goals));
    if (lesson.subscriptions && this.drawn.lesson.subscriptions[lesson.subscriptions.stream]) {
      byId("writer-subscriptions").value = `${lesson.subscriptions.stream}: ${this.drawn.lesson.subscriptions[lesson.subscriptions.stream].join(", ")}`;
    }
    if (Object.keys(this.drawn.values).length) byId("writer-values").value = writeValues({ ...(lesson.values ?? {}), ...this.drawn.values });
    byId("writer-status").textContent = "The answers are what the program draws now: read them before you keep the lesson.";
    this.saveDraft();
    this.check();
  }

  async keep() {
    const status = byId("writer-status");
    await this.check();
    if (this.problems?.length) {
      status.textContent = "Fix the problems first: a lesson is kept only when it keeps every rule.";
      return;
    }
    const lesson = this.lesson();
    status.textContent = "Keeping…";
    try {
      const link = await keepLink({ kind: "lesson", title: lesson.title, content: JSON.stringify(lesson, null, 2), from: this.from });
      rememberLink(link);
      this.from = link.id;
      byId("writer-keep").textContent = "Keep as a new version";
      const anchor = html("a", undefined, `${location.origin}/s/${link.id}`);
      anchor.href = `/s/${link.id}`;
      status.replaceChildren(link.from ? `Kept as a new version (from /s/${link.from}): ` : "Kept: ", anchor, ". It is in My links.");
      this.saveDraft();
    } catch (error) {
      if (error.details?.problems) this.show(error.details.problems);
      status.textContent = `Not kept: ${error.message}`;
    }
  }

  /** The lesson as JSON, for a file of Public/lessons/: shown, selected and put on the clipboard. */
  async copyJSON() {
    const text = `${JSON.stringify(this.lesson(), null, 2)}\n`;
    const area = byId("writer-json");
    area.value = text;
    area.hidden = false;
    area.select();
    try {
      await navigator.clipboard.writeText(text);
      byId("writer-status").textContent = `Copied. Save it as Public/lessons/NN-${this.lesson().id}.json (docs/LESSONS.md).`;
    } catch {
      byId("writer-status").textContent = "The JSON is below, selected: copy it.";
    }
  }

  saveDraft() {
    try {
      localStorage.setItem(DRAFT_KEY, JSON.stringify({ lesson: this.lesson(), from: this.from }));
    } catch {
      // Storage may be off: the draft lasts as long as the page.
    }
  }

  loadDraft() {
    try {
      return JSON.parse(localStorage.getItem(DRAFT_KEY) ?? "null");
    } catch {
      return null;
    }
  }
}
