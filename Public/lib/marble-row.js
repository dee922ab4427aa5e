// The marble-row component: a row of marbles drawn (an output as the server answers it, a row of
// notation, a stream's subscriptions) and edited (click to add a marble, drag or arrow keys to
// move it, Delete to remove it, a letter key to change its value, E to turn a completion into an
// error), kept in step with a field of its notation. The gallery's input rows, a lesson's
// prediction and the find's rows are all this one component.
import { svg, html } from "./dom.js";
import { colour } from "./format.js";
import { letterValue, parseRow, parseSubscription, renderRow, writtenAs } from "./marble-notation.js";

export const FRAME_WIDTH = 30;
export const ROW_HEIGHT = 44;
/** The height of one subscription's line under a row, and the most lines drawn (the label lists all). */
const SUBSCRIPTION_LINE = 20;
const MAX_SUBSCRIPTION_LINES = 4;
const RADIUS = 12;
/** The height of the line under a lane that names each event's thread. */
const THREAD_LINE = 14;

/**
 * Draws one line per subscription of `name` into `node`: `^` where it began, `!` where it ended;
 * those whose indexes are in `differs` marked (a comparison's subscriptions that lived otherwise).
 */
export function drawSubscriptions(node, name, subscriptions, width, differs = new Set()) {
  node.replaceChildren();
  const shown = subscriptions.slice(0, MAX_SUBSCRIPTION_LINES);
  node.setAttribute("width", width);
  node.setAttribute("height", shown.length * SUBSCRIPTION_LINE);
  if (!shown.length) {
    node.removeAttribute("role");
    node.removeAttribute("aria-label");
    return;
  }
  const words = subscriptions.map((text, index) => {
    const { start, end } = parseSubscription(text);
    return `subscribed in frame ${start}, ${end === null ? "still live" : `disposed in frame ${end}`}${differs.has(index) ? " (lived otherwise in the other run)" : ""}`;
  });
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", `${name}: ${subscriptions.length} subscription${subscriptions.length === 1 ? "" : "s"}: ${words.join("; ")}`);
  shown.forEach((text, index) => {
    const { start, end } = parseSubscription(text);
    const y = index * SUBSCRIPTION_LINE + SUBSCRIPTION_LINE / 2;
    const x1 = start * FRAME_WIDTH + FRAME_WIDTH / 2;
    const x2 = end === null ? width : end * FRAME_WIDTH + FRAME_WIDTH / 2;
    const line = svg("g", { class: `gallery-subscription${differs.has(index) ? " subscription-differs" : ""}`, "data-start": start, "data-end": end ?? "" });
    line.append(svg("line", { x1, x2, y1: y, y2: y, class: "gallery-lifeline" }),
      svg("text", { x: x1, y: y + 5, "text-anchor": "middle", class: "gallery-mark" }, "^"));
    if (end !== null) line.appendChild(svg("text", { x: x2, y: y + 5, "text-anchor": "middle", class: "gallery-mark" }, "!"));
    node.appendChild(line);
  });
}

/**
 * A labelled text field for a row in notation, with a status that says what is wrong with it;
 * `onValid` gets each parse that succeeds.
 */
export function notationEditor(id, labelText, value, onValid) {
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
 * times, `values` by letter), at `frame` milliseconds a character, `width` pixels wide; the events
 * whose indexes are in `differs` ringed; with `threads`, each event's thread named under it.
 */
export function outputLane(name, drawing, frame, width, differs = new Set(), { threads = false } = {}) {
  const said = differs.size ? `; ${differs.size} event${differs.size === 1 ? "" : "s"} not in every row, ringed` : "";
  const where = threads ? `; on the threads ${drawing.events.map((event) => event.thread ?? "session").join(", ")}` : "";
  const lane = svg("svg", { class: "gallery-lane", width, height: ROW_HEIGHT + (threads ? THREAD_LINE : 0), role: "img",
    "aria-label": `${name}: ${writtenAs(drawing, frame)}${said}${where}` });
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
      const label = drawnAs(event.value) ?? letter;
      // A value of three or four characters is a pill as wide as its text, at the same size.
      const half = label.length > 2 ? label.length * 4.5 + 4 : RADIUS;
      lane.append(label.length > 2
        ? svg("rect", { x: x - half, y: ROW_HEIGHT / 2 - RADIUS, width: 2 * half, height: 2 * RADIUS, rx: RADIUS, fill: colour(event.value), class: "gallery-circle" })
        : svg("circle", { cx: x, cy: ROW_HEIGHT / 2, r: RADIUS, fill: colour(event.value), class: "gallery-circle" }),
      svg("text", { x, y: ROW_HEIGHT / 2 + 5, "text-anchor": "middle", class: "gallery-letter", "data-letter": letter }, label));
    } else if (event.kind === "completed") {
      lane.appendChild(svg("line", { x1: x, x2: x, y1: 8, y2: ROW_HEIGHT - 8, class: "gallery-complete" }));
    } else {
      lane.appendChild(svg("path", { d: `M${x - 7} ${ROW_HEIGHT / 2 - 7} l14 14 m0 -14 l-14 14`, class: "gallery-error" }));
    }
    if (threads) lane.appendChild(svg("text", { x, y: ROW_HEIGHT + THREAD_LINE - 4, "text-anchor": "middle", class: "lesson-thread" }, event.thread ?? "session"));
  });
  return lane;
}

/**
 * What a marble shows for `value` when it is short enough to be itself — a number, a boolean, a
 * string of up to three characters (`6`, `10`, `true`, `sw`) — else `null`, and the marble shows
 * its letter, which the row's legend names.
 */
