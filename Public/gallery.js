// The operator gallery: each operator as RxMarbles draws it — input rows above, the output below —
// computed by the real Swift operator on the server (POST /api/marbles). Input marbles are
// dragged, added, removed and edited as notation; the output is drawn again after each change.
import { drawMarbles } from "./api.js";
import { copyAsTest } from "./copy-test.js";
import { docsLink, docsPage } from "./docs-links.js";
import { downloadPicture, rowsSVG } from "./diagram-export.js";
import { html, svg } from "./dom.js";
import { encodeProgram } from "./editor.js";
import { colour } from "./format.js";

export const FRAME_WIDTH = 30;
const ROW_HEIGHT = 44;
/** The height of one subscription's line under a row, and the most lines drawn (the label lists all). */
const SUBSCRIPTION_LINE = 20;
const MAX_SUBSCRIPTION_LINES = 4;
const RADIUS = 12;
/** The most variants an entry is compared with at once. */
const MAX_VARIANTS = 3;
/** A variant's stream name in the program: `variant1`, `variant2`… */
const variantName = (index) => `variant${index + 1}`;
/** How long the gallery waits after a change before it asks the server to draw again. */
const DRAW_DELAY_MS = 120;

const $ = (id) => document.getElementById(id);

/** What a letter of a source sends: a digit is a number, a letter itself as a string. */
const letterValue = (symbol) => (/^\d$/.test(symbol) ? Number(symbol) : symbol);

/**
 * A row of RxJS notation as frames: `{values: [{frame, symbol}], end: {frame, kind} | null}`, or
 * a message saying what is wrong. As in RxJS, every character but a space takes a frame.
 */
export function parseRow(text) {
  const values = [];
  let end = null;
  let frame = 0;
  let group = null;
  for (const character of text.replaceAll(" ", "")) {
    if (end && !(character === ")" && group !== null)) return { error: "nothing may follow | or #" };
    const at = group ?? frame;
    if (character === "(") {
      if (group !== null) return { error: "groups do not nest" };
      group = frame;
    } else if (character === ")") {
      if (group === null) return { error: ") without (" };
      group = null;
    } else if (character === "|" || character === "#") {
      end = { frame: at, kind: character };
    } else if (/^[A-Za-z0-9]$/.test(character)) {
      values.push({ frame: at, symbol: character });
    } else if (character !== "-") {
      return { error: `${character} is not marble notation: -, a letter or digit, ( ), | or #` };
    }
    frame += 1;
  }
  if (group !== null) return { error: "a group ( is not closed" };
  return { values, end };
}

/** A row back as notation; values in one frame are grouped. */
/**
 * A subscription in RxJS's subscription-marble notation (`--^---!`, `(^!)`, no `!` while live) as
 * the frames it began and ended in (`end` null: still live at the end of the drawing).
 */
export function parseSubscription(text) {
  const start = text.indexOf("^") - (text.includes("(^!)") ? 1 : 0);
  if (text.includes("(^!)")) return { start, end: start };
  const bang = text.indexOf("!");
  return { start, end: bang < 0 ? null : bang };
}

/** Draws one line per subscription of `name` into `node`: `^` where it began, `!` where it ended. */
export function drawSubscriptions(node, name, subscriptions, width) {
  node.replaceChildren();
  const shown = subscriptions.slice(0, MAX_SUBSCRIPTION_LINES);
  node.setAttribute("width", width);
  node.setAttribute("height", shown.length * SUBSCRIPTION_LINE);
  if (!shown.length) {
    node.removeAttribute("role");
    node.removeAttribute("aria-label");
    return;
  }
  const words = subscriptions.map((text) => {
    const { start, end } = parseSubscription(text);
    return `subscribed in frame ${start}, ${end === null ? "still live" : `disposed in frame ${end}`}`;
  });
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", `${name}: ${subscriptions.length} subscription${subscriptions.length === 1 ? "" : "s"}: ${words.join("; ")}`);
  shown.forEach((text, index) => {
    const { start, end } = parseSubscription(text);
    const y = index * SUBSCRIPTION_LINE + SUBSCRIPTION_LINE / 2;
    const x1 = start * FRAME_WIDTH + FRAME_WIDTH / 2;
    const x2 = end === null ? width : end * FRAME_WIDTH + FRAME_WIDTH / 2;
    const line = svg("g", { class: "gallery-subscription", "data-start": start, "data-end": end ?? "" });
    line.append(svg("line", { x1, x2, y1: y, y2: y, class: "gallery-lifeline" }),
      svg("text", { x: x1, y: y + 5, "text-anchor": "middle", class: "gallery-mark" }, "^"));
    if (end !== null) line.appendChild(svg("text", { x: x2, y: y + 5, "text-anchor": "middle", class: "gallery-mark" }, "!"));
    node.appendChild(line);
  });
}

