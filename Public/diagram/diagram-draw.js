// Drawing the diagram in SVG: a row's label, the time axis, and a lane's subscriptions' lines,
// step line and glyphs (marbles, bars, crosses, marks, stacks), redrawn where they changed.
import { AXIS, GAP, INNER_HALF, PAD } from "./diagram-geometry.js";
import { completedShapes, errorShapes, fit, LABEL_ABOVE, marbleShapes, markShapes, RADIUS, stackShapes, stepShapes, threadBadge } from "./diagram-glyphs.js";
import { placeGlyphs } from "./diagram-lanes.js";
import { differs, isMark, levelY, sameGlyph } from "./diagram-model.js";
import { isLit } from "./diagram-subscription.js";
import { describeCluster } from "./diagram-text.js";
import { html, svg } from "../lib/dom.js";
import { failureReason } from "../lib/failure-reason.js";
import { describe } from "../lib/format.js";

/** The widest an error's reason is written beside its cross, in pixels. */
const REASON_WIDTH = 360;

export function rowLabel(diagram, row) {
  const item = html("li", `stream${row.input ? " input-row" : ""}${row.stage ? " stage-row" : ""}`);
  item.dataset.stream = row.name;
  item.title = row.description ?? "";
  const first = html("div", "row-line");
  first.appendChild(html("span", "stream-name", row.title));
  row.latest = html("output", "latest", "—");
  row.latest.setAttribute("aria-label", `latest ${row.name}`);
  first.appendChild(row.latest);
  const second = html("div", "row-line");
  second.appendChild(html("code", "stream-operator", row.operator));
  if (row.stages) {
    // A program line's chain: its stages are rows of their own, shown on request.
    const toggle = html("button", "expander", `${row.expanded ? "▾" : "▸"} ${row.stages}`);
    toggle.type = "button";
    toggle.setAttribute("aria-expanded", String(row.expanded));
    toggle.setAttribute("aria-label", `${row.expanded ? "Hide" : "Show"} the ${row.stages} stage${row.stages === 1 ? "" : "s"} of ${row.title}`);
    toggle.addEventListener("click", () => diagram.onExpand?.(row.name));
    second.appendChild(toggle);
  }
  // Identical lanes drawn as one (×2) or each apart: the learner's choice, per row.
  row.foldToggle = html("button", "fold-toggle");
  row.foldToggle.type = "button";
  row.foldToggle.hidden = true;
  row.foldToggle.addEventListener("click", () => diagram.toggleFold(row));
  second.appendChild(row.foldToggle);
  row.countLabel = html("span", "count", "0 events");
  second.appendChild(row.countLabel);
  item.append(first, second);
  if (row.description) item.appendChild(html("span", "visually-hidden", row.description));
  // The graph column says it with lines; this says it in words.
  const readers = diagram.rows.filter((other) => other.from.includes(row)).map((other) => other.title);
  const reads = [row.from.length ? `reads ${row.from.map((source) => source.title).join(", ")}` : "",
    readers.length ? `read by ${readers.join(", ")}` : ""].filter(Boolean).join("; ");
  if (reads) item.appendChild(html("span", "visually-hidden", ` (${reads})`));
  row.label = item;
  return item;
}

/** Room kept between two tick labels, in pixels. */
const TICK_GAP = 12;

/** A tick's time, written with as many decimals as the step needs (10.25 s is not "10.3 s"). */
function tickLabel(t, step) {
  const digits = step % 1000 === 0 ? 0 : step % 100 === 0 ? 1 : step % 10 === 0 ? 2 : 3;
  if (t < 120_000) return `${Number((t / 1000).toFixed(digits))} s`;
  const minutes = Math.floor(t / 60_000);
  return `${minutes} min ${Number(((t - minutes * 60_000) / 1000).toFixed(digits))} s`;
}

/** A label's width in pixels: measured the first time it is drawn, else 9 px a character (14 px digits). */
function labelWidth(diagram, node, text) {
  diagram.tickWidths ??= new Map();
  let width = diagram.tickWidths.get(text);
  if (width === undefined) {
    width = node?.isConnected ? node.getComputedTextLength() : 0;
    if (width > 0) diagram.tickWidths.set(text, width);
    else width = 9 * text.length;
  }
  return width;
}

/**
 * The time axis: a grid line at each step (the least of the steps whose labels stand apart) and
 * its label; a label that would touch the one before it (near an edge, where a label is anchored
 * inside the lane) is left out, its grid line kept, so that no two labels ever meet.
 */
