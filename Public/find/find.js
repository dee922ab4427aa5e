// Find by behaviour (`#gallery/find`): the learner types or draws one or two input rows and the
// output they want, in RxJS marble notation; the server runs every drawable operator of the catalogue on
// them (POST /api/marbles/find) and the answers are drawn under the output wanted — exact ones
// first, else the nearest, each with its program and a link to run it in the editor.
import { findOperators } from "../lib/api.js";
import { byId, html } from "../lib/dom.js";
import { encodeProgram } from "../editor/editor.js";
import { parseRow } from "../lib/marble-notation.js";
import { FRAME_WIDTH, editableRow, outputLane, rowDrawing } from "../lib/marble-row.js";

/** The rows of the form: the field's id, the input's name (null: the output). */
const ROWS = [["find-a", "a"], ["find-b", "b"], ["find-output", null]];

export class Finder {
  /** `entryIDs`: the gallery's entries, so that an answer's operator links to its entry. */
  constructor(entryIDs) {
    this.entryIDs = new Set(entryIDs);
    this.number = 0;
    byId("find-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.find();
    });
    for (const [id] of ROWS) {
      byId(id).addEventListener("input", () => this.check(id));
      // Each row drawn too, and editable there as a gallery row is.
      editableRow({ name: id, field: byId(id), lane: byId(`${id}-lane`), letters: () => [..."abcdefghijklmnopqrstuvwxyz"] });
    }
  }

  /** Says what is wrong with a row as the learner types; true when it reads. */
  check(id) {
    const text = byId(id).value.trim();
    const parsed = text ? parseRow(text) : { values: [], end: null };
    byId(`${id}-problem`).textContent = parsed.error ?? "";
    byId(id).setAttribute("aria-invalid", parsed.error ? "true" : "false");
    return !parsed.error;
  }

  /** The query the form states, or a message saying what to fix. */
  query() {
    if (!ROWS.every(([id]) => this.check(id))) return { problem: "Fix the rows marked first." };
    const inputs = {};
    for (const [id, name] of ROWS) if (name && byId(id).value.trim()) inputs[name] = byId(id).value.trim();
    if (!Object.keys(inputs).length) return { problem: "Type at least one input row." };
    let values = {};
    const valuesText = byId("find-values").value.trim();
    if (valuesText) {
      try {
        values = JSON.parse(valuesText);
      } catch {
        return { problem: "The values are not JSON: write an object such as {\"t\": true, \"f\": false}." };
      }
      if (typeof values !== "object" || values === null || Array.isArray(values)) {
        return { problem: "The values are a JSON object from letters to values: {\"t\": true}." };
      }
    }
    return { query: { inputs, output: byId("find-output").value.trim(), values } };
  }

  async find() {
    const { query, problem } = this.query();
    const status = byId("find-status");
    if (problem) {
      status.textContent = problem;
      return;
    }
    const number = ++this.number;
    status.textContent = "Trying every operator…";
    byId("find-results").setAttribute("aria-busy", "true");
    try {
      const answer = await findOperators(query);
      if (number !== this.number) return;
      this.show(query, answer);
    } catch (error) {
      if (number !== this.number) return;
      status.textContent = `Not found: ${error.message}`;
      byId("find-results").replaceChildren();
    } finally {
      if (number === this.number) byId("find-results").removeAttribute("aria-busy");
    }
  }

  /** Draws the output wanted, then the exact answers or, without any, the nearest. */
  show(query, answer) {
    const frame = 100;
    const exact = answer.exact.length;
    byId("find-status").textContent = (exact
      ? `${exact} exact match${exact === 1 ? "" : "es"}`
      : "No exact match; the nearest are below")
      + ` (${answer.tried} of ${answer.candidates} candidates tried${answer.truncated ? `: ${answer.truncation.message}` : ""}).`;
    const frames = Math.max(16, ...[query.output, ...Object.values(query.inputs)].map((text) => text.length + 2));
    const width = frames * FRAME_WIDTH;
    const results = byId("find-results");
    results.replaceChildren();
    // The rows as asked, drawn on the answers' axis: each input, then the output wanted.
    const rows = html("div", "find-rows");
    for (const [name, text] of [...Object.entries(query.inputs), ["wanted", query.output]]) {
      const row = html("div", `gallery-row gallery-output${name === "wanted" ? " find-wanted" : ""}`);
      const label = html("p", "gallery-row-controls");
      label.append(html("span", "gallery-row-name", name), html("code", "gallery-output-notation", text));
      const scroll = html("div", "gallery-scroll");
      scroll.appendChild(outputLane(name, rowDrawing(text, parseRow(text), query.values, frame), frame, width));
      row.append(label, scroll);
      rows.appendChild(row);
    }
    results.appendChild(rows);
    const list = exact ? answer.exact : answer.near;
    const heading = html("h4", undefined, exact ? "Exact matches" : "No exact match — the nearest outputs");
    const items = html("ol", "find-answers");
    items.setAttribute("aria-label", exact ? "Operators that give this output" : "Operators whose output is nearest");
    for (const found of list) items.appendChild(this.answerItem(found, width));
    results.append(heading, items);
  }

  answerItem(found, width) {
    const item = html("li", "find-answer");
    item.dataset.operator = found.operator;
    item.dataset.distance = found.distance;
    const head = html("p", "gallery-row-controls");
    head.appendChild(html("code", "find-expression", found.expression));
    if (found.distance > 0) head.appendChild(html("span", "hint", `distance ${found.distance}`));
    if (this.entryIDs.has(found.operator)) {
      const entry = html("a", undefined, `${found.operator} in the gallery`);
      entry.href = `#gallery/${found.operator}`;
      head.appendChild(entry);
    }
    const open = html("a", undefined, "Open in the editor");
    open.href = `#program=${encodeProgram(found.program)}`;
    open.setAttribute("aria-label", `Open ${found.expression} in the editor`);
    head.appendChild(open);
    const scroll = html("div", "gallery-scroll");
    scroll.appendChild(outputLane(found.expression, found.output, 100, width));
    item.append(head, scroll);
    return item;
  }
}