export function renderRow({ values, end }) {
  const byFrame = new Map();
  for (const value of values) byFrame.set(value.frame, [...(byFrame.get(value.frame) ?? []), value.symbol]);
  if (end) byFrame.set(end.frame, [...(byFrame.get(end.frame) ?? []), end.kind]);
  let text = "";
  let cursor = 0;
  for (const frame of [...byFrame.keys()].sort((a, b) => a - b)) {
    if (frame < cursor) continue; // inside a group drawn before: RxJS cannot say it
    text += "-".repeat(frame - cursor);
    const symbols = byFrame.get(frame);
    text += symbols.length > 1 ? `(${symbols.join("")})` : symbols[0];
    cursor = frame + (symbols.length > 1 ? symbols.length + 2 : 1);
  }
  return text;
}

/**
 * A labelled text field for a row in notation, with a status that says what is wrong with it;
 * `onValid` gets each parse that succeeds.
 */
function notationEditor(id, labelText, value, onValid) {
  const label = html("label", undefined, labelText);
  const field = html("input", "gallery-notation");
  field.type = "text";
  field.id = id;
  field.value = value;
  field.spellcheck = false;
  label.htmlFor = id;
  const problem = html("span", "gallery-problem");
  problem.setAttribute("role", "status");
  field.addEventListener("input", () => {
    const parsed = parseRow(field.value);
    problem.textContent = parsed.error ?? "";
    if (!parsed.error) onValid(parsed);
  });
  return { label, field, problem };
}

/**
 * A drawn stream as an image row: `drawing` as `POST /api/marbles` answers it (`events` at their
 * times, `values` by letter), at `frame` milliseconds a character, `width` pixels wide.
 */
export function outputLane(name, drawing, frame, width, differs = new Set()) {
  const said = differs.size ? `; ${differs.size} event${differs.size === 1 ? "" : "s"} not in every row, ringed` : "";
  const lane = svg("svg", { class: "gallery-lane", width, height: ROW_HEIGHT, role: "img", "aria-label": `${name}: ${drawing.marbles}${said}` });
  lane.appendChild(svg("line", { class: "gallery-axis", x1: 0, x2: width, y1: ROW_HEIGHT / 2, y2: ROW_HEIGHT / 2 }));
  const letterOf = new Map(Object.entries(drawing.values).map(([letter, value]) => [JSON.stringify(value), letter]));
  const atTime = new Map(); // events at one instant side by side, as the notation groups them
  drawing.events.forEach((event, index) => {
    const before = atTime.get(event.time) ?? 0;
    atTime.set(event.time, before + 1);
    const x = (event.time / frame) * FRAME_WIDTH + FRAME_WIDTH / 2 + before * (2 * RADIUS + 2);
    if (differs.has(index)) {
      lane.appendChild(svg("circle", { cx: x, cy: ROW_HEIGHT / 2, r: RADIUS + 5, class: "gallery-differs", "data-time": event.time }));
    }
    if (event.kind === "next") {
      const letter = letterOf.get(JSON.stringify(event.value)) ?? "?";
      lane.append(svg("circle", { cx: x, cy: ROW_HEIGHT / 2, r: RADIUS, fill: colour(event.value), class: "gallery-circle" }),
        svg("text", { x, y: ROW_HEIGHT / 2 + 5, "text-anchor": "middle", class: "gallery-letter" }, letter));
    } else if (event.kind === "completed") {
      lane.appendChild(svg("line", { x1: x, x2: x, y1: 8, y2: ROW_HEIGHT - 8, class: "gallery-complete" }));
    } else {
      lane.appendChild(svg("path", { d: `M${x - 7} ${ROW_HEIGHT / 2 - 7} l14 14 m0 -14 l-14 14`, class: "gallery-error" }));
    }
  });
  return lane;
}