export function drawAxis(diagram) {
  const [start, end] = diagram.view;
  const steps = [10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000];
  const widest = (step) => Math.max(...[0, 1].map((k) => labelWidth(diagram, null, tickLabel((Math.ceil(end / step) + k) * step, step)))) + TICK_GAP;
  const step = steps.find((candidate) => candidate * diagram.pxPerMs >= Math.max(64, widest(candidate))) ?? 600_000;
  const key = `${start}|${end}|${step}|${diagram.height}|${diagram.width}`;
  if (key === diagram.axisKey) return;
  diagram.axisKey = key;
  diagram.axis.replaceChildren();
  let right = -Infinity; // where the last label drawn ends
  for (let t = Math.max(0, Math.ceil((start - PAD / diagram.pxPerMs) / step) * step); t <= end; t += step) {
    const x = PAD + (t - start) * diagram.pxPerMs;
    diagram.axis.appendChild(svg("line", { class: "grid-line", x1: x, x2: x, y1: AXIS - 5, y2: diagram.height }));
    // Near an edge a label is anchored inside the lane, so that none is cut off.
    const text = tickLabel(t, step);
    const anchor = x < 24 ? "start" : x > diagram.width - 24 ? "end" : "middle";
    const label = svg("text", { class: "tick-label", x, y: 16, "text-anchor": anchor, "data-ms": t }, text);
    diagram.axis.appendChild(label);
    const width = labelWidth(diagram, label, text);
    const left = anchor === "start" ? x : anchor === "end" ? x - width : x - width / 2;
    if (left < right + TICK_GAP / 2) label.remove();
    else right = left + width;
  }
}

/** Draws a lane's glyphs again where they changed, its subscriptions' lines, and its step line. */
export function refreshLane(diagram, row, lane, model) {
  lane.model = model;
  const glyphs = placeGlyphs(model.events, diagram.pxPerMs, GAP);
  const old = lane.clusters;
  let from = 0;
  while (from < old.length && from < glyphs.length && sameGlyph(old[from], glyphs[from])) from += 1;
  // The glyph before the first change lost or gained a neighbour: its label's room changed.
  from = Math.max(0, Math.min(from, glyphs.length) - 1);
  for (const cluster of old.slice(from)) cluster.node?.remove();
  lane.clusters = [...old.slice(0, from), ...glyphs.slice(from)];
  for (let index = from; index < lane.clusters.length; index += 1) drawCluster(diagram, row, lane, index);
  drawLines(diagram, row, lane);
  if (row.step && lane.kind === "main") drawStep(diagram, row, lane);
  else lane.tail.removeAttribute("d");
}

/**
 * Each subscription's life on its lane: a line from its start to its end (to now while it is
 * live), and for an inner lane a branch up from the lane above, where it began.
 */
export function drawLines(diagram, row, lane) {
  const scale = diagram.pxPerMs;
  lane.lines.replaceChildren();
  lane.liveLines = [];
  if (row.input) return;
  for (const subscription of lane.model.subscriptions) {
    if (!subscription.events.length) continue;
    const start = (subscription.start ?? subscription.events[0].t) * scale;
    const end = subscription.end === null ? null : subscription.end * scale;
    const line = svg("line", { class: "lane-line", x1: start, x2: end ?? Math.max(start, diagram.now * scale), y1: lane.centre, y2: lane.centre });
    const stream = subscription.events[0].stream;
    if (subscription.sub !== null) Object.assign(line.dataset, { stream, sub: subscription.sub });
    if (isLit(diagram, stream, subscription.sub)) line.classList.add("sub-lit");
    lane.lines.appendChild(line);
    if (end === null) lane.liveLines.push(line);
    if (lane.kind === "inner") {
      lane.lines.appendChild(svg("line", { class: "inner-branch", x1: start, x2: start, y1: lane.branchTop, y2: lane.centre - INNER_HALF }));
    }
  }
}

/** A boolean row's level on a lane: high for true, low for false, from its first value to now. */
export function drawStep(diagram, row, lane) {
  const scale = diagram.pxPerMs;
  let d = "";
  let level = null;
  let end = null;
  for (const event of lane.model.events) {
    if (isMark(event)) continue;
    if (event.kind !== "next") {
      end = event.t;
      continue;
    }
    const x = event.t * scale;
    const y = levelY(row, event.value, lane.centre);
    d += level === null ? `M${x} ${y}` : ` H${x} V${y}`;
    level = y;
  }
  if (level !== null) d += ` H${Math.max(0, (end ?? diagram.now)) * scale}`;
  lane.tail.setAttribute("d", d);
}

