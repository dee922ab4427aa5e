// A lesson's questions on the machine (docs/LESSONS.md, "Questions on the machine"): a number the
// learner predicts about the RAC objects the lesson's program builds — subscriptions made or
// alive, what a subject or serial disposable holds, what a replay subject keeps — answered by
// counting a real run's objects at one instant (POST /api/marbles?inside=MS). The count is the
// server's rule (MachineQuestion.counted(in:)), written again here; a Chromium test holds every
// shipped question's count here to the answer the server's check holds it to.
import { drawMarblesInside } from "../lib/api.js";
import { html, prose } from "../lib/dom.js";
import { lessonProgram } from "./lesson-check.js";

/** The changes said under a count, at most: an instant of a lesson is a few dozen. */
const MAX_CHANGES = 12;

const alive = (node) => node.disposed === undefined && node.released === undefined;

/**
 * What `question` counts in `graph` (an `inside` answer at `question.at`): `{count, nodes}` (the
 * objects counted, or the one asked about for `buffered`), or `{error}` when the run has not
 * exactly one object of the kind asked about. The playground's probes are never counted.
 */
export function countObjects(question, graph) {
  const own = graph.nodes.filter((node) => !node.probe);
  if (question.count === "made" || question.count === "alive") {
    const subscriptions = own.filter((node) => node.subscription !== undefined && (!question.stream || node.stream === question.stream));
    const nodes = question.count === "made" ? subscriptions : subscriptions.filter(alive);
    return { count: nodes.length, nodes };
  }
  const holders = own.filter((node) => node.kind === question.of && alive(node));
  if (holders.length !== 1) return { error: `The run has ${holders.length} objects of the kind asked about (${question.of}) alive then, not one.` };
  const [one] = holders;
  if (question.count === "buffered") return { count: one.buffered ?? 0, nodes: [one] };
  const byId = new Map(graph.nodes.map((node) => [node.id, node]));
  const nodes = one.holds.map((id) => byId.get(id)).filter((node) => node && (!question.kind || node.kind === question.kind));
  return { count: nodes.length, nodes, holder: one };
}

/** One object in words: `#2 RACPassthroughSubscriber, first's subscription 1, made at 0 ms, disposed at 100 ms`. */
export function describeNode(node) {
  const whose = node.stream ? `, \`${node.stream}\`'s subscription ${node.subscription}` : "";
  const probe = node.probe ? " (the playground's probe)" : "";
  const end = node.disposed !== undefined ? `, disposed at ${node.disposed} ms` : node.released !== undefined ? `, freed at ${node.released} ms` : "";
  return `#${node.id} ${node.racClass}${probe}${whose}, made at ${node.created} ms${end}`;
}

/** The questions of one lesson, each a small form: a number, checked against the run's objects. */
export class MachineQuestions {
  constructor(section, list) {
    this.section = section;
    this.list = list;
  }

  /** Shows `lesson`'s questions (none: the section is hidden). */
  show(lesson) {
    this.lesson = lesson;
    const questions = lesson.machine ?? [];
    this.section.hidden = !questions.length;
    this.list.replaceChildren(...questions.map((question, index) => this.form(lesson, question, index)));
  }

  form(lesson, question, index) {
    const form = html("form", "lesson-form machine-question");
    const id = `machine-answer-${index}`;
    const label = prose("label", question.question);
    label.htmlFor = id;
    const input = html("input", "machine-answer");
    Object.assign(input, { id, type: "number", min: "0", max: "10000", step: "1", required: true, inputMode: "numeric", autocomplete: "off" });
    const button = html("button", "action", "Check my count");
    button.type = "submit";
    const result = html("div", "machine-result");
    result.setAttribute("role", "status");
    result.setAttribute("aria-live", "polite");
    const controls = html("div", "gallery-row-controls");
    controls.append(input, button);
    form.append(label);
    if (question.program) {
      const code = html("pre", "gallery-program");
      code.append(html("code", undefined, question.program));
      form.append(html("p", "hint", "On this program, with the lesson's rows:"), code);
    }
    form.append(controls, result);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.check(lesson, question, input, result);
    });
    return form;
  }

  async check(lesson, question, input, result) {
    const said = Number(input.value);
    if (!Number.isInteger(said) || said < 0) {
      result.replaceChildren(html("p", "notice", "Give a whole number: how many."));
      input.focus();
      return;
    }
    result.replaceChildren(html("p", "hint", "Running the program and counting its objects…"));
    let answer;
    try {
      answer = await drawMarblesInside(lessonProgram(lesson.inputs, question.program ?? lesson.program), question.at);
    } catch (error) {
      result.replaceChildren(html("p", "notice", `Not run: ${error.message}`));
      return;
    }
    if (this.lesson !== lesson) return;
    const counted = countObjects(question, answer.inside);
    if (counted.error) {
      result.replaceChildren(html("p", "notice", counted.error));
      return;
    }
    const right = counted.count === said;
    const verdict = html("p", `lesson-verdict ${right ? "lesson-right" : "lesson-wrong"}`, right
      ? `Right: ${counted.count}, counted from the run's objects at ${question.at} ms.`
      : `Not quite: the run's objects at ${question.at} ms count ${counted.count}; you said ${said}.`);
    verdict.dataset.count = String(counted.count);
    const objects = html("ul", "machine-objects");
    objects.setAttribute("aria-label", "The objects counted");
    for (const node of counted.nodes) objects.appendChild(prose("li", describeNode(node)));
    result.replaceChildren(verdict, ...(counted.holder ? [prose("p", `Held by ${describeNode(counted.holder)}:`)] : []), objects,
      ...this.narration(answer.inside, question.at), prose("p", question.result));
  }

  /** What changed in the frame up to the instant, in RAC's words, the probes aside. */
  narration(graph, at) {
    const probes = new Set(graph.nodes.filter((node) => node.probe).map((node) => node.id));
    const lines = graph.changes.filter((change) => change.t > at - 100 && !probes.has(change.node) && !/probe/.test(change.narration));
    if (!lines.length) return [];
    const list = html("ul", "machine-changes");
    list.setAttribute("aria-label", `What changed from ${Math.max(0, at - 100)} to ${at} ms`);
    for (const change of lines.slice(0, MAX_CHANGES)) list.appendChild(html("li", undefined, `${change.t} ms: ${change.narration}`));
    if (lines.length > MAX_CHANGES) list.appendChild(html("li", "hint", `and ${lines.length - MAX_CHANGES} more changes (the Inside panel of a live session shows them all).`));
    return [html("p", undefined, `What changed from ${Math.max(0, at - 100)} to ${at} ms:`), list];
  }
}