/**
 * For rows drawn side by side (a comparison): by row name, the indexes of the events that are not
 * in every other row — the same kind, value and time.
 */
export function differences(drawings) {
  const key = (event) => `${event.time}|${event.kind}|${JSON.stringify(event.value ?? null)}`;
  const keys = Object.fromEntries(Object.entries(drawings).map(([name, drawing]) => [name, new Set(drawing.events.map(key))]));
  return Object.fromEntries(Object.entries(drawings).map(([name, drawing]) => [name, new Set(drawing.events
    .map((event, index) => (Object.entries(keys).every(([other, set]) => other === name || set.has(key(event))) ? -1 : index))
    .filter((index) => index >= 0))]));
}

/** A row of notation (`parseRow`'s answer) as a drawing `outputLane` takes, `values` by letter. */
export function rowDrawing(text, row, values, frame) {
  const events = row.values.map(({ frame: at, symbol }) => ({
    kind: "next", time: at * frame, value: symbol in values ? values[symbol] : letterValue(symbol),
  }));
  if (row.end) events.push({ kind: row.end.kind === "|" ? "completed" : "error", time: row.end.frame * frame });
  events.sort((first, second) => first.time - second.time);
  const letters = Object.fromEntries(row.values.map(({ symbol }) => [symbol, symbol in values ? values[symbol] : letterValue(symbol)]));
  return { marbles: text, values: letters, events };
}

export class Gallery {
  constructor(entries) {
    this.groups = entries.groups;
    this.entries = entries.groups.flatMap((group) => group.entries.map((entry) => ({ ...entry, group: group.title })));
    this.timer = null;
    this.drawNumber = 0;
    this.variants = [];
    $("gallery-compare").addEventListener("click", () => this.addVariant());
    // The embed page (Public/embed.html) shows the diagram alone: no "Copy as a test" there.
    $("gallery-copy-test")?.addEventListener("click", () => copyAsTest(this.program(), {
      name: this.entry.id,
      title: `The gallery's ${this.entry.name}`,
      streams: [...Object.keys(this.entry.expected), ...this.variants.map((_, index) => variantName(index))],
    }, { status: $("gallery-test-status"), output: $("gallery-test") }));
    for (const format of ["svg", "png"]) {
      $(`gallery-export-${format}`).addEventListener("click", () => this.export(format)
        .catch(() => { $("gallery-status").textContent = "The PNG could not be made in this browser; the SVG can."; }));
    }
  }

  /** Downloads the entry's rows as drawn, with its program and values, as an SVG or a PNG. */
  export(format) {
    const legend = [`${this.entry.name} — ${$("gallery-program").textContent.split("\n").filter(Boolean).join("; ")}`,
      ...[...document.querySelectorAll("#gallery-outputs .gallery-differs-legend, #gallery-outputs .gallery-legend")].map((node) => node.textContent).filter(Boolean),
      "^ a subscription began, ! it was disposed (RxJS subscription marbles)."];
    const text = rowsSVG($("gallery-entry"), `${this.entry.name} (Reactive Playground operator gallery)`, legend);
    return downloadPicture(text, `gallery-${this.entry.id}`, format);
  }

  // MARK: The list

  /** Shows the list, filtered by what the search box says (any of the entry's names). */
  showList() {
    $("gallery-entry").hidden = true;
    $("gallery-index").hidden = false;
    const query = $("gallery-search").value.trim().toLowerCase();
    const list = $("gallery-list");
    list.replaceChildren();
    let shown = 0;
    for (const group of this.groups) {
      const matches = group.entries.filter((entry) => !query || [entry.name, entry.rac, entry.reactiveSwift, entry.rxSwift,
        entry.rxjs, entry.combine, entry.id].some((name) => name.toLowerCase().includes(query)));
      if (!matches.length) continue;
      const section = html("section", "gallery-group");
      section.appendChild(html("h3", undefined, group.title));
      const items = html("ul", "gallery-items");
      for (const entry of matches) {
        const item = html("li");
        const link = html("a", undefined, entry.name);
        link.href = `#gallery/${entry.id}`;
        const names = html("span", "gallery-names", ` — RAC ${entry.rac}; RxSwift ${entry.rxSwift}; RxJS ${entry.rxjs}; Combine ${entry.combine}`);
        item.append(link, names);
        items.appendChild(item);
        shown += 1;
      }
      section.appendChild(items);
      list.appendChild(section);
    }
    $("gallery-count").textContent = `${shown} operator${shown === 1 ? "" : "s"}${query ? ` match “${query}”` : ""}.`;
  }

