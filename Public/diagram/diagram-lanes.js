// How one row of the marble diagram splits into lanes: pure functions of the row's events, so the
// layout can be read (and tested) apart from the drawing.
//
// A stream's row has one lane per subscription (RAC: each `-subscribe:` runs the signal's work
// again), from its `subscribed` mark (`^`) to its `disposed` mark (`!`), its events on it.
// Subscriptions that do not overlap in time (a `retry` subscribing again after an error) share a
// track, end to end; tracks that carry the same events at the same times (two readers of an
// interval) are folded into one with a count, unless the learner unfolded the row. Below them, the
// inner subscriptions a stream's work made (`x·request`, a flattening's inner signals) are short
// lanes packed onto a few tracks, the oldest dropped first when they would not fit.

/** Main tracks drawn per row at most (after folding), and inner tracks. */
export const MAX_TRACKS = 8;
export const MAX_INNER_TRACKS = 3;

/** Times closer than this (in milliseconds) count as the same time when folding tracks. */
const SAME_TIME_MS = 1;

/**
 * The row's subscriptions in order of first sight, each `{sub, events, start, end, first}`:
 * `start`/`end` the times of its `subscribed`/`disposed` events (null when not seen), `first` the
 * seq of its first event. Events without a `sub` (an input's) make one subscription of their own.
 */
export function subscriptionsOf(events) {
  const byID = new Map();
  for (const event of events) {
    const id = event.sub ?? "-";
    let subscription = byID.get(id);
    if (!subscription) {
      subscription = { sub: event.sub ?? null, events: [], start: null, end: null, first: event.seq };
      byID.set(id, subscription);
    }
    subscription.events.push(event);
    if (event.kind === "subscribed") subscription.start = event.t;
    if (event.kind === "disposed") subscription.end = event.t;
  }
  return [...byID.values()];
}

/**
 * Subscriptions packed onto tracks, in order: each goes on the first track whose last
 * subscription ended (was disposed) no later than this one began; else on a new track, while
 * fewer than `limit`. Returns `{tracks: [[subscription]], hidden}`: `hidden` those that found no
 * track. "No later" is by time, not by order: RAC's `retry` (and `catch`, `repeat`) subscribes
 * again while it handles the old subscription's end, a moment before disposing of it, and the
 * two are drawn end to end on one track, the `!` then the `^`. With `apartMs`, a track whose last
 * subscription ended less than that before is taken only when no other track is free and no new
 * one may be made: inner subscriptions that follow each other at once (a `switchToLatest`'s) take
 * turns on two tracks, so that each `^` is seen joined to its own `!`, not read as `!^!^!^`.
 */
export function packTracks(subscriptions, limit, apartMs = 0) {
  const tracks = [];
  let hidden = 0;
  const free = (candidate, begins, room) => {
    const last = candidate.at(-1);
    return last.end !== null && last.end + room <= begins + SAME_TIME_MS;
  };
  for (const subscription of subscriptions) {
    const begins = subscription.start ?? subscription.events[0].t;
    const track = tracks.find((candidate) => free(candidate, begins, apartMs));
    if (track) track.push(subscription);
    else if (tracks.length < limit) tracks.push([subscription]);
    else {
      const touching = tracks.find((candidate) => free(candidate, begins, 0));
      if (touching) touching.push(subscription);
      else hidden += 1;
    }
  }
  return { tracks, hidden };
}

/** A track's events in order, without the ids that tell its subscriptions apart. */
function signature(track) {
  return track.flatMap((subscription) => subscription.events)
    .map((event) => `${event.kind}|${Math.round(event.t / SAME_TIME_MS)}|${JSON.stringify(event.value ?? null)}`)
    .join("\n");
}

/**
 * Tracks grouped by what they carry: `[{tracks: [index], folded}]` in order of first track, each
 * group the tracks whose events are the same at the same times. A group of several is `folded`
 * (drawn once, with its count) unless `unfolded`.
 */
export function foldGroups(tracks, unfolded) {
  if (tracks.length < 2) return tracks.map((_, index) => ({ tracks: [index], folded: false }));
  const bySignature = new Map();
  const groups = [];
  tracks.forEach((track, index) => {
    const key = signature(track);
    const group = bySignature.get(key);
    if (group) group.tracks.push(index);
    else {
      const fresh = { tracks: [index], folded: false };
      bySignature.set(key, fresh);
      groups.push(fresh);
    }
  });
  for (const group of groups) group.folded = group.tracks.length > 1 && !unfolded;
  return groups;
}

/**
 * A row's lanes, top to bottom: `{lanes, foldable, hidden}`. Each lane is `{key, kind, events,
 * subscriptions, count}` — `kind` "main" or "inner", `count` how many identical tracks it stands
 * for. `foldable` says whether any tracks could fold (the row's fold switch); `hidden` how many
 * subscriptions found no track. `key` names the lane's shape: when the keys change, the row is laid
 * out again. `apartMs` is how far apart in time two inner subscriptions must be to share a track
 * (the room of a `!` and a `^` at the diagram's scale).
 */
