// The course (`#learn`, one lesson at `#learn/ID`): each lesson explains, shows a program (or a
// built-in scenario) and its input rows, asks the learner to predict a stream in marble notation
// before running it, draws the real output (POST /api/marbles, or POST /api/scenarios/{id}/marbles)
// with the prediction compared marble by marble, then sets a challenge checked against the lesson's
// reference solution on rows of its own. Lessons are data (Public/lessons/, docs/LESSONS.md, or
// lesson links: `lesson-source.js`); progress is kept in this browser, by lesson.
import { describeProblems, drawMarbles, drawScenarioMarbles } from "../lib/api.js";
import { docsLink, docsPage, docsTypePage } from "../lib/docs-links.js";
import { byId, html, prose } from "../lib/dom.js";
import { versionOf } from "../lib/links.js";
import { parseRow, parseSubscription, writtenAs } from "../lib/marble-notation.js";
import { FRAME_WIDTH, editableRow, outputLane, rowDrawing } from "../lib/marble-row.js";
import { CourseMaker } from "./course-maker.js";
import { MachineQuestions } from "./machine-question.js";
import { MARKS, checkRow, innerSignals, laneGroup, lessonRow, subscriptionRow, withReason } from "./lesson-drawings.js";
import { challengeFailure, heldSubscriptions } from "./challenge-drawings.js";
import { challengeDifferences, compareEvents, describeItem, drawnEvents, lessonProgram, notationEvents, relabel, scenarioQuery, subscriptionsOf } from "./lesson-check.js";

const PROGRESS_KEY = "playground.lessons";
const FRAME = 100;

/** Where the progress of the whole path, or of course `courseID` (a course's own), is kept. */
function progressKey(courseID) {
  return courseID ? `${PROGRESS_KEY}.course.${courseID}` : PROGRESS_KEY;
}

function loadProgress(courseID) {
  try {
    return JSON.parse(localStorage.getItem(progressKey(courseID)) ?? "{}") ?? {};
  } catch {
    return {};
  }
}

function saveProgress(progress, courseID) {
  try {
    localStorage.setItem(progressKey(courseID), JSON.stringify(progress));
  } catch {
    // Storage may be off (private windows): progress lasts as long as the page.
  }
}

/** Every letter a lesson's rows and predictions may use, with its value: the rows', then the lesson's own. */
function lessonValues(lesson) {
  return Object.assign({}, ...lesson.inputs.map((input) => input.values ?? {}), lesson.values ?? {});
}

/** Events (`drawnEvents`, `notationEvents`) with the words of the lesson's labels for their letters. */
function labelled(lesson, events) {
  return lesson.labels ? events.map((event) => (event.symbol in lesson.labels ? { ...event, text: lesson.labels[event.symbol] } : event)) : events;
}

/** What a lesson runs: its scenario on its rows, or its program after its rows. */
function runLesson(lesson) {
  return lesson.scenario ? drawScenarioMarbles(lesson.scenario, scenarioQuery(lesson.inputs)) : drawMarbles(lessonProgram(lesson.inputs, lesson.program));
}