  // MARK: One entry

  /** Shows entry `id`, with the variants a comparison link carries (expressions). */
  show(id, variants = []) {
    const entry = this.entries.find((item) => item.id === id);
    if (!entry) {
      this.showList();
      return false;
    }
    this.entry = entry;
    this.variants = variants.slice(0, MAX_VARIANTS);
    this.rows = entry.inputs.map((row) => ({
      name: row.name, letters: { ...(row.values ?? {}) }, nested: { ...(row.nested ?? {}) }, ...parseRow(row.marbles),
    }));
    $("gallery-index").hidden = true;
    $("gallery-entry").hidden = false;
    if ($("gallery-test")) { // a test written for the entry shown before
      $("gallery-test").hidden = true;
      $("gallery-test-status").textContent = "";
    }
    $("gallery-entry-title").textContent = entry.name;
    $("gallery-group").textContent = entry.group;
    $("gallery-explanation").textContent = entry.explanation;
    $("gallery-note").hidden = !entry.note;
    $("gallery-note").textContent = entry.note ?? "";
    $("gallery-entry-names").textContent =
      `RAC 2.x ${entry.rac} · ReactiveSwift ${entry.reactiveSwift} · RxSwift ${entry.rxSwift} · RxJS ${entry.rxjs} · Combine ${entry.combine}`;
    this.renderInputs();
    this.linkDocumentation(entry);
    $("gallery-outputs").replaceChildren(); // the last entry's output goes at once, not when this one's comes
    this.scheduleDraw(0);
    return true;
  }

  /**
   * The program as posted: each input a named stream of its row's notation (`a = marbles("…")`,
   * with the values its letters stand for and its letters that stand for streams as nested
   * diagrams), so that the answer says how the operator subscribed to it and let go; then the
   * entry's lines, then a line per variant the learner compares with (`variant1 = …`).
   */
  program() {
    let text = [this.entry.program, ...this.variants.map((expression, index) => `${variantName(index)} = ${expression}`)]
      .join("\n");
    const inputs = [];
    for (const row of this.rows) {
      const values = Object.entries(row.letters).map(([letter, value]) => `, ${letter}: ${JSON.stringify(value)}`).join("");
      const nested = Object.entries(row.nested).map(([letter, inner]) => `, ${letter}: marbles("${inner}")`).join("");
      inputs.push(`${row.name} = marbles("${renderRow(row)}"${values}${nested})`);
      text = text.replaceAll(`@${row.name}`, row.name);
    }
    return [...inputs, text].join("\n");
  }

  get frames() {
    const last = Math.max(...this.rows.flatMap((row) => [...row.values.map((value) => value.frame), row.end?.frame ?? 0]));
    return Math.max(16, last + 4);
  }

  renderInputs() {
    const container = $("gallery-inputs");
    container.replaceChildren();
    for (const row of this.rows) {
      const block = html("div", "gallery-row");
      const { label, field, problem } = notationEditor(`gallery-notation-${row.name}`, row.name, renderRow(row), (parsed) => {
        row.values = parsed.values;
        row.end = parsed.end;
        this.drawInput(row, lane);
        this.scheduleDraw();
      });
      label.className = "gallery-row-name";
      field.setAttribute("aria-describedby", "gallery-keys");
      const endChoice = html("select", "gallery-end");
      endChoice.id = `gallery-end-${row.name}`;
      endChoice.setAttribute("aria-label", `How ${row.name} ends`);
      for (const [value, text] of [["|", "completes"], ["#", "fails"], ["", "never ends"]]) {
        const option = html("option", undefined, text);
        option.value = value;
        endChoice.appendChild(option);
      }
      endChoice.value = row.end?.kind ?? "";
      endChoice.addEventListener("change", () => this.endChosen(row, lane));
      const lane = svg("svg", { class: "gallery-lane", height: ROW_HEIGHT, role: "group", "aria-label": `Row ${row.name}: click to add a marble` });
      row.field = field;
      row.endChoice = endChoice;
      const controls = html("div", "gallery-row-controls");
      controls.append(label, field, endChoice, problem);
      const scroll = html("div", "gallery-scroll");
      row.subscriptions = svg("svg", { class: "gallery-subscriptions", height: 0, width: 0 });
      scroll.append(lane, row.subscriptions);
      block.append(controls, scroll);
      if (Object.keys(row.letters).length) {
        block.appendChild(html("p", "gallery-legend",
          Object.entries(row.letters).map(([letter, value]) => `${letter} = ${JSON.stringify(value)}`).join(", ")));
      }
      // Letters that stand for streams: each an inner diagram of its own, edited as notation.
      for (const letter of Object.keys(row.nested)) {
        const inner = html("div", "gallery-row-controls gallery-nested");
        const editor = notationEditor(`gallery-nested-${row.name}-${letter}`, `${letter} is the stream`, row.nested[letter],
          () => {
            row.nested[letter] = editor.field.value.replaceAll(" ", "");
            this.scheduleDraw();
          });
        inner.append(editor.label, editor.field, editor.problem);
        block.appendChild(inner);
      }
      container.appendChild(block);
      lane.addEventListener("click", (event) => this.addMarble(row, lane, event));
      this.drawInput(row, lane);
    }
    $("gallery-program").textContent = this.entry.program.replaceAll("@", "");
    this.renderVariants();
  }

