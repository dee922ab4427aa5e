// The diagram's model, without the DOM: which events are subscriptions' marks, how many are kept,
// when two compared rows' events are the same, how a row's lanes are keyed, and how a step row's
// levels sit.
import { STEP_HALF } from "./diagram-glyphs.js";

/**
 * Events kept per row (and inner subscriptions' events per row); the oldest go first, a quarter
 * more at a time, so that a busy row is laid out again once in a hundred events, not at each.
 */
export const KEEP = 400;
export const KEEP_INNER = 200;
export const TRIM_AT = 1.25;
/** Subscriptions' starts and ends kept while the session's counts are on their way. */
export const MAX_UNCOUNTED = 5000;
/** The narrowest and widest time windows the zoom allows, in milliseconds. */
export const WINDOW_RANGE = [200, 600_000];
export const isMark = (event) => event.kind === "subscribed" || event.kind === "disposed";
/**
 * Events of compared rows (a program's `// compare:` line) are the same when their kind and value
 * agree and their times are this close: one input reaches every variant in one pass on the
 * session's thread, and their timers fire within a few milliseconds of each other.
 */
export const SAME_EVENT_MS = 20;
export const sameEventKey = (event) => `${event.kind}|${JSON.stringify(event.value ?? null)}`;

/**
 * Whether any of `events` (a glyph's) is missing from another compared row: no event of the
 * same kind and value within ``SAME_EVENT_MS`` there.
 */
export function differs(diagram, row, events) {
  const others = (diagram.comparedWith.get(row.name) ?? []).map((name) => diagram.byName.get(name)).filter(Boolean);
  return events.some((event) => !isMark(event) && others.some((other) => !other.events.some((candidate) =>
    !isMark(candidate) && Math.abs(candidate.t - event.t) <= SAME_EVENT_MS && sameEventKey(candidate) === sameEventKey(event))));
}

export function shapeOf(model) {
  return `${model.lanes.map((lane) => lane.key).join(" ")}|${model.hidden}|${model.foldable}`;
}

/**
 * Whether a row is drawn as a step line: all its values are booleans (high is true), or all are
 * among its known `levels` (a small enumeration, or a choice input's options), top first.
 */
export function isStep(row) {
  const values = row.events.filter((event) => event.kind === "next").map((event) => event.value);
  if (!values.length) return false;
  return row.levels ? values.every((value) => row.levels.includes(value)) : values.every((value) => typeof value === "boolean");
}

/** The height of a step row's level for `value`, about a lane's centre. */
export function levelY(row, value, centre) {
  if (!row.levels) return value ? centre - STEP_HALF : centre + STEP_HALF;
  const index = Math.max(0, row.levels.indexOf(value));
  return row.levels.length < 2 ? centre - STEP_HALF : centre - STEP_HALF + (2 * STEP_HALF * index) / (row.levels.length - 1);
}

/** Whether two placed glyphs are drawn the same: same place, same events, same kind. */
export function sameGlyph(a, b) {
  return a.x === b.x && a.mark === b.mark && a.events.length === b.events.length
    && a.events.every((event, index) => event.seq === b.events[index].seq);
}

/**
 * Each row's subscriptions made and live, counted from their `subscribed` and `disposed` marks:
 * how often its work has run, and how many runs are going — its side effects at a glance. The
 * session's counts seed them (``seed``); marks seen before those come are kept (a few thousand at
 * most, should they never come) and added again if the server had not counted them.
 */
export class SubscriptionCounts {
  constructor() {
    this.countedTo = undefined; // the seq up to which the server counted subscriptions
    this.uncounted = []; // marks seen before those counts came
  }

  /** Counts a mark of `row`; whether its counts changed. */
  count(row, event) {
    if (this.countedTo === undefined) {
      if (this.uncounted.length < MAX_UNCOUNTED) this.uncounted.push({ row, event });
    } else if (event.seq <= this.countedTo) {
      return false; // counted by the server already
    }
    if (event.kind === "subscribed") {
      row.subscriptions += 1;
      row.live += 1;
    } else if (event.kind === "disposed") {
      row.live = Math.max(0, row.live - 1);
    }
    return true;
  }

  /** Starts from the session's `counts` by stream, which include every mark up to `countedTo`. */
  seed(rows, counts, countedTo) {
    const seen = this.uncounted;
    this.countedTo = countedTo;
    this.uncounted = [];
    for (const row of rows) {
      row.subscriptions = counts[row.name]?.subscriptions ?? 0;
      row.live = counts[row.name]?.live ?? 0;
    }
    for (const { row, event } of seen) if (event.seq > countedTo) this.count(row, event);
  }
}
