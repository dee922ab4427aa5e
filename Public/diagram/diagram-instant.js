// The diagram at an instant: what the session had done by then — the scrubber's view. An instant
// is `{t, seq}`: every event up to `seq` (the session's order), drawn up to time `t`.
//
// Live, a row draws the newest events it keeps (`row.events`, a few hundred); each row also keeps
// its history (`row.history`, `row.innerHistory`: up to HISTORY events), so that an instant long
// ago is drawn as truthfully as now. At an instant a row's lanes are laid out from its history up
// to the instant, around the view (a subscription that ended before it is left out whole), with
// the same `rowLanes` and incremental `refreshLane` as live events: a step of one event redraws a
// glyph or two, and a row is laid out again only when its lanes' shape changes. Lines are clipped
// at `t` (a subscription disposed later is live there), and the row labels' latest values and
// counts are counted back from the events after the instant.
import { refreshLane } from "./diagram-draw.js";
import { rowLanes } from "./diagram-lanes.js";
import { isMark, shapeOf } from "./diagram-model.js";
import { showCount, showLatest } from "./diagram-text.js";
import { svg } from "../lib/dom.js";

/** Events of a row (and of its inner subscriptions) kept to be drawn at an instant. */
export const HISTORY = 5000;

let clips = 0;

/**
 * The events of `events` drawn at `instant`: those up to it and from `from` on, and the marks of
 * the subscriptions still live at `from` (so a lane starts with its `^`); a subscription that
 * ended before `from` is left out whole.
 */
export function eventsAt(events, instant, from) {
  const ended = new Set();
  for (const event of events) if (event.kind === "disposed" && event.seq <= instant.seq && event.t < from) ended.add(event.sub);
  return events.filter((event) => event.seq <= instant.seq && !(event.sub !== undefined && ended.has(event.sub)) && (isMark(event) || event.t >= from));
}

/** A row's lanes at the diagram's instant, from its history. */
export function laneModelAt(diagram, row) {
  const from = diagram.viewStart - diagram.windowMs / 2;
  return rowLanes(eventsAt(row.history, diagram.instant, from), eventsAt(row.innerHistory, diagram.instant, from), diagram.laneOptions(row));
}

/** Keeps `event` in `list`, the oldest going a quarter at a time once it holds more than HISTORY. */
export function remember(list, event) {
  list.push(event);
  if (list.length > HISTORY * 1.25) list.splice(0, list.length - HISTORY);
}

/** The lane's state at `seq`: "later" (none of its subscriptions began), "live" or "ended". */
export function laneState(lane, seq) {
  let state = "later";
  for (const subscription of lane.model.subscriptions) {
    const begun = subscription.events.find((event) => event.kind === "subscribed") ?? subscription.events[0];
    if (!begun || begun.seq > seq) continue;
    const ended = subscription.events.find((event) => event.kind === "disposed");
    if (!ended || ended.seq > seq) return "live";
    state = "ended";
  }
  return state;
}

/** A row's latest value and counts at `seq`, counted back from its history. */
function countsAt(row, seq) {
  const counts = { count: row.count, subscriptions: row.subscriptions, live: row.live, hiddenLanes: row.hiddenLanes, countLabel: row.countLabel };
  let latest = null;
  for (let index = row.history.length - 1; index >= 0; index -= 1) {
    const event = row.history[index];
    if (event.seq <= seq) {
      if (!isMark(event)) {
        latest = event;
        break;
      }
      continue;
    }
    if (event.kind === "subscribed") {
      counts.subscriptions -= 1;
      counts.live -= 1;
    } else if (event.kind === "disposed") {
      counts.live += 1;
    } else {
      counts.count -= 1;
    }
  }
  counts.subscriptions = Math.max(0, counts.subscriptions);
  counts.live = Math.max(0, Math.min(counts.subscriptions, counts.live));
  counts.count = Math.max(0, counts.count);
  return { counts, latest };
}

/** The clip that cuts the lanes' lines at the instant, made once per diagram. */
function clipURL(diagram) {
  if (!diagram.clip) {
    clips += 1;
    const id = `instant-clip-${clips}`;
    diagram.clip = svg("rect", { x: -1e6, y: -1e6, height: 2e6, width: 0 });
    const clipPath = svg("clipPath", { id, clipPathUnits: "userSpaceOnUse" });
    clipPath.appendChild(diagram.clip);
    const defs = svg("defs");
    defs.appendChild(clipPath);
    diagram.svg.prepend(defs);
    diagram.clipURL = `url(#${id})`;
  }
  return diagram.clipURL;
}

/**
 * Shows `diagram` at its instant (`diagram.instant`), or live again when it has none. Cheap enough
 * for every frame of a drag: the glyphs that changed, an attribute per lane, a label per row.
 */
export function showInstant(diagram) {
  const instant = diagram.instant;
  const url = clipURL(diagram);
  if (instant) diagram.clip.setAttribute("width", 1e6 + instant.t * diagram.pxPerMs);
  let moved = false;
  for (const row of diagram.rows) {
    const model = diagram.modelOf(row);
    if (shapeOf(model) !== row.shape) moved = diagram.layoutRow(row, model) || moved;
    else model.lanes.forEach((laneModel, index) => refreshLane(diagram, row, row.lanes[index], laneModel));
    for (const lane of row.lanes) {
      for (const node of [lane.lines, lane.tail]) {
        if (instant) node.setAttribute("clip-path", url);
        else node.removeAttribute("clip-path");
      }
      if (instant) lane.node.dataset.instant = laneState(lane, instant.seq);
      else delete lane.node.dataset.instant;
    }
    if (instant) {
      const { counts, latest } = countsAt(row, instant.seq);
      showCount(counts);
      showLatest(diagram, row, latest);
    } else {
      showCount(row);
      showLatest(diagram, row, row.events.findLast((event) => !isMark(event)));
    }
  }
  if (moved) diagram.positionRows();
}
