// "This run as marbles": a session's recorded inputs as marble rows (the recording's `rows`), run
// again on a virtual clock with the server's timings, each stream drawn under the recorded run's
// with the events that differ ringed (run-compare.js) and said in words; the learner drags a
// keystroke later and it runs again. "Why is this different?" names the first input that differs.
import { drawMarbles, drawScenarioMarbles, readLink, sessionRecording } from "../lib/api.js";
import { html, svg } from "../lib/dom.js";
import { encodeProgram } from "../editor/editor.js";
import { describe } from "../lib/format.js";
import { FRAME_WIDTH, ROW_HEIGHT, drawSubscriptions, editableRow, outputLane } from "../lib/marble-row.js";
import { explain } from "../lib/notice.js";
import { compareRuns, runOfDrawing, runOfRecording } from "./run-compare.js";
import { RunView, firstEvent, idleLeadIn, tenths } from "./run-view.js";

/** How long the panel waits after an edit before it runs the rows again. */
const RUN_DELAY_MS = 150;
/** Real clocks deliver a few milliseconds late: events this much further apart are still the same. */
const REAL_CLOCK_SLACK_MS = 20;

const say = (value) => describe(value, 40);
/** The letters values take in a drawing when no row names them: a–z, then α–ω. */
const LETTERS = [..."abcdefghijklmnopqrstuvwxyz", ..."αβγδεζηθικλμνξοπρστυφχψω"];
const ms = (time) => `${Math.round(time)} ms`;
/** A run's title as text in quotes (never markup). */
const quoted = (text) => html("q", "run-title", text);

/** A subscription (`{start, end}` in ms, `end` null while live) in subscription notation at `frame`. */
function notation({ start, end, atEnd }, frame) {
  const from = Math.round(start / frame);
  if (end === null || atEnd) return `${"-".repeat(from)}^`;
  const to = Math.max(from, Math.round(end / frame));
  return to === from ? `${"-".repeat(from)}(^!)` : `${"-".repeat(from)}^${"-".repeat(to - from - 1)}!`;
}

/** What changed in one stream from the recorded run to `label` ("this run"), in words (empty: nothing). */
export function changesInWords(stream, label = "this run") {
  const words = [
    ...stream.moved.map((event) => `${event.kind === "next" ? say(event.value) : event.kind} moved from ${ms(event.from)} to ${ms(event.to)}`),
    ...stream.removed.map((event) => `${event.kind === "next" ? say(event.value) : event.kind} at ${ms(event.time)} is not in ${label}`),
    ...stream.added.map((event) => `${event.kind === "next" ? say(event.value) : event.kind} at ${ms(event.time)} is new`),
    ...stream.threads.map((event) => `${say(event.value)} at ${ms(event.time)} came on the ${event.to} thread, not ${event.from}`),
    ...stream.subscriptions.map(({ index, was, is }) => {
      const life = (subscription) => `${ms(subscription.start)}–${subscription.end === null || subscription.atEnd ? "live" : ms(subscription.end)}`;
      return `subscription ${index + 1} lived ${life(is)}, not ${life(was)}`;
    }),
  ];
  if (stream.more) words.push(`${Math.abs(stream.more)} ${stream.more > 0 ? "more" : "fewer"} subscription${Math.abs(stream.more) === 1 ? "" : "s"}`);
  return words;
}