  /** Links each operator the entry names (a comparison names several) to its documentation page. */
  async linkDocumentation(entry) {
    const line = $("gallery-docs");
    if (!line) return;
    line.replaceChildren();
    line.hidden = true;
    const pages = (await Promise.all(entry.name.split(" / ").map((name) => docsPage(name)))).filter(Boolean);
    if (this.entry !== entry || !pages.length) return;
    line.append("Reactive's documentation: ");
    pages.forEach((page, index) => line.append(...(index ? [", "] : []), docsLink(page)));
    line.hidden = false;
  }

  // MARK: Compare with…

  /** The entry's first output line's expression, inputs by name: what a new variant starts from. */
  get firstExpression() {
    const line = this.entry.program.split("\n").find((text) => text.includes(" = ")) ?? "";
    return line.slice(line.indexOf(" = ") + 3).replaceAll("@", "");
  }

  /** A text field per variant, and the button that adds one (at most MAX_VARIANTS). */
  renderVariants() {
    const container = $("gallery-variants");
    container.replaceChildren();
    this.variants.forEach((expression, index) => {
      const row = html("div", "gallery-row-controls gallery-variant");
      const label = html("label", "gallery-row-name", variantName(index));
      const field = html("input", "gallery-notation gallery-variant-field");
      field.id = `gallery-variant-${index}`;
      field.type = "text";
      field.spellcheck = false;
      field.value = expression;
      label.htmlFor = field.id;
      field.addEventListener("input", () => {
        this.variants[index] = field.value;
        this.variantsChanged();
      });
      const remove = html("button", "secondary", "Remove");
      remove.type = "button";
      remove.setAttribute("aria-label", `Remove ${variantName(index)}`);
      remove.addEventListener("click", () => {
        this.variants.splice(index, 1);
        this.renderVariants();
        this.variantsChanged();
        $("gallery-compare").focus();
      });
      row.append(label, field, remove);
      container.appendChild(row);
    });
    $("gallery-compare").disabled = this.variants.length >= MAX_VARIANTS;
  }

  addVariant() {
    this.variants.push(this.firstExpression);
    this.renderVariants();
    this.variantsChanged();
    $(`gallery-variant-${this.variants.length - 1}`).focus();
  }

  /** The address says the variants, so the comparison can be shared; the output is drawn again. */
  variantsChanged() {
    const suffix = this.variants.length ? `/compare=${encodeProgram(JSON.stringify(this.variants))}` : "";
    history.replaceState(null, "", `#gallery/${this.entry.id}${suffix}`);
    this.scheduleDraw();
  }

  /** A click on a row's lane, not on a marble: a marble in that frame, with the row's next letter. */
  addMarble(row, lane, event) {
    if (event.target.closest(".gallery-marble")) return;
    const frame = this.frameAt(lane, event.clientX);
    if (this.occupied(row, frame)) return;
    row.values.push({ frame, symbol: this.nextSymbol(row) });
    this.changed(row, lane);
  }

  /** The row's end as its end choice now says: completes, fails, or never ends. */
  endChosen(row, lane) {
    const last = Math.max(0, ...row.values.map((value) => value.frame));
    row.end = row.endChoice.value ? { frame: row.end?.frame ?? last + 2, kind: row.endChoice.value } : null;
    this.changed(row, lane);
  }

