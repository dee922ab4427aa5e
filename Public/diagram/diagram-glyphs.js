// The shapes of the marble diagram, in a lane's coordinates: a marble with its value, a stack with
// its count, a completion bar, an error cross, a step dot, a subscription's `^` and `!`, and the
// badge naming a glyph's thread. Each function returns SVG elements; where they go, and what they
// say to a screen reader, is the diagram's business.
import { svg } from "../lib/dom.js";
import { describe, seconds } from "../lib/format.js";

/** Marble radius; a value label's baseline above a glyph's centre; step levels about the centre. */
export const RADIUS = 12;
export const LABEL_ABOVE = 18;
export const STEP_HALF = 9;
const DOT = 5;
export const LABEL_FONT = "14px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

const measurer = document.createElement("canvas").getContext("2d");
export function textWidth(text) {
  measurer.font = LABEL_FONT;
  return measurer.measureText(text).width;
}

/** `text` cut (with "…") to at most `width` pixels; "" when not even two characters fit. */
export function fit(text, width) {
  if (textWidth(text) <= width) return text;
  for (let length = text.length - 1; length >= 2; length -= 1) {
    const cut = text.slice(0, length) + "…";
    if (textWidth(cut) <= width) return cut;
  }
  return "";
}

/** An event as words: what it is, its value, its time, and the thread that delivered it. */
export function eventText(event) {
  const on = event.thread ? ` on the ${event.thread} thread` : "";
  const at = ` at ${seconds(event.t)}${on}`;
  switch (event.kind) {
    case "completed": return `completed${at}`;
    case "error": return `error ${describe(event.value?.code ?? "", 40)}: ${describe(event.value?.message ?? "", 120)}${at}`;
    case "subscribed": return `subscription ${event.sub ?? "?"} began${at}`;
    case "disposed": return `subscription ${event.sub ?? "?"} disposed${at}`;
    default: return `${describe(event.value, 120)}${at}`;
  }
}

/**
 * A stack of several events: a white marble with their count, a shadow behind it; `radius` smaller
 * on an inner lane, whose neighbours are closer (the shadow stays inside its lane).
 */
export function stackShapes(x, y, count, radius = RADIUS) {
  const lift = radius < RADIUS ? 2 : 3;
  return [
    svg("circle", { class: "stack-shadow", cx: x + 3, cy: y - lift, r: radius }),
    svg("circle", { class: "marble-circle", cx: x, cy: y, r: radius }),
    svg("text", { class: "marble-text stack-count", x, y: y + 5, "text-anchor": "middle" }, String(count)),
  ];
}

/** A completion: a bar across the lane (`half` its half height). */
export function completedShapes(x, y, half = RADIUS) {
  return [
    svg("rect", { class: "glyph-hit", x: x - 6, y: y - half, width: 12, height: 2 * half }),
    svg("line", { class: "completed-bar", x1: x, x2: x, y1: y - half, y2: y + half }),
  ];
}

/** An error: a cross (`half` its half size). */
export function errorShapes(x, y, half = RADIUS) {
  const s = half * 0.7;
  return [
    svg("rect", { class: "glyph-hit", x: x - half, y: y - half, width: 2 * half, height: 2 * half }),
    svg("path", { class: "error-cross", d: `M${x - s} ${y - s} L${x + s} ${y + s} M${x + s} ${y - s} L${x - s} ${y + s}` }),
  ];
}

/** A value on a step line: a dot at its level. */
export function stepShapes(x, y) {
  return [svg("circle", { class: "glyph-hit", cx: x, cy: y, r: RADIUS }), svg("circle", { class: "step-dot", cx: x, cy: y, r: DOT })];
}

/** A value: a marble in its cause's colour, the value inside when it fits (else a label above). */
export function marbleShapes(x, y, fill, text) {
  const shapes = [svg("circle", { class: "marble-circle", cx: x, cy: y, r: RADIUS, fill })];
  const inside = textWidth(text) <= 2 * RADIUS - 5;
  if (inside) shapes.push(svg("text", { class: "marble-text", x, y: y + 5, "text-anchor": "middle" }, text));
  return { shapes, inside };
}

/**
 * A subscription's start (`^`, a caret as RxJS's subscription marbles write it) or end (`!`, a
 * bar with a dot), `half` its half height.
 */
export function markShapes(kind, x, y, half = RADIUS) {
  const hit = svg("rect", { class: "glyph-hit", x: x - 7, y: y - half, width: 14, height: 2 * half });
  if (kind === "subscribed") {
    const h = Math.min(7, half - 2);
    return [hit, svg("path", { class: "mark-shape mark-start", d: `M${x - 5} ${y + h - 2} L${x} ${y - h} L${x + 5} ${y + h - 2}` })];
  }
  const h = Math.min(8, half - 1);
  return [hit,
    svg("line", { class: "mark-shape mark-end", x1: x, x2: x, y1: y - h, y2: y + h - 5 }),
    svg("circle", { class: "mark-shape mark-end-dot", cx: x, cy: y + h - 1, r: 1.8 })];
}

/** The letter a thread's badge shows: its name's first letter, upper case (`S` session, `B` background…). */
function threadLetter(thread) {
  return (thread ?? "?").charAt(0).toUpperCase();
}

/**
 * The badge at a glyph's lower right that names the thread (or threads) its events came on: a
 * letter each, never colour alone, the names in full in its title and the glyph's label. Null
 * when no event names one.
 */
export function threadBadge(events, x, y) {
  const threads = [...new Set(events.map((event) => event.thread).filter(Boolean))];
  if (!threads.length) return null;
  // One letter (two threads: two letters, more: "+"), in the marble's lower right corner, within
  // the lane and short of the next glyph.
  const text = threads.length > 2 ? "+" : threads.map(threadLetter).join("");
  const width = 3 + 10 * text.length;
  const left = x + RADIUS - 9;
  const top = y + 1;
  const badge = svg("g", { class: "thread-badge", "data-threads": threads.join(" ") });
  badge.appendChild(svg("title", {}, `on the ${threads.join(" and ")} thread${threads.length > 1 ? "s" : ""}`));
  badge.appendChild(svg("rect", { x: left, y: top, width, height: 15, rx: 3 }));
  badge.appendChild(svg("text", { x: left + width / 2, y: top + 12, "text-anchor": "middle" }, text));
  return badge;
}