export function rowLanes(events, innerEvents, { unfolded = false, apartMs = 0 } = {}) {
  const main = packTracks(subscriptionsOf(events), Infinity);
  const groups = foldGroups(main.tracks, unfolded);
  const lanes = [];
  for (const group of groups) {
    const shown = group.folded ? [group.tracks[0]] : group.tracks;
    for (const index of shown) {
      if (lanes.length === MAX_TRACKS) break;
      const track = main.tracks[index];
      lanes.push({ key: `m${index}x${group.folded ? group.tracks.length : 1}`, kind: "main", subscriptions: track,
        events: track.flatMap((subscription) => subscription.events), count: group.folded ? group.tracks.length : 1 });
    }
  }
  const drawnMain = lanes.reduce((sum, lane) => sum + lane.count, 0);
  const all = subscriptionsOf(innerEvents);
  const kept = newestFirstFit(all);
  const inner = packTracks(kept, MAX_INNER_TRACKS, apartMs);
  inner.hidden += all.length - kept.length;
  inner.tracks.forEach((track, index) => {
    lanes.push({ key: `i${index}`, kind: "inner", subscriptions: track,
      events: track.flatMap((subscription) => subscription.events).sort((a, b) => a.seq - b.seq), count: 1 });
  });
  return {
    lanes,
    foldable: groups.some((group) => group.tracks.length > 1),
    hidden: main.tracks.length - drawnMain + inner.hidden,
  };
}

/**
 * Inner subscriptions in order, but those that could not all be drawn lose their oldest first:
 * when more overlap than there are tracks, the live edge keeps the newest.
 */
function newestFirstFit(subscriptions) {
  if (subscriptions.length <= MAX_INNER_TRACKS) return subscriptions;
  const live = subscriptions.filter((subscription) => subscription.end === null);
  if (live.length <= MAX_INNER_TRACKS) return subscriptions;
  const dropped = new Set(live.slice(0, live.length - MAX_INNER_TRACKS));
  return subscriptions.filter((subscription) => !dropped.has(subscription));
}

/** Room (in pixels) from a mark's centre to a neighbouring glyph's centre, and to another mark's. */
export const MARK_TO_GLYPH = 22;
export const MARK_TO_MARK = 14;

/**
 * One lane's glyphs, in time order, at `scale` pixels per millisecond: `[{x, events, mark}]`.
 * Values, completions and errors closer than `gap` pixels are one glyph (a stack); a subscription's
 * `^` and `!` (`mark` "subscribed" / "disposed") stand apart from them, moved left (a `^`) or right
 * (a `!`) by the least that keeps them clear of their neighbours. Marks with no room at all join
 * the neighbouring glyph's stack, so that nothing drawn overlaps.
 */
export function placeGlyphs(events, scale, gap) {
  const glyphs = [];
  let pending = []; // marks waiting for the glyph after them
  const settle = (next) => {
    if (!pending.length) return;
    const previous = glyphs.at(-1);
    const low = previous ? previous.x + (previous.mark ? MARK_TO_MARK : MARK_TO_GLYPH) : -Infinity;
    const high = next ? next.x - MARK_TO_GLYPH : Infinity;
    // Wanted places, kept apart left to right, then pulled back left of the next glyph.
    const xs = [];
    for (const mark of pending) {
      const wanted = mark.t * scale;
      xs.push(Math.max(wanted, xs.length ? xs.at(-1) + MARK_TO_MARK : low));
    }
    for (let index = xs.length - 1; index >= 0; index -= 1) {
      const limit = index === xs.length - 1 ? high : xs[index + 1] - MARK_TO_MARK;
      xs[index] = Math.min(xs[index], limit);
    }
    if (xs[0] >= low) {
      pending.forEach((mark, index) => glyphs.push({ x: xs[index], events: [mark], mark: mark.kind }));
    } else if (previous && !previous.mark) {
      previous.events.push(...pending); // no room: told with the glyph before them
    } else if (next) {
      next.events.unshift(...pending);
    } else {
      pending.forEach((mark, index) => glyphs.push({ x: low + index * MARK_TO_MARK, events: [mark], mark: mark.kind }));
    }
    pending = [];
  };
  for (const event of events) {
    if (event.kind === "subscribed" || event.kind === "disposed") {
      pending.push(event);
      continue;
    }
    const x = event.t * scale;
    const last = glyphs.at(-1);
    if (!pending.length && last && !last.mark && x - last.x < gap) {
      last.events.push(event);
      continue;
    }
    const glyph = { x, events: [event], mark: null };
    if (last && !last.mark && x - last.x < gap) {
      // Marks between two values too close to stand apart: one stack.
      last.events.push(...pending, event);
      pending = [];
      continue;
    }
    settle(glyph);
    const previous = glyphs.at(-1);
    if (previous && !previous.mark && x - previous.x < gap) previous.events.push(event);
    else glyphs.push(glyph);
  }
  settle(null);
  return glyphs;
}