  frameAt(lane, clientX) {
    const box = lane.getBoundingClientRect();
    return Math.max(0, Math.round((clientX - box.left - FRAME_WIDTH / 2) / FRAME_WIDTH));
  }

  occupied(row, frame, except) {
    return row.values.some((value) => value !== except && value.frame === frame) || (row.end && row.end !== except && row.end.frame === frame);
  }

  nextSymbol(row) {
    const [declared] = Object.keys(row.letters); // a row of declared values gets one of them
    if (declared) return declared;
    const used = new Set(this.rows.flatMap((item) => item.values.map((value) => value.symbol)));
    return [..."abcdefghijklmnopqrstuvwxyz"].find((letter) => !used.has(letter)) ?? "z";
  }

  /** After an edit: the row redrawn (focus on `focus`, a marble or a frame), its notation updated, the output asked for. */
  changed(row, lane, focus) {
    row.field.value = renderRow(row);
    row.endChoice.value = row.end?.kind ?? "";
    this.drawInput(row, lane, focus);
    this.scheduleDraw();
  }

  drawInput(row, lane, focus) {
    const width = this.frames * FRAME_WIDTH;
    lane.setAttribute("width", width);
    lane.replaceChildren(svg("line", { class: "gallery-axis", x1: 0, x2: width, y1: ROW_HEIGHT / 2, y2: ROW_HEIGHT / 2 }));
    const items = [...row.values, ...(row.end ? [row.end] : [])];
    const atFrame = new Map(); // a group's marbles side by side, as the output rows draw them
    for (const item of items) {
      const before = atFrame.get(item.frame) ?? 0;
      atFrame.set(item.frame, before + 1);
      const x = item.frame * FRAME_WIDTH + FRAME_WIDTH / 2 + before * (2 * RADIUS + 2);
      const group = svg("g", { class: "gallery-marble", tabindex: "0", role: "button", "data-frame": item.frame });
      if (item.symbol !== undefined) {
        group.dataset.symbol = item.symbol;
        group.setAttribute("aria-label", `${item.symbol} in frame ${item.frame} of ${row.name}`);
        const value = item.symbol in row.letters ? row.letters[item.symbol] : letterValue(item.symbol);
        group.append(svg("circle", { cx: x, cy: ROW_HEIGHT / 2, r: RADIUS, fill: colour(value), class: "gallery-circle" }),
          svg("text", { x, y: ROW_HEIGHT / 2 + 5, "text-anchor": "middle", class: "gallery-letter" }, item.symbol));
      } else {
        group.dataset.end = item.kind;
        group.setAttribute("aria-label", `${item.kind === "|" ? "completion" : "error"} in frame ${item.frame} of ${row.name}`);
        group.appendChild(svg("rect", { x: x - 8, y: 6, width: 16, height: ROW_HEIGHT - 12, class: "gallery-hit" }));
        group.appendChild(item.kind === "|"
          ? svg("line", { x1: x, x2: x, y1: 8, y2: ROW_HEIGHT - 8, class: "gallery-complete" })
          : svg("path", { d: `M${x - 7} ${ROW_HEIGHT / 2 - 7} l14 14 m0 -14 l-14 14`, class: "gallery-error" }));
      }
      this.attachMarble(group, row, item, lane);
      lane.appendChild(group);
      if (focus === item || (typeof focus === "number" && item.frame === focus)) group.focus();
    }
  }