export class RunRows {
  /** Builds the (hidden) panel after `after`. */
  constructor(after) {
    this.section = html("section", "panel run-rows");
    this.section.id = "run-rows";
    this.section.hidden = true;
    this.section.setAttribute("aria-labelledby", "run-rows-title");
    this.title = html("h3", undefined, "This run as marbles");
    this.title.id = "run-rows-title";
    this.title.tabIndex = -1;
    this.hint = html("p", "hint");
    this.left = html("p", "hint");
    this.which = html("p", "run-rows-which");
    this.which.id = "run-rows-which";
    this.from = html("p", "hint");
    this.from.id = "run-rows-from";
    this.values = html("p", "run-rows-values");
    this.why = html("p", "run-rows-why");
    this.why.id = "run-rows-why";
    this.why.setAttribute("role", "status");
    // The inputs' rows and the streams' scroll sideways as one, on one time axis; a keyboard reaches it too.
    const lanes = html("div", "lesson-lanes");
    lanes.tabIndex = 0;
    lanes.setAttribute("role", "region");
    lanes.setAttribute("aria-label", "The inputs' rows, then each stream: the recorded run above this one");
    this.inputs = html("div");
    this.outputs = html("div");
    this.outputs.id = "run-rows-outputs";
    lanes.append(this.inputs, this.outputs);
    this.edit = html("a", undefined, "Open these rows as a program in the editor");
    this.edit.id = "run-rows-edit";
    // Fit: the whole run in the panel's width, or back to full size (30 px a frame).
    this.fit = html("button", "secondary", "Fit");
    Object.assign(this.fit, { type: "button", id: "run-rows-fit", title: "Show the whole run in the panel's width" });
    this.fit.setAttribute("aria-pressed", "false");
    this.fit.addEventListener("click", () => {
      const fit = this.fit.getAttribute("aria-pressed") !== "true";
      this.fit.setAttribute("aria-pressed", String(fit));
      this.view.set({ fit });
    });
    const close = html("button", "secondary", "Close");
    close.type = "button";
    close.addEventListener("click", () => this.close());
    // Another run of the same scenario or program, by its link, compared with the recorded one.
    const form = html("form", "run-compare-form");
    const label = html("label", undefined, "Compare with another run of this (its link)");
    label.htmlFor = "run-compare-link";
    this.otherLink = html("input");
    Object.assign(this.otherLink, { type: "text", id: "run-compare-link", placeholder: "…/s/ID, or …#session=ID", spellcheck: false });
    const compare = html("button", "secondary", "Compare");
    compare.type = "submit";
    form.append(label, this.otherLink, compare);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.compareWith(this.otherLink.value.trim());
    });
    const links = html("p");
    links.append(this.edit, " ", close);
    const view = html("p", "run-rows-view");
    view.append(this.fit, " ", this.from);
    this.section.append(this.title, this.which, this.hint, this.left, this.values, form, this.why, view, lanes, links);
    after.after(this.section);
    this.view = new RunView(lanes, this.inputs);
    window.addEventListener("resize", () => this.view.fit && this.view.apply());
    this.timer = null;
    this.number = 0;
  }

  /**
   * Shows the rows of `recording` (with `rows`) of `scenario` (a built-in one, or a program): a
   * kept run's, called `name`, or live session `session`'s.
   */
  open(scenario, recording, { name = null, session = null } = {}) {
    const rows = recording.rows;
    Object.assign(this, { name, session });
    this.sayWhich(null);
    this.scenario = scenario;
    this.rows = { frame: rows.frame, inputs: { ...rows.inputs }, values: rows.values, until: rows.until };
    this.program = rows.program ?? null;
    this.recording = recording;
    this.recorded = runOfRecording(recording);
    this.tolerance = rows.frame / 2 + (recording.clock === "real" ? REAL_CLOCK_SLACK_MS : 0);
    this.frames = Math.ceil(rows.until / rows.frame) + 2;
    this.hint.textContent = `Its inputs, each in the nearest ${rows.frame} ms frame, run again on a virtual clock with the server's `
      + "timings. Drag a marble along its row (or focus it and use the arrow keys), or edit a row's notation: it runs again, "
      + "and each stream shows the recorded run above this one, the events that differ ringed.";
    this.left.textContent = rows.left ? `${rows.left} input events are not in the rows: ${rows.leftReason}` : "";
    this.left.hidden = !rows.left;
    this.values.textContent = Object.keys(rows.values).length
      ? `Values: ${Object.entries(rows.values).map(([letter, value]) => `${letter} = ${say(value)}`).join(" · ")}` : "";
    this.inputs.replaceChildren();
    for (const name of Object.keys(rows.inputs)) this.inputs.appendChild(this.inputRow(name));
    this.showFrom();
    this.section.hidden = false;
    this.title.focus();
    this.run();
  }

  /** Says which runs the panel shows: the recorded one above, and below it `other` (a run's name) or its rows run again. */
  sayWhich(other) {
    const recorded = this.name === null ? "this session" : quoted(this.name);
    if (other === null) this.which.replaceChildren("Recorded: ", recorded, " (above); below it, its rows run again.");
    else this.which.replaceChildren("Recorded: ", recorded, " (above); the other run: ", other, " (below).");
  }

  /** Whether the panel shows kept run `replay`, or (`replay` null) live session `session`. */
  showing(replay, session) {
    return !this.section.hidden && (replay ? this.recording === replay : this.session === session);
  }

  /** Focuses the field of the run to compare with. */
  focusCompare() {
    this.otherLink.focus();
  }

  close() {
    this.section.hidden = true;
    clearTimeout(this.timer);
  }

  /** One input's row: its notation in a field and drawn, both ways (marble-row.js). */
  inputRow(name) {
    const row = html("div", "gallery-row");
    const controls = html("div", "gallery-row-controls");
    const label = html("label", "gallery-row-name", name);
    const field = html("input", "gallery-notation");
    Object.assign(field, { type: "text", id: `run-row-${name}`, value: this.rows.inputs[name], spellcheck: false });
    label.htmlFor = field.id;
    controls.append(label, field);
    const lane = svg("svg", { class: "gallery-lane", height: ROW_HEIGHT, "aria-label": `${name}: its row; click to add a marble` });
    row.append(controls, lane);
    editableRow({
      name, field, lane, letters: () => Object.keys(this.rows.values), minFrames: () => this.frames,
      onChange: () => {
        this.rows.inputs[name] = field.value;
        this.view.apply();
        this.schedule();
      },
    });
    field.addEventListener("input", () => {
      this.rows.inputs[name] = field.value;
      this.view.apply();
      this.schedule();
    });
    return row;
  }

  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), RUN_DELAY_MS);
  }

  /** The program of the rows as they are now: each input's line its row (a program, or a scenario as the language states it). */
  programText() {
    if (!this.program) return null;
    return this.program.split("\n").map((line) => {
      const name = /^([A-Za-z_]\w*) = marbles\(/.exec(line)?.[1];
      if (!name || !(name in this.rows.inputs)) return line;
      const row = this.rows.inputs[name].replaceAll(" ", "") || "-";
      const letters = [...new Set(row.match(/[A-Za-z]/g) ?? [])].filter((letter) => letter in this.rows.values);
      const named = letters.map((letter) => `${letter}: ${JSON.stringify(this.rows.values[letter])}`);
      return `${name} = marbles(${[JSON.stringify(row), ...named, `frame: ${this.rows.frame}ms`].join(", ")})`;
    }).join("\n");
  }

  async run() {
    const number = ++this.number;
    const program = this.programText();
    if (program) this.edit.href = `#program=${encodeProgram(program)}`;
    this.edit.hidden = !program;
    this.why.textContent = "Running…";
    let answer;
    try {
      answer = this.scenario.program
        ? await drawMarbles(program, this.rows.until)
        : await drawScenarioMarbles(this.scenario.id, { inputs: this.rows.inputs, values: this.rows.values, frame: this.rows.frame }, this.rows.until);
    } catch (error) {
      if (number === this.number) this.why.textContent = explain(error);
      return;
    }
    if (number !== this.number) return;
    this.show(answer);
  }

  /** Each stream of this run of the rows under the recorded run's. */
  show(answer) {
    const run = runOfDrawing(answer, this.rows);
    this.sayWhich(null);
    const names = Object.keys(answer.streams).filter((stream) => !(stream in this.rows.inputs));
    this.draw(run, { label: "this run", kind: "rows", names, letters: (name) => answer.streams[name].values, tolerance: this.tolerance });
  }

  /**
   * Another run of the same scenario or program (a kept run's link, or a live session's) compared
   * with the recorded one, its inputs too; editing a row goes back to the rows' run.
   */
  async compareWith(address) {
    const kept = /\/s\/([A-Za-z0-9_-]+)/.exec(address)?.[1] ?? /^[A-Za-z0-9]{16}$/.exec(address)?.[0];
    const session = /\b([0-9a-f]{32})\b/.exec(address)?.[1];
    let other;
    let otherName;
    try {
      if (kept) {
        const link = await readLink(kept);
        other = JSON.parse(link.content);
        otherName = quoted(link.title);
      } else if (session) {
        other = await sessionRecording(session);
        otherName = `session …${session.slice(-8)}`;
      } else {
        throw new Error("Paste a run's link (…/s/ID, or its ID) or a session's (…#session=ID).");
      }
      if (!Array.isArray(other.events)) throw new Error("That link is not a run.");
    } catch (error) {
      this.why.textContent = explain(error);
      return;
    }
    const what = (recording) => recording.scenario ?? recording.pipeline?.program;
    if (what(other) !== what(this.recording)) {
      this.why.textContent = "That run is of another scenario or program: runs are compared with runs of the same one.";
      return;
    }
    this.number += 1; // a run of the rows still on its way is not drawn over this
    const run = runOfRecording(other);
    const names = [...new Set([...Object.keys(this.recorded.streams), ...Object.keys(run.streams)])].filter((name) => !name.includes("·"));
    const slack = [this.recording, other].some((recording) => recording.clock === "real") ? REAL_CLOCK_SLACK_MS : 0;
    this.frames = Math.ceil(Math.max(this.recorded.until, run.until) / this.rows.frame) + 2;
    this.sayWhich(otherName);
    this.draw(run, { label: "the other run", kind: "other", names, letters: () => ({}), tolerance: slack });
  }

  /**
   * Each of `names` of `run` under the recorded run's, on one time axis: the events that differ
   * ringed, what changed said, and the first input that differs named.
   */
  draw(run, { label, kind, names, letters, tolerance }) {
    const comparison = compareRuns(this.recorded, run, { tolerance });
    const first = comparison.firstInput;
    this.why.textContent = comparison.same
      ? `${label[0].toUpperCase()}${label.slice(1)} gives the recorded run's events${tolerance ? " (within a frame)" : ""}.`
      : first
        ? `Why is this different? The first input that differs is ${first.stream}'s ${first.kind === "next" ? say(first.value) : first.kind}: `
          + (first.from === null ? `new at ${ms(first.to)}.` : first.to === null ? `not in ${label} (at ${ms(first.from)} in the recorded one).`
            : `at ${ms(first.to)} in ${label}, at ${ms(first.from)} in the recorded one.`)
        : "The inputs are the recorded run's, and yet the streams differ: the ringed events say where.";
    const width = this.frames * FRAME_WIDTH;
    this.outputs.replaceChildren();
    for (const name of names) {
      const stream = comparison.streams[name];
      const recorded = this.recorded.streams[name] ?? { events: [] };
      const other = run.streams[name] ?? { events: [] };
      const values = { ...letters(name) };
      for (const event of [...recorded.events, ...other.events]) {
        if (event.kind === "next" && !Object.values(values).some((value) => JSON.stringify(value) === JSON.stringify(event.value))) {
          values[LETTERS[Object.keys(values).length % LETTERS.length]] = event.value; // values no row's letter names
        }
      }
      const item = html("div", "gallery-row run-rows-stream");
      item.dataset.stream = name;
      const controls = html("div", "gallery-row-controls");
      controls.appendChild(html("span", "gallery-row-name", name));
      // The subscriptions its work made inside it (a flattening's inner signals) are said with it.
      const inner = Object.keys(comparison.streams).filter((candidate) => candidate.startsWith(`${name}·`))
        .flatMap((candidate) => changesInWords(comparison.streams[candidate], label).map((text) => `its inner ${candidate.slice(name.length + 1)}: ${text}`));
      const words = [...changesInWords(stream, label), ...inner];
      controls.appendChild(html("span", "run-rows-words", words.length ? words.join("; ") : "the same"));
      const was = outputLane(`${name}, recorded`, { events: recorded.events, values, marbles: "the recorded run" }, this.rows.frame, width, stream.differsA);
      was.dataset.run = "recorded";
      const is = outputLane(`${name}, ${label}`, { events: other.events, values, marbles: label }, this.rows.frame, width, stream.differsB);
      is.dataset.run = kind;
      // Under each run, the subscriptions its work made inside the stream (a flattening's inner
      // signals), those that lived otherwise in the other run marked.
      const inners = (runOf) => Object.keys(comparison.streams).filter((candidate) => candidate.startsWith(`${name}·`))
        .flatMap((candidate) => {
          const differing = new Set(comparison.streams[candidate].subscriptions.map((entry) => entry.index));
          return (runOf.streams[candidate]?.subscriptions ?? []).map((subscription, index) => ({ subscription, differs: differing.has(index) }));
        });
      const lifelines = (side, runOf) => {
        const node = svg("svg", { class: "gallery-subscriptions", "data-lifelines": side });
        const entries = inners(runOf);
        drawSubscriptions(node, `${name}'s inner subscriptions, ${side}`, entries.map((entry) => notation(entry.subscription, this.rows.frame)), width,
          new Set(entries.flatMap((entry, index) => (entry.differs ? [index] : []))));
        return node;
      };
      item.append(controls, html("span", "run-rows-label", "recorded"), was, lifelines("recorded", this.recorded),
        html("span", "run-rows-label", label), is, lifelines(kind, run));
      this.outputs.appendChild(item);
    }
    this.showFrom(run);
  }

  /**
   * The lanes drawn from the first event of the recorded run, of `run` and of the rows as they
   * are now (the idle lead-in before it left out, and said), fitted or not as the learner chose.
   */
  showFrom(run = null) {
    const rows = runOfDrawing({ streams: {}, until: this.rows.until }, this.rows);
    const fromMs = idleLeadIn(firstEvent(this.recorded, run, rows), this.rows.frame);
    this.from.textContent = fromMs
      ? `From ${tenths(fromMs)}: the ${tenths(fromMs)} before the first event were idle and are not drawn. Times, frames and rows are still the session's, from 0 ms.`
      : "";
    this.view.set({ fromMs, frame: this.rows.frame });
  }
}