/** Draws (or redraws in place) one glyph: a marble, a step dot, a bar, a cross, a mark, or a stack. */
export function drawCluster(diagram, row, lane, index) {
  const cluster = lane.clusters[index];
  const y = lane.centre;
  const half = lane.kind === "inner" ? INNER_HALF : RADIUS;
  const [first] = cluster.events;
  const group = svg("g", { class: "glyph", tabindex: "-1", "data-stream": row.name, "data-seq": first.seq, "data-lane": lane.index });
  group.dataset.seqs = cluster.events.map((event) => event.seq).join(" ");
  if (first.stream !== row.name) group.dataset.source = first.stream;
  if (first.sub !== undefined) group.dataset.sub = first.sub;
  if (isLit(diagram, first.stream, first.sub)) group.classList.add("sub-lit");
  const x = cluster.x;
  let badge = diagram.threads && lane.kind === "main";
  if (cluster.events.length > 1) {
    group.classList.add("stack");
    group.setAttribute("role", "button");
    group.append(...stackShapes(x, y, cluster.events.length, lane.kind === "inner" ? INNER_HALF + 1 : RADIUS));
  } else if (cluster.mark) {
    group.classList.add("mark", `mark-${cluster.mark}`);
    group.setAttribute("role", "img");
    group.append(...markShapes(cluster.mark, x, y, half));
    badge = false;
  } else if (first.kind === "completed") {
    group.setAttribute("role", "img");
    group.append(...completedShapes(x, y, half));
  } else if (first.kind === "error") {
    group.setAttribute("role", "img");
    group.append(...errorShapes(x, y, half));
    if (lane.kind === "main") drawReason(diagram, group, lane, index, failureReason(first.value));
  } else if (row.step) {
    group.setAttribute("role", "img");
    const level = levelY(row, first.value, y);
    group.append(...stepShapes(x, level));
    if (row.levels) drawLabel(group, lane, index, describe(first.value));
  } else {
    group.setAttribute("role", "img");
    const text = describe(first.value);
    const { shapes, inside } = marbleShapes(x, y, diagram.colours.of(first), text);
    group.append(...shapes);
    if (!inside) drawLabel(group, lane, index, text);
  }
  if (badge) {
    const node = threadBadge(cluster.events.filter((event) => !isMark(event)), x, y);
    if (node) group.appendChild(node);
  }
  cluster.differs = lane.kind === "main" && !cluster.mark && diagram.comparedWith.has(row.name) && differs(diagram, row, cluster.events);
  if (cluster.differs) {
    group.classList.add("differs");
    group.prepend(svg("circle", { cx: x, cy: y, r: half + 3, class: "differs-ring" }));
  }
  group.setAttribute("aria-label", describeCluster(diagram, row, lane, cluster) + (cluster.differs ? "; not in every compared row" : ""));
  if (cluster.events.some((event) => event.seq === diagram.current)) group.setAttribute("tabindex", "0");
  const old = cluster.node;
  const hadFocus = old && document.activeElement === old;
  if (old) old.replaceWith(group);
  else lane.node.appendChild(group);
  cluster.node = group;
  diagram.nodes.set(group, { row, lane, cluster });
  if (hadFocus) group.focus({ preventScroll: true });
}

/**
 * A value written above its glyph, cut to the room between its neighbours: centred labels may
 * each take half the distance to a neighbour, less a margin, so no two labels meet. A `^` or
 * `!` has no label and is lower than one: it takes no room.
 */
export function drawLabel(group, lane, index, text) {
  const x = lane.clusters[index].x;
  const valueAt = (from, step) => {
    for (let at = from; at >= 0 && at < lane.clusters.length; at += step) if (!lane.clusters[at].mark) return lane.clusters[at].x;
    return null;
  };
  const previous = valueAt(index - 1, -1) ?? -Infinity;
  const next = valueAt(index + 1, 1) ?? Infinity;
  const shown = fit(text, Math.min(180, Math.min(x - previous, next - x) - 8));
  if (shown) group.appendChild(svg("text", { class: "marble-label", x, y: lane.centre - LABEL_ABOVE, "text-anchor": "middle" }, shown));
}

/**
 * An error's reason written beside its cross, on the lane, without its place ("line 2, column
 * 17: "), cut to the room before the next value on the lane (a `retry`'s; nothing else of a lane
 * follows an error) and to most of the lane's width. Whole, with its place, it is in the glyph's
 * name and in the list under the diagram.
 */
function drawReason(diagram, group, lane, index, reason) {
  const text = reason.replace(/^line \d+, column \d+: /, "").replaceAll("`", "");
  const x = lane.clusters[index].x;
  const after = lane.clusters.slice(index + 1);
  // After the `!` that the error's end of subscription puts beside it.
  let start = x + RADIUS + 4;
  for (const cluster of after) if (cluster.mark && cluster.x < start + 8) start = cluster.x + 10;
  const next = after.find((cluster) => !cluster.mark)?.x ?? Infinity;
  const shown = fit(text, Math.min(REASON_WIDTH, next - start - RADIUS - 4, diagram.width - 3 * RADIUS - 24));
  if (shown) group.appendChild(svg("text", { class: "error-reason", x: start, y: lane.centre + 5 }, shown));
}

/**
 * Once the frame's events are in, redraws the compared glyphs of `name`'s group whose ring is now
 * wrong: a variant's event may find its counterpart only when the other row's arrives.
 */
export function recheckCompared(diagram, name) {
  diagram.recheck ??= new Set();
  diagram.recheck.add(name);
  for (const other of diagram.comparedWith.get(name)) diagram.recheck.add(other);
  if (diagram.recheckScheduled) return;
  diagram.recheckScheduled = true;
  requestAnimationFrame(() => {
    diagram.recheckScheduled = false;
    const names = diagram.recheck;
    diagram.recheck = null;
    for (const rowName of names ?? []) {
      const row = diagram.byName.get(rowName);
      for (const lane of row?.lanes ?? []) {
        if (lane.kind !== "main") continue;
        lane.clusters.forEach((cluster, index) => {
          if (!cluster.mark && Boolean(cluster.differs) !== differs(diagram, row, cluster.events)) drawCluster(diagram, row, lane, index);
        });
      }
    }
  });
}
