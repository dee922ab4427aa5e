// "Why did this fire?": every glyph sharing a root cause with the one pointed at (or focused) lit,
// with lines between them, the graph's edges of its row, and a stack's values written out.
import { FIRST_LANE, PAD } from "./diagram-geometry.js";
import { fit, textWidth } from "./diagram-glyphs.js";
import { lightEdges } from "./diagram-graph.js";
import { describeCluster } from "./diagram-text.js";
import { svg } from "../lib/dom.js";
import { describe } from "../lib/format.js";

/** Highlights every glyph that shares a root cause with `cluster`, and draws the lines between them. */
export function trace(diagram, target) {
  diagram.traced = target;
  const roots = new Set(target.events.flatMap((event) => (event.causes?.length ? event.causes : [])));
  const seqs = new Set(target.events.map((event) => event.seq));
  diagram.svg.classList.add("tracing");
  const related = [];
  diagram.allLanes.forEach(({ row, lane }, order) => {
    for (const cluster of lane.clusters) {
      const hit = cluster.events.some((event) => seqs.has(event.seq) || (event.causes ?? []).some((seq) => roots.has(seq)));
      cluster.node?.classList.toggle("related", hit);
      if (hit) related.push({ row, lane, cluster, order });
    }
  });
  diagram.traceLayer.replaceChildren();
  const centre = ({ row, lane, cluster }) => [cluster.x, row.top + lane.centre];
  for (const item of related) {
    // From the related glyph in the nearest lane above: the latest one not after it.
    const above = related.filter((other) => other.order < item.order);
    if (!above.length) continue;
    const nearest = Math.max(...above.map((other) => other.order));
    const candidates = above.filter((other) => other.order === nearest);
    const before = candidates.filter((other) => other.cluster.x <= item.cluster.x + 0.5);
    const from = (before.length ? before : candidates).reduce((best, other) =>
      (before.length ? other.cluster.x > best.cluster.x : other.cluster.x < best.cluster.x) ? other : best);
    const [x1, y1] = centre(from);
    const [x2, y2] = centre(item);
    diagram.traceLayer.appendChild(svg("line", { class: "trace-line", x1, y1, x2, y2 }));
  }
}

export function untrace(diagram) {
  diagram.traced = null;
  placeDetail(diagram, null);
  lightEdges(diagram.graph, null);
  diagram.stackValues.replaceChildren();
  diagram.svg.classList.remove("tracing");
  diagram.traceLayer.replaceChildren();
  for (const node of diagram.svg.querySelectorAll(".related")) node.classList.remove("related");
}

export function point(diagram, found) {
  if (!found) return;
  trace(diagram, found.cluster);
  diagram.detail.textContent = describeCluster(diagram, found.row, found.lane, found.cluster);
  placeDetail(diagram, found.cluster.node);
  diagram.tracedRow = found.row.name;
  lightEdges(diagram.graph, found.row.name);
  showStackValues(diagram, found.row, found.lane, found.cluster);
  const [first] = found.cluster.events;
  if (first.sub !== undefined) diagram.onPoint?.({ stream: first.stream, sub: first.sub, kind: first.kind, t: first.t });
}

/** A stack's values written across its lane while it is pointed at or focused: no click needed. */
export function showStackValues(diagram, row, lane, cluster) {
  diagram.stackValues.replaceChildren();
  if (cluster.events.length < 2) return;
  const values = cluster.events.map((event) => (event.kind === "next" ? describe(event.value) : event.kind));
  const text = fit(values.join(" · "), Math.max(80, diagram.width - 2 * PAD));
  const width = textWidth(text) + 10;
  const top = row.top + lane.centre - FIRST_LANE;
  // Centred on the stack, but inside the visible part of the lane.
  const [start, end] = diagram.view.map((t) => t * diagram.pxPerMs - PAD);
  const left = Math.max(start + 2, Math.min(cluster.x - width / 2, end - 2 - width));
  diagram.stackValues.append(
    svg("rect", { class: "stack-values-box", x: left, y: top + 1, width, height: 19, rx: 4 }),
    svg("text", { class: "stack-values-text", x: left + 5, y: top + 15 }, text),
  );
}

/**
 * The detail line back to its hint (its first text, kept as `data-hint`) and its place under the
 * diagram: a new diagram, or a view the learner left, says nothing of marbles no longer shown.
 */
export function resetDetail(detail) {
  if (!detail) return;
  detail.dataset.hint ??= detail.textContent;
  detail.textContent = detail.dataset.hint;
  detail.classList.remove("pointing");
  detail.style.removeProperty("left");
  detail.style.removeProperty("top");
}

// Leaving a view clears what its detail lines said, wherever they point.
window.addEventListener("hashchange", () => document.querySelectorAll(".marble-detail").forEach(resetDetail));

/**
 * The detail line (what the pointed marble is, and why it fired) set next to `glyph`, just under
 * it, inside the diagram's panel, so that it is read where the eye already is; with no glyph it
 * goes back to its place under the diagram (its slot keeps the room, so nothing below moves).
 */
export function placeDetail(diagram, glyph) {
  const detail = diagram.detail;
  const panel = detail.offsetParent;
  if (!glyph || !panel || !glyph.isConnected) {
    detail.classList.remove("pointing");
    detail.style.removeProperty("left");
    detail.style.removeProperty("top");
    return;
  }
  detail.classList.add("pointing");
  const at = glyph.getBoundingClientRect();
  const box = panel.getBoundingClientRect();
  const width = detail.offsetWidth;
  const left = Math.max(8, Math.min(at.left - box.left - 24, panel.clientWidth - width - 8));
  detail.style.left = `${left}px`;
  detail.style.top = `${at.bottom - box.top + 8}px`;
}