  /**
   * Drag along the row, arrows to move a frame, Delete to remove (a value), E to switch the end;
   * a letter or digit typed on a value gives it that symbol (a prediction's value chosen by keyboard).
   */
  attachMarble(group, row, item, lane) {
    const move = (frame) => {
      const limit = item.symbol !== undefined && row.end ? row.end.frame - 1 : this.frames + 20;
      const floor = item.symbol === undefined ? Math.max(0, ...row.values.map((value) => value.frame + 1)) : 0;
      const target = Math.min(limit, Math.max(floor, frame));
      if (target === item.frame || this.occupied(row, target, item)) return false;
      item.frame = target;
      return true;
    };
    group.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      group.setPointerCapture(event.pointerId);
      const onMove = (moveEvent) => {
        if (move(this.frameAt(lane, moveEvent.clientX))) {
          group.setAttribute("transform", `translate(${(item.frame - Number(group.dataset.frame)) * FRAME_WIDTH} 0)`);
        }
      };
      const onUp = () => {
        group.removeEventListener("pointermove", onMove);
        group.removeEventListener("pointerup", onUp);
        this.changed(row, lane, item.frame);
      };
      group.addEventListener("pointermove", onMove);
      group.addEventListener("pointerup", onUp);
    });
    group.addEventListener("keydown", (event) => {
      if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
        event.preventDefault();
        if (move(item.frame + (event.key === "ArrowLeft" ? -1 : 1))) this.changed(row, lane, item);
      } else if ((event.key === "Delete" || event.key === "Backspace") && item.symbol !== undefined) {
        event.preventDefault();
        row.values = row.values.filter((value) => value !== item);
        this.changed(row, lane);
      } else if (event.key.toLowerCase() === "e" && item.symbol === undefined) {
        item.kind = item.kind === "|" ? "#" : "|";
        this.changed(row, lane, item);
      } else if (/^[A-Za-z0-9]$/.test(event.key) && item.symbol !== undefined && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        item.symbol = event.key;
        this.changed(row, lane, item);
      }
    });
  }

  // MARK: The output

  scheduleDraw(delay = DRAW_DELAY_MS) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.draw(), delay);
  }

  async draw() {
    const number = ++this.drawNumber;
    const program = this.program();
    $("gallery-open").href = `#program=${encodeProgram(program)}`;
    const status = $("gallery-status");
    try {
      const answer = await drawMarbles(program);
      if (number !== this.drawNumber) return;
      status.textContent = answer.truncated ? `Drawn to ${answer.until} ms (cut short).` : "";
      this.drawOutputs(answer);
    } catch (error) {
      if (number !== this.drawNumber) return;
      status.textContent = `Not drawn: ${error.message}`;
    }
  }

  drawOutputs(answer) {
    const container = $("gallery-outputs");
    container.replaceChildren();
    const shown = [...Object.keys(this.entry.expected), ...this.variants.map((_, index) => variantName(index))];
    const names = shown.filter((name) => answer.streams[name]);
    const comparing = this.entry.comparison || this.variants.length > 0;
    const differs = comparing ? differences(Object.fromEntries(names.map((name) => [name, answer.streams[name]]))) : {};
    if (comparing) {
      const count = Object.values(differs).reduce((total, set) => total + set.size, 0);
      container.appendChild(html("p", "hint gallery-differs-legend",
        count ? `Ringed: the ${count} events that are not in every output row (the same value at the same time).`
          : "Every output row has the same events."));
    }
    for (const name of shown) {
      const drawing = answer.streams[name];
      if (!drawing) continue;
      const block = html("div", "gallery-row gallery-output");
      const label = html("span", "gallery-row-name", name);
      const text = html("code", "gallery-output-notation", drawing.marbles);
      text.dataset.stream = name;
      const width = this.frames * FRAME_WIDTH;
      const lane = outputLane(name, drawing, answer.frame, width, differs[name]);
      const legend = html("p", "gallery-legend",
        Object.entries(drawing.values).map(([letter, value]) => `${letter} = ${JSON.stringify(value)}`).join(", "));
      const controls = html("div", "gallery-row-controls");
      controls.append(label, text);
      const scroll = html("div", "gallery-scroll");
      const subscriptions = svg("svg", { class: "gallery-subscriptions" });
      drawSubscriptions(subscriptions, name, drawing.subscriptions ?? [], width);
      scroll.append(lane, subscriptions);
      // The inner signals a flattening subscribed to, nested under the row that started them.
      for (const [source, spans] of Object.entries(drawing.sources ?? {})) {
        const inner = svg("svg", { class: "gallery-subscriptions gallery-inner", "data-source": source });
        drawSubscriptions(inner, `${source} (inside ${name})`, spans, width);
        scroll.appendChild(inner);
      }
      block.append(controls, scroll, legend);
      container.appendChild(block);
    }
    // What the program did to the inputs: each subscription to them, where it began and ended.
    for (const row of this.rows) {
      drawSubscriptions(row.subscriptions, row.name, answer.streams[row.name]?.subscriptions ?? [], this.frames * FRAME_WIDTH);
    }
  }
}