export function drawnAs(value) {
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number" && String(value).length <= 4) return String(value);
  if (typeof value === "string" && value.length >= 1 && [...value].length <= 3 && !/\s/.test(value)) return value;
  return null;
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

/**
 * `differences` kept only where a ring says something: a row none of whose values is in every
 * other row would be ringed all over, so it is not ringed at all and is named in `unringed`.
 */
export function meaningfulDifferences(drawings) {
  const differs = differences(drawings);
  const unringed = [];
  for (const [name, drawing] of Object.entries(drawings)) {
    const values = drawing.events.flatMap((event, index) => (event.kind === "next" ? [index] : []));
    if (values.length && values.every((index) => differs[name].has(index))) {
      differs[name] = new Set();
      unringed.push(name);
    }
  }
  return { differs, unringed };
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

/**
 * Edits rows of marbles drawn in lanes. Each row is `{name, letters, values, end, field,
 * endChoice}` (`parseRow`'s shape, with the field of its notation, the select of how it ends and
 * the values its letters stand for); `frames()` is the lanes' length in frames, `nextSymbol(row)`
 * the letter a new marble takes, `onChange(row)` runs after each edit.
 */
export class MarbleRowEditor {
  constructor({ frames, nextSymbol, onChange }) {
    Object.assign(this, { frames, nextSymbol, onChange });
  }

  /** Makes `lane` edit `row`: a click adds a marble, the end choice sets how the row ends. */
  attach(row, lane) {
    row.endChoice.addEventListener?.("change", () => this.endChosen(row, lane));
    lane.addEventListener("click", (event) => this.addMarble(row, lane, event));
    this.draw(row, lane);
  }

  /**
   * A click on a row's lane, not on a marble: a marble in that frame, with the row's next letter,
   * focused, so that the next key typed names its value.
   */
  addMarble(row, lane, event) {
    if (event.target.closest(".gallery-marble")) return;
    const frame = this.frameAt(lane, event.clientX);
    if (this.occupied(row, frame)) return;
    const marble = { frame, symbol: this.nextSymbol(row) };
    row.values.push(marble);
    this.changed(row, lane, marble);
  }

  /** The row's end as its end choice now says: completes, fails, or never ends. */
  endChosen(row, lane) {
    const last = Math.max(0, ...row.values.map((value) => value.frame));
    let frame = row.end?.frame ?? last + 2;
    while (!row.end && this.occupied(row, frame)) frame += 1; // past a group's span
    row.end = row.endChoice.value ? { frame, kind: row.endChoice.value } : null;
    this.changed(row, lane);
  }

  frameAt(lane, clientX) {
    const box = lane.getBoundingClientRect();
    return Math.max(0, Math.round((clientX - box.left - FRAME_WIDTH / 2) / FRAME_WIDTH));
  }

  /** Whether `frame` cannot take a marble (`except`, moved there, or a new one): taken, or inside a group's span. */
  occupied(row, frame, except) {
    if (row.values.some((value) => value !== except && value.frame === frame) || (row.end && row.end !== except && row.end.frame === frame)) return true;
    const values = row.values.map((value) => (value === except ? { ...value, frame } : value));
    if (!except) values.push({ frame, symbol: "x" });
    return renderRow({ values, end: row.end === except && row.end ? { ...row.end, frame } : row.end }) === null;
  }

  /** After an edit: the row redrawn (focus on `focus`, a marble or a frame), its notation updated, the output asked for. */
  changed(row, lane, focus) {
    row.field.value = renderRow(row);
    row.endChoice.value = row.end?.kind ?? "";
    this.draw(row, lane, focus);
    this.onChange(row);
  }

  draw(row, lane, focus) {
    const width = this.frames() * FRAME_WIDTH;
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
      const limit = item.symbol !== undefined && row.end ? row.end.frame - 1 : this.frames() + 20;
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
}

/**
 * Makes `lane` (an SVG) the drawing of the notation in `field`, both ways, for the forms that ask
 * for one row (a lesson's prediction, the find's rows). `endChoice` is a select of how the row
 * ends (`|`, `#`, ``), if the form has one; `letters()` the letters a new marble takes in turn;
 * `minFrames()` the row's least length; `onChange` runs after each edit.
 */
export function editableRow({ name, field, lane, endChoice = { value: "" }, letters = () => [], minFrames = () => 16, onChange = () => {} }) {
  const row = { name, letters: {}, nested: {}, values: [], end: null, field, endChoice };
  const editor = new MarbleRowEditor({
    frames: () => Math.max(minFrames(), ...row.values.map((value) => value.frame + 4), (row.end?.frame ?? 0) + 4),
    nextSymbol: (target) => {
      const choices = letters();
      return choices.find((letter) => !target.values.some((value) => value.symbol === letter)) ?? choices[0] ?? "a";
    },
    onChange,
  });
  /** Reads the field's notation into the row and draws it (nothing when it does not parse). */
  const read = () => {
    const text = field.value.trim();
    const parsed = text ? parseRow(text) : { values: [], end: null };
    if (parsed.error) return parsed;
    Object.assign(row, { values: parsed.values, end: parsed.end });
    endChoice.value = parsed.end?.kind ?? "";
    editor.draw(row, lane);
    return parsed;
  };
  field.addEventListener("input", read);
  editor.attach(row, lane);
  read();
  return { row, read, draw: () => editor.draw(row, lane) };
}