export class LearnView {
  /** `source`: where lessons come from (`LessonSource`), shared with the lesson writer. */
  constructor(source) {
    this.section = byId("learn");
    this.source = source;
    this.lessons = null;
    this.progress = loadProgress();
    byId("learn-title").tabIndex = -1;
    byId("lesson-title").tabIndex = -1;
    byId("predict-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.check();
    });
    byId("challenge-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.checkChallenge();
    });
    byId("lesson-restart").addEventListener("click", () => this.restart());
    this.courseMaker = new CourseMaker();
    this.machine = new MachineQuestions(byId("machine"), byId("machine-questions"));
    // Ctrl+Enter (⌘+Enter) checks what is typed in a lesson's boxes, as it runs the editor's.
    for (const form of [byId("predict-form"), byId("challenge-form")]) {
      form.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
        event.preventDefault();
        form.requestSubmit();
      });
    }
    byId("prediction").addEventListener("input", () => {
      const text = byId("prediction").value.trim();
      byId("prediction-problem").textContent = text ? parseRow(text).error ?? "" : "";
    });
    // The prediction drawn on a row of its own; a new marble takes the first of the inputs'
    // letters the row does not use yet.
    this.drawn = editableRow({
      name: "prediction", field: byId("prediction"), lane: byId("prediction-lane"), endChoice: byId("prediction-end"),
      letters: () => [...new Set([
        ...(this.lesson?.inputs ?? []).flatMap((input) => parseRow(input.marbles).values?.map((value) => value.symbol) ?? []),
        ...Object.keys(this.lesson?.values ?? {}),
      ])],
      minFrames: () => (this.lesson ? this.width(this.lesson) / FRAME_WIDTH : 16),
      onChange: () => { byId("prediction-problem").textContent = ""; },
    });
  }

  /**
   * Shows the path, or lesson `id` (a built-in lesson's, or a lesson link's); with `course`
   * (`{id, title, lessons}`, a course kept by a link) the path is that course's lessons in its
   * order, until the whole course is asked for; with `preview` (a lesson being written) that
   * lesson, as a learner sees it, its progress kept nowhere.
   */
  async mount({ id, course, preview }) {
    this.section.hidden = false;
    const before = this.course?.id;
    if (course !== undefined) this.course = course;
    else if (!id) this.course = null;
    // Each course keeps its learner's progress apart from the whole path's.
    if (this.course?.id !== before) this.progress = loadProgress(this.course?.id);
    const visit = (this.visit = (this.visit ?? 0) + 1); // a later route wins over a lesson still loading
    this.lessons = await this.source.lessons();
    if (this.course) await this.source.learn(this.course.lessons);
    if (visit !== this.visit) return;
    if (preview) {
      this.display(preview, null);
      byId("lesson-title").focus();
    } else if (id && await this.show(id, visit)) byId("lesson-title").focus();
    else if (visit === this.visit) {
      this.showPath();
      byId("learn-title").focus();
    }
  }

  unmount() {
    this.section.hidden = true;
  }

  /** The lessons of the path: the course's, in its order, or every lesson. */
  get path() {
    if (!this.course) return this.lessons;
    return this.course.lessons.map((key) => this.source.entry(key)).filter(Boolean);
  }

  /** The path: every lesson in order (or the course's), with what the learner has done of it. */
  showPath() {
    byId("lesson").hidden = true;
    byId("learn-path").hidden = false;
    byId("learn-title").textContent = this.course ? `Course: ${this.course.title}` : "Learn ReactiveCocoa, a lesson at a time";
    byId("learn-course").hidden = !this.course;
    byId("learn-course-from").replaceChildren(...versionOf(this.course));
    const list = byId("learn-list");
    list.replaceChildren();
    for (const lesson of this.path) {
      const done = this.progress[lesson.id] ?? {};
      const item = html("li");
      item.dataset.lesson = lesson.id;
      const link = html("a", undefined, lesson.title);
      link.href = `#learn/${lesson.id}`;
      const state = done.challenge ? "done" : done.predicted ? "predicted, challenge left" : "not started";
      item.append(link, html("span", `lesson-state lesson-${done.challenge ? "done" : done.predicted ? "started" : "new"}`, ` — ${state}`));
      list.appendChild(item);
    }
    const titles = Object.fromEntries(this.path.map((entry) => [entry.id, entry.title]));
    this.courseMaker.offer(this.lessons, this.course && { ...this.course, titles });
    const next = this.path.find((lesson) => !this.progress[lesson.id]?.challenge);
    byId("learn-next").hidden = !next;
    if (next) byId("learn-next").href = `#learn/${next.id}`;
  }

  /** Shows lesson `id`, unless another route came while it loaded (`visit`, from `mount`). */
  async show(id, visit = this.visit) {
    const lesson = await this.source.lesson(id);
    if (!lesson || visit !== this.visit) return false;
    this.display(lesson, id);
    return true;
  }

  /** Shows `lesson`, its progress kept under `key` (none: a preview, kept nowhere). */
  display(lesson, key) {
    this.lesson = lesson;
    this.key = key;
    const path = this.path;
    const index = key === null ? -1 : path.findIndex((item) => item.id === key);
    byId("learn-path").hidden = true;
    byId("lesson").hidden = false;
    byId("lesson-preview").hidden = key !== null;
    byId("lesson-edit").hidden = key === null;
    byId("lesson-edit").href = `#lessons/copy=${key}`;
    byId("lesson-title").textContent = index >= 0 ? `${index + 1}. ${lesson.title}` : lesson.title;
    byId("lesson-rac").textContent = `${lesson.teaches?.length ? `Teaches ${lesson.teaches.join(", ")} · ` : ""}RAC: ${lesson.rac}`;
    byId("lesson-from").replaceChildren(...versionOf(this.source.entry(key)?.link));
    // An operator used before the lesson that teaches it is said so (CourseOrder holds the course to it).
    const ahead = Object.entries(lesson.ahead ?? {}).map(([name, id]) => {
      const at = path.findIndex((item) => item.id === id);
      return `\`${name}\` is shown ahead here: ${at >= 0 ? `lesson ${at + 1}, ${path[at].title},` : "a later lesson"} teaches it.`;
    });
    byId("lesson-explanation").replaceChildren(...[...lesson.explanation, ...ahead].map((text) => prose("p", text)));
    byId("lesson-program").textContent = lesson.scenario ? lesson.code : lessonProgram(lesson.inputs, lesson.program);
    byId("lesson-scenario").hidden = !lesson.scenario;
    byId("lesson-code-caption").hidden = !lesson.scenario;
    if (lesson.scenario) {
      byId("lesson-scenario-link").href = `#${lesson.scenario}`;
      byId("lesson-scenario-link").textContent = `the ${lesson.scenario} scenario`;
    }
    this.linkDocumentation(lesson);
    const rows = byId("lesson-inputs");
    rows.replaceChildren();
    rows.replaceChildren(laneGroup("The lesson's input rows", lesson.inputs.map((input) => lessonRow(input.name,
      outputLane(input.name, rowDrawing(input.marbles, parseRow(input.marbles), input.values ?? {}, FRAME), FRAME, this.width(lesson)), input.marbles))));
    byId("prediction-label").replaceChildren(prose("span", `What does \`${lesson.predict}\` send? Write it in marble notation before you run it.`));
    byId("prediction").value = "";
    byId("prediction-problem").textContent = "";
    // The lesson's letters, one a line: a value as JSON (an object's fields in order), in code.
    const legend = Object.entries(lesson.values ?? {});
    const list = html("ul", "lesson-legend");
    for (const [letter, value] of legend) {
      const words = lesson.labels?.[letter];
      list.appendChild(html("li")).append(html("code", undefined, letter), " = ",
        words ? words : html("code", undefined, JSON.stringify(value, null, 1).replace(/\n\s*/g, " ")));
    }
    byId("prediction-legend").hidden = !legend.length;
    byId("prediction-legend").replaceChildren(...(legend.length ? ["Letters for what it may send:", list] : []));
    this.drawn.read();
    byId("subscriptions-field").hidden = !lesson.subscriptions;
    byId("subscriptions-prediction").value = "";
    if (lesson.subscriptions) {
      byId("subscriptions-label").replaceChildren(prose("span",
        `And how ${lesson.subscriptions.stream.includes("·") ? "are the signals" : "is"} \`${lesson.subscriptions.stream}\` subscribed to? One line per subscription: \`^\` in the frame it begins, \`!\` in the frame it is disposed of (RxJS subscription marbles).`));
    }
    byId("lesson-result").replaceChildren();
    byId("lesson-after").hidden = true;
    byId("lesson-after").replaceChildren(prose("p", lesson.result));
    this.machine.show(lesson);
    byId("challenge-task").replaceChildren(prose("p", lesson.challenge.task));
    byId("challenge-program").value = this.progress[key]?.program ?? lesson.challenge.program ?? lesson.program;
    const names = lesson.challenge.inputs.map((row) => `\`${row.name}\``);
    byId("challenge-rows").replaceChildren(prose("span", `Your program reads the row${names.length === 1 ? "" : "s"} ${names.join(", ")}; the check runs it on rows of its own.`));
    byId("challenge-result").replaceChildren();
    byId("challenge-status").textContent = this.progress[key]?.challenge ? "Passed before. Check it again, or restart the lesson." : "";
    const next = index >= 0 ? path[index + 1] : null;
    byId("lesson-next").hidden = !next;
    if (next) {
      byId("lesson-next").href = `#learn/${next.id}`;
      byId("lesson-next").textContent = `Next: ${next.title}`;
    }
  }

  /**
   * Links the lesson's `docs` (types such as `Channel`, operators such as `deliver(on:)`), or else
   * the operators its program calls (`.skip(`, `.flatMap(`), to their documentation.
   */
  async linkDocumentation(lesson) {
    const line = byId("lesson-docs");
    line.replaceChildren();
    line.hidden = true;
    const names = lesson.docs ?? [...new Set([...(lesson.program ?? lesson.code ?? "").matchAll(/\.(\w+)\s*[({]/g)].map((match) => match[1]))];
    const pages = (await Promise.all(names.map((name) => (/^[A-Z]/.test(name) ? docsTypePage(name) : docsPage(name))))).filter(Boolean);
    if (this.lesson !== lesson || !pages.length) return;
    line.append("Reactive's documentation: ");
    pages.forEach((page, index) => line.append(...(index ? [", "] : []), docsLink(page)));
    line.hidden = false;
  }

  width(lesson) {
    const longest = Math.max(...lesson.inputs.map((input) => input.marbles.length), ...Object.values(lesson.expected).map((text) => text.length));
    return Math.max(16, longest + 4) * FRAME_WIDTH;
  }

  /** Runs the lesson's program and draws the stream against the prediction, marble by marble. */
  async check() {
    const lesson = this.lesson;
    const text = byId("prediction").value.trim();
    const values = lessonValues(lesson);
    const parsed = notationEvents(text, values);
    if (parsed.error) {
      byId("prediction-problem").textContent = parsed.error;
      byId("prediction").focus();
      return;
    }
    const predicted = labelled(lesson, parsed);
    let answer;
    try {
      answer = await runLesson(lesson);
    } catch (error) {
      byId("lesson-result").replaceChildren(html("p", "notice", `Not run: ${error.message}`));
      return;
    }
    if (this.lesson !== lesson) return;
    const drawing = relabel(answer.streams[lesson.predict], values);
    const items = compareEvents(predicted, labelled(lesson, drawnEvents(drawing, answer.frame, { byValue: true })));
    const right = items.every((item) => item.status === "right");
    const width = this.width(lesson);
    const subscriptions = this.subscriptionsChecked(lesson, answer, width);
    const inner = lesson.inner ? innerSignals(lesson.inputs, lesson.inner, answer, width) : { rows: [], words: null };
    const list = html("ul", "lesson-mismatches");
    list.setAttribute("aria-label", "Marble by marble");
    for (const item of items) {
      const entry = html("li", `lesson-${item.status}`, `${MARKS[item.status]} ${describeItem(item, answer.frame)}`);
      entry.dataset.status = item.status;
      list.appendChild(entry);
    }
    byId("lesson-result").replaceChildren(
      html("p", `lesson-verdict ${right ? "lesson-right" : "lesson-wrong"}`, right
        ? `Right: ${lesson.predict} sends ${writtenAs(drawing, answer.frame)}.`
        : `Not quite: ${lesson.predict} sends ${writtenAs(drawing, answer.frame)}; you predicted ${text || "nothing"}.`),
      ...subscriptions.verdict,
      laneGroup(`What ${lesson.predict} sent against your prediction`, [
        withReason(lessonRow(`${lesson.predict} (sent)`, outputLane(lesson.predict, drawing, answer.frame, width, new Set(), { threads: lesson.threads }),
          writtenAs(drawing, answer.frame)), drawing, `\`${lesson.predict}\``),
        lessonRow("your prediction", outputLane("your prediction", rowDrawing(text, parseRow(text), values, FRAME), FRAME, width), text),
        checkRow(items, width),
        ...subscriptions.rows,
        ...heldSubscriptions(lesson, answer, width),
        ...inner.rows,
      ]),
      list,
      ...(inner.words ? [inner.words] : []),
    );
    byId("lesson-after").hidden = false;
    this.record({ predicted: true, predictedRight: (right && subscriptions.right) || this.progress[this.key]?.predictedRight });
  }

  /**
   * For a lesson about subscriptions: the predicted subscriptions of its stream against the real
   * ones (`POST /api/marbles` answers them), each drawn as a line from `^` to `!`. Answers whether
   * they agree, the verdict (none, or a paragraph) and the rows.
   */
  subscriptionsChecked(lesson, answer, width) {
    if (!lesson.subscriptions) return { right: true, verdict: [], rows: [] };
    const name = lesson.subscriptions.stream;
    const real = subscriptionsOf(answer, name);
    const predicted = byId("subscriptions-prediction").value.split("\n").map((line) => line.trim()).filter(Boolean);
    const same = (first, second) => first.length === second.length && first.every((text, index) => {
      const [a, b] = [parseSubscription(text), parseSubscription(second[index])];
      return a.start === b.start && a.end === b.end;
    });
    const right = same(predicted, real);
    const verdict = html("p", `lesson-verdict ${right ? "lesson-right" : "lesson-wrong"}`, right
      ? `Subscriptions of ${name}: right, ${real.join(" ")}.`
      : `Subscriptions of ${name}: the program made ${real.join(" ") || "none"}; you predicted ${predicted.join(" ") || "none"}.`);
    const rows = [
      subscriptionRow(`${name}'s subscriptions`, real, width),
      subscriptionRow("your predicted subscriptions", predicted.filter((text) => /^\s*-*\(?\^/.test(text)), width),
    ];
    return { right, verdict: [verdict], rows };
  }

  /** Runs the learner's program and the reference solution on the challenge's rows, and compares. */
  async checkChallenge() {
    const lesson = this.lesson;
    const program = byId("challenge-program").value;
    const status = byId("challenge-status");
    status.textContent = "Checking…";
    byId("challenge-result").replaceChildren(); // no drawing of an earlier check under this one's answer
    let mine;
    let goal;
    try {
      [mine, goal] = await Promise.all([
        drawMarbles(lessonProgram(lesson.challenge.inputs, program)),
        drawMarbles(lessonProgram(lesson.challenge.inputs, lesson.challenge.solution)),
      ]);
    } catch (error) {
      status.replaceChildren(prose("span", error.code === "pipeline_invalid"
        ? `Your program cannot run: ${describeProblems(error, lesson.challenge.inputs.length)}.`
        : `Not checked: ${error.message}`));
      return;
    }
    if (this.lesson !== lesson) return;
    const differences = challengeDifferences(lesson.challenge, mine, goal);
    const { problems } = differences;
    status.replaceChildren(prose("span", problems.length ? `Not yet. ${problems.join(" ")}` : "Passed: your program does what the challenge asks, on rows of its own."));
    status.dataset.passed = problems.length ? "false" : "true";
    byId("challenge-result").replaceChildren(...challengeFailure(lesson, differences, { mine, goal, program }));
    this.record({ program, challenge: !problems.length || Boolean(this.progress[this.key]?.challenge) });
  }

  record(changes) {
    if (this.key === null) return; // a preview
    this.progress[this.key] = { ...(this.progress[this.key] ?? {}), ...changes };
    saveProgress(this.progress, this.course?.id);
  }

  restart() {
    if (this.key !== null) {
      delete this.progress[this.key];
      saveProgress(this.progress, this.course?.id);
    }
    this.display(this.lesson, this.key);
    byId("prediction").focus();
  }
}
