// The diagram's graph column: one edge per row a stage reads, from the source row to the reader
// row, laid out as nested arcs (a small layered layout) so that every edge can be followed on its
// own: edges that share a stretch of rows never share a track, and shorter edges run nearer the
// lanes. Pointing at or focusing a row lights its incoming and outgoing edges.
import { svg } from "../lib/dom.js";

/** Distance between two tracks, and from the innermost track to the column's right edge. */
const TRACK = 8;
const INNER = 10;
/** Edges leave a source below its row's centre and enter a reader above it. */
const OUT_DY = 5;
const IN_DY = -5;

/**
 * The edges of `rows` (each `{index, from: [row]}`), each `{from, to, track}`: two edges whose row
 * spans meet (even at one row) get different tracks, so no vertical stretch is shared.
 */
export function layoutEdges(rows) {
  const edges = rows.flatMap((row) => row.from.map((source) => ({ from: source, to: row })));
  const span = (edge) => [Math.min(edge.from.index, edge.to.index), Math.max(edge.from.index, edge.to.index)];
  edges.sort((a, b) => (span(a)[1] - span(a)[0]) - (span(b)[1] - span(b)[0]) || span(a)[0] - span(b)[0]);
  const tracks = []; // per track, the spans placed on it
  for (const edge of edges) {
    const [low, high] = span(edge);
    let track = tracks.findIndex((spans) => spans.every(([a, b]) => high < a || b < low));
    if (track < 0) track = tracks.push([]) - 1;
    tracks[track].push([low, high]);
    edge.track = track;
  }
  return { edges, tracks: tracks.length };
}

/**
 * The column as an SVG element `height` tall, each row's edges meeting it at `centre(row)` (rows
 * grow with their lanes). Each edge is a path (`data-from`, `data-to`: the rows' names) from its
 * source's dot to its reader's arrowhead.
 */
export function drawGraph(rows, { height, centre }) {
  const { edges, tracks } = layoutEdges(rows);
  const width = INNER + 2 + tracks * TRACK;
  const column = svg("svg", { class: "graph", width, height, "aria-hidden": "true" });
  for (const edge of edges) {
    const x = width - INNER - edge.track * TRACK;
    const y1 = centre(edge.from) + OUT_DY;
    const y2 = centre(edge.to) + IN_DY;
    const turn = Math.min(4, Math.abs(y2 - y1) / 2);
    const down = y2 > y1 ? 1 : -1;
    const d = `M${width - 3} ${y1} H${x + turn} Q${x} ${y1} ${x} ${y1 + down * turn} V${y2 - down * turn}`
      + ` Q${x} ${y2} ${x + turn} ${y2} H${width - 5}`;
    const group = svg("g", { class: "edge-group", "data-from": edge.from.name, "data-to": edge.to.name });
    group.append(
      svg("path", { class: "edge", d }),
      svg("circle", { class: "edge-dot", cx: width - 3, cy: y1, r: 2 }),
      svg("path", { class: "edge-head", d: `M${width - 6} ${y2 - 3.5} L${width} ${y2} L${width - 6} ${y2 + 3.5} Z` }),
    );
    column.appendChild(group);
  }
  return column;
}

/** Lights the edges into and out of row `name` (null: all edges drawn as usual). */
export function lightEdges(column, name) {
  column.classList.toggle("lighting", name !== null);
  for (const group of column.querySelectorAll(".edge-group")) {
    group.classList.toggle("lit", name !== null && (group.dataset.from === name || group.dataset.to === name));
  }
}
