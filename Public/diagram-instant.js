// The diagram at an instant: what the session had done by then — the scrubber's view. An instant
// is `{t, seq}`: every event up to `seq` (the session's order), drawn up to time `t`. Each lane
// keeps its whole model (`lane.full`) and draws the part up to the instant: refreshLane redraws
// only the glyphs from the first that changed, so a step of one event redraws one glyph or two.
// The lanes' lines are cut at `t` (a subscription disposed later is live there, one made later is
// not there yet), and the row labels' latest values and counts are told for that instant.
import { refreshLane } from "./diagram-draw.js";
import { isMark } from "./diagram-model.js";
import { showCount } from "./diagram-text.js";
import { svg } from "./dom.js";
import { describe } from "./format.js";

let clips = 0;

/** A lane's model as the diagram draws it: up to its instant, if it has one. */
export function atInstant(diagram, model) {
  const instant = diagram.instant;
  if (!instant) return model;
  const events = model.events.filter((event) => event.seq <= instant.seq);
  return events.length === model.events.length ? model : { ...model, events };
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

/** A row's latest value and counts at `seq`, from the events it keeps. */
function countsAt(row, seq) {
  const counts = { count: row.count, subscriptions: row.subscriptions, live: row.live, hiddenLanes: row.hiddenLanes, countLabel: row.countLabel };
  let latest = null;
  for (let index = row.events.length - 1; index >= 0; index -= 1) {
    const event = row.events[index];
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

function showLatest(row, event) {
  row.latest.textContent = !event ? "—" : event.kind === "next" ? describe(event.value, 120) : event.kind;
  if (event) row.latest.dataset.kind = event.kind;
  else delete row.latest.dataset.kind;
}

/**
 * Shows `diagram` at its instant (`diagram.instant`), or live again when it has none. Cheap enough
 * for every frame of a drag: a class per glyph, an attribute per lane, a label per row.
 */
export function showInstant(diagram) {
  const instant = diagram.instant;
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
  if (instant) diagram.clip.setAttribute("width", 1e6 + instant.t * diagram.pxPerMs);
  for (const row of diagram.rows) {
    for (const lane of row.lanes) {
      const model = atInstant(diagram, lane.full);
      if (model.events.length !== lane.model.events.length) refreshLane(diagram, row, lane, model);
      for (const node of [lane.lines, lane.tail]) {
        if (instant) node.setAttribute("clip-path", diagram.clipURL);
        else node.removeAttribute("clip-path");
      }
      if (instant) lane.node.dataset.instant = laneState(lane, instant.seq);
      else delete lane.node.dataset.instant;
    }
    if (instant) {
      const { counts, latest } = countsAt(row, instant.seq);
      showCount(counts);
      showLatest(row, latest);
    } else {
      showCount(row);
      showLatest(row, row.events.findLast((event) => !isMark(event)));
    }
  }
}
