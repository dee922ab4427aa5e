// Pointer, wheel and keyboard on the diagram: one tab stop that moves with the arrows (along a
// lane, between lanes), Enter to spread a stack, + and - to zoom, Escape; a focused glyph is
// scrolled into view.
import { GAP, PAD } from "./diagram-geometry.js";
import { lightEdges } from "./diagram-graph.js";
import { WINDOW_RANGE } from "./diagram-model.js";
import { point, untrace } from "./diagram-trace.js";

export function attachHandlers(diagram) {
  // A row's label pointed at or focused lights the edges into and out of it.
  const rowOfLabel = (node) => node?.closest?.("li.stream")?.dataset.stream ?? null;
  diagram.labels.addEventListener("pointerover", (event) => lightEdges(diagram.graph, rowOfLabel(event.target)));
  diagram.labels.addEventListener("pointerleave", () => lightEdges(diagram.graph, diagram.traced ? diagram.tracedRow : null));
  diagram.labels.addEventListener("focusin", (event) => lightEdges(diagram.graph, rowOfLabel(event.target)));
  diagram.labels.addEventListener("focusout", () => lightEdges(diagram.graph, null));
  diagram.svg.addEventListener("pointerover", (event) => point(diagram, clusterOf(diagram, event.target)));
  diagram.svg.addEventListener("pointerleave", () => {
    const focused = clusterOf(diagram, document.activeElement);
    if (focused) point(diagram, focused);
    else untrace(diagram);
  });
  diagram.svg.addEventListener("focusin", (event) => {
    const found = clusterOf(diagram, event.target);
    if (!found) return;
    moveTabStop(diagram, found.cluster);
    reveal(diagram, found.cluster);
    point(diagram, found);
  });
  diagram.svg.addEventListener("focusout", (event) => {
    if (!diagram.svg.contains(event.relatedTarget)) untrace(diagram);
  });
  diagram.svg.addEventListener("click", (event) => {
    const found = clusterOf(diagram, event.target);
    if (!found) return;
    found.cluster.node.focus({ preventScroll: true });
    if (found.cluster.events.length > 1) spread(diagram, found.cluster);
  });
  diagram.svg.addEventListener("keydown", (event) => key(diagram, event));
  diagram.lanes.addEventListener("wheel", (event) => {
    if (event.ctrlKey) {
      event.preventDefault();
      const box = diagram.lanes.getBoundingClientRect();
      const at = diagram.viewStart + (event.clientX - box.left - PAD) / diagram.pxPerMs;
      diagram.setFollow(false);
      diagram.setWindow(diagram.windowMs * (event.deltaY > 0 ? 1.25 : 0.8), at);
    } else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
      event.preventDefault();
      diagram.pan((event.shiftKey ? event.deltaY : event.deltaX) / diagram.width);
    }
  }, { passive: false });
}

export function clusterOf(diagram, node) {
  const glyph = node?.closest?.(".glyph");
  return glyph ? diagram.nodes.get(glyph) ?? null : null;
}

export function moveTabStop(diagram, cluster) {
  for (const node of diagram.svg.querySelectorAll('.glyph[tabindex="0"]')) node.setAttribute("tabindex", "-1");
  cluster.node.setAttribute("tabindex", "0");
  diagram.current = cluster.events[0].seq;
}

/** Scrolls a paused view so that a focused glyph is visible. */
export function reveal(diagram, cluster) {
  const t = cluster.x / diagram.pxPerMs;
  const [start, end] = diagram.view;
  if (t >= start && t <= end) return;
  diagram.setFollow(false);
  diagram.viewStart = Math.max(0, t - diagram.windowMs / 2);
  diagram.render(diagram.now);
}

/** Zooms in until a stack's events stand apart (unless they happened at one instant). */
export function spread(diagram, cluster) {
  const times = cluster.events.map((event) => event.t);
  const [low, high] = [Math.min(...times), Math.max(...times)];
  if (high <= low) return;
  diagram.setFollow(false);
  const wanted = ((high - low) * diagram.width) / (GAP * (cluster.events.length + 1));
  diagram.zoomed = true;
  diagram.windowMs = Math.min(WINDOW_RANGE[1], Math.max(WINDOW_RANGE[0], wanted));
  diagram.viewStart = Math.max(0, (low + high) / 2 - diagram.windowMs / 2);
  diagram.relayout();
  const seq = cluster.events[0].seq;
  const found = diagram.allLanes.flatMap(({ lane }) => lane.clusters).find((other) => other.events.some((event) => event.seq === seq));
  found?.node.focus({ preventScroll: true });
}

/**
 * The arrows move along a lane in time order (Left, Right, Home, End) and between lanes (Up,
 * Down: the nearest glyph of the next lane that has one).
 */
export function key(diagram, event) {
  const found = clusterOf(diagram, event.target);
  if (!found) return;
  const { lane, cluster } = found;
  const index = lane.clusters.indexOf(cluster);
  let target = null;
  const nearestIn = (other) => other.clusters.reduce((best, item) =>
    !best || Math.abs(item.x - cluster.x) < Math.abs(best.x - cluster.x) ? item : best, null);
  const laneWith = (direction) => {
    const lanes = diagram.allLanes.map((item) => item.lane);
    for (let at = lanes.indexOf(lane) + direction; at >= 0 && at < lanes.length; at += direction) {
      if (lanes[at].clusters.length) return lanes[at];
    }
    return null;
  };
  switch (event.key) {
    case "ArrowLeft": target = lane.clusters[index - 1]; break;
    case "ArrowRight": target = lane.clusters[index + 1]; break;
    case "Home": target = lane.clusters[0]; break;
    case "End": target = lane.clusters.at(-1); break;
    case "ArrowUp": { const other = laneWith(-1); target = other && nearestIn(other); break; }
    case "ArrowDown": { const other = laneWith(1); target = other && nearestIn(other); break; }
    case "Enter": case " ": if (cluster.events.length > 1) spread(diagram, cluster); event.preventDefault(); return;
    case "+": case "=": diagram.setFollow(false); diagram.setWindow(diagram.windowMs / 2, cluster.x / diagram.pxPerMs); event.preventDefault(); return;
    case "-": diagram.setFollow(false); diagram.setWindow(diagram.windowMs * 2, cluster.x / diagram.pxPerMs); event.preventDefault(); return;
    case "Escape": untrace(diagram); diagram.detail.textContent = ""; return;
    default: return;
  }
  event.preventDefault();
  target?.node?.focus({ preventScroll: true });
}
