// Two runs of one program or scenario — live, replayed, or run again from rows — compared on one
// time axis: by stream, the events added, removed or moved, the subscriptions that lived longer or
// shorter, the events delivered on another thread; and "why is this different?": the first input
// that differs. Pure functions, no DOM: the run's rows panel draws what they find.
import { parseRow, parseSubscription } from "../lib/marble-notation.js";

/** Events paired by the alignment at most (each run's first ones per stream): the cost is their product. */
const MAX_ALIGNED = 600;
const keyOf = (event) => `${event.kind}|${JSON.stringify(event.value ?? null)}`;

/**
 * A recording (GET /api/sessions/{sid}/recording, or a kept run) as a run: by stream, its
 * `events` (`{kind, time, value, thread}`) and its `subscriptions` (`{start, end}`, `end` null
 * while live), in order; the subscriptions a stream's work made inside it are the stream `name·x`.
 */
export function runOfRecording(recording) {
  const streams = {};
  const open = new Map(); // subscription id → {start, end}
  const entry = (name) => (streams[name] ??= { events: [], subscriptions: [] });
  for (const event of recording.events) {
    if (event.kind === "subscribed") {
      const subscription = { start: event.t, end: null };
      open.set(event.sub, subscription);
      entry(event.stream).subscriptions.push(subscription);
    } else if (event.kind === "disposed") {
      const subscription = open.get(event.sub);
      if (subscription) subscription.end = event.t;
    } else if (!event.stream.includes("·")) {
      // The inner subscriptions' own events are not compared: a drawing has their subscriptions only.
      entry(event.stream).events.push({ kind: event.kind, time: event.t, value: event.value, thread: event.thread ?? "session" });
    }
  }
  return { streams, until: recording.events.at(-1)?.t ?? 0 };
}

/**
 * A drawing (POST /api/marbles or /api/scenarios/{id}/marbles) of `rows` (`{frame, inputs,
 * values}`) as a run: its inputs are the rows' (`input:NAME`, as a session names them; a program's
 * rows are streams of their own there), its subscriptions read from their notation.
 */
export function runOfDrawing(answer, rows) {
  const streams = {};
  // The run's end disposes of every subscription: one that ended then may have been live still.
  const fromNotation = (texts) => texts.map((text) => {
    const { start, end } = parseSubscription(text);
    const time = end === null ? null : end * answer.frame;
    return { start: start * answer.frame, end: time, atEnd: time === null || time >= answer.until };
  });
  for (const [name, drawing] of Object.entries(answer.streams)) {
    if (name in rows.inputs) continue;
    streams[name] = { events: drawing.events.map((event) => ({ ...event, thread: event.thread ?? "session" })), subscriptions: fromNotation(drawing.subscriptions ?? []) };
    for (const [source, texts] of Object.entries(drawing.sources ?? {})) streams[source] = { events: [], subscriptions: fromNotation(texts) };
  }
  for (const [name, text] of Object.entries(rows.inputs)) {
    const parsed = parseRow(text);
    if (parsed.error) continue;
    const events = parsed.values.map(({ frame, symbol }) => ({ kind: "next", time: frame * rows.frame, value: symbol in rows.values ? rows.values[symbol] : symbol }));
    if (parsed.end) events.push({ kind: parsed.end.kind === "|" ? "completed" : "error", time: parsed.end.frame * rows.frame });
    streams[`input:${name}`] = { events, subscriptions: [] };
  }
  return { streams, until: answer.until };
}

/**
 * The pairs of `a` and `b` (events in order) with the same kind and value, as many as can be
 * paired in order and, among those, the nearest in time: `[[i, j]]`.
 */
export function align(a, b) {
  const n = Math.min(a.length, MAX_ALIGNED);
  const m = Math.min(b.length, MAX_ALIGNED);
  // best[i][j]: [pairs, -distance] for a[i..] and b[j..], compared as a pair.
  const best = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(null).map(() => [0, 0]));
  const better = (x, y) => x[0] > y[0] || (x[0] === y[0] && x[1] > y[1]);
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      let choice = better(best[i + 1][j], best[i][j + 1]) ? best[i + 1][j] : best[i][j + 1];
      if (keyOf(a[i]) === keyOf(b[j])) {
        const paired = [best[i + 1][j + 1][0] + 1, best[i + 1][j + 1][1] - Math.abs(a[i].time - b[j].time)];
        if (better(paired, choice)) choice = paired;
      }
      best[i][j] = choice;
    }
  }
  const pairs = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (keyOf(a[i]) === keyOf(b[j])) {
      const paired = [best[i + 1][j + 1][0] + 1, best[i + 1][j + 1][1] - Math.abs(a[i].time - b[j].time)];
      if (paired[0] === best[i][j][0] && paired[1] === best[i][j][1]) {
        pairs.push([i, j]);
        i += 1;
        j += 1;
        continue;
      }
    }
    if (best[i + 1][j][0] === best[i][j][0] && best[i + 1][j][1] === best[i][j][1]) i += 1;
    else j += 1;
  }
  return pairs;
}

/**
 * One stream of two runs compared: `differsA`/`differsB` the indexes of the events to ring in
 * each (removed, added or moved), and in words what changed: `moved` `[{value, from, to}]`,
 * `removed`, `added`, `threads` `[{value, time, from, to}]`, `subscriptions` `[{index, was, is}]`
 * (began or ended at other times), `more` (how many more subscriptions `b` made).
 */
export function compareStream(a = { events: [], subscriptions: [] }, b = { events: [], subscriptions: [] }, { tolerance }) {
  const pairs = align(a.events, b.events);
  const differsA = new Set(a.events.map((_, index) => index));
  const differsB = new Set(b.events.map((_, index) => index));
  const moved = [];
  const threads = [];
  for (const [i, j] of pairs) {
    const [x, y] = [a.events[i], b.events[j]];
    if (Math.abs(x.time - y.time) > tolerance) {
      moved.push({ kind: x.kind, value: x.value, from: x.time, to: y.time });
      continue;
    }
    differsA.delete(i);
    differsB.delete(j);
    if (x.thread !== y.thread) threads.push({ kind: x.kind, value: x.value, time: y.time, from: x.thread, to: y.thread });
  }
  const paired = (index, side) => pairs.some((pair) => pair[side] === index);
  const removed = a.events.filter((_, index) => !paired(index, 0));
  const added = b.events.filter((_, index) => !paired(index, 1));
  // Subscriptions in order: each began and ended (null: still live at its run's end) at about
  // the same times, or it lived longer or shorter.
  const subscriptions = [];
  const apart = (x, y) => (x === null) !== (y === null) || (x !== null && Math.abs(x - y) > tolerance);
  const ends = (was, is) => (is.atEnd ? was.end !== null && was.end < (is.end ?? Infinity) - tolerance : apart(was.end, is.end));
  a.subscriptions.slice(0, b.subscriptions.length).forEach((was, index) => {
    const is = b.subscriptions[index];
    if (apart(was.start, is.start) || ends(was, is)) subscriptions.push({ index, was, is });
  });
  const more = b.subscriptions.length - a.subscriptions.length;
  return { differsA, differsB, moved, removed, added, threads, subscriptions, more };
}

/**
 * Two runs (`runOfRecording`, `runOfDrawing`) compared stream by stream (`streams`: name →
 * `compareStream`'s answer, for every stream either has), events within `tolerance` milliseconds
 * the same; `firstInput` the earliest input event that differs (`{stream, kind, value, from, to}`:
 * `from` null when `b` added it, `to` null when it removed it), or null when their inputs agree.
 */
export function compareRuns(a, b, { tolerance = 0 } = {}) {
  const names = [...new Set([...Object.keys(a.streams), ...Object.keys(b.streams)])];
  const streams = {};
  for (const name of names) streams[name] = compareStream(a.streams[name], b.streams[name], { tolerance });
  let firstInput = null;
  for (const name of names.filter((candidate) => candidate.startsWith("input:"))) {
    const { moved, removed, added } = streams[name];
    const candidates = [
      ...moved.map((event) => ({ ...event, at: Math.min(event.from, event.to) })),
      ...removed.map((event) => ({ kind: event.kind, value: event.value, from: event.time, to: null, at: event.time })),
      ...added.map((event) => ({ kind: event.kind, value: event.value, from: null, to: event.time, at: event.time })),
    ];
    for (const candidate of candidates) if (!firstInput || candidate.at < firstInput.at) firstInput = { stream: name.slice("input:".length), ...candidate };
  }
  const same = Object.values(streams).every((stream) => !stream.differsA.size && !stream.differsB.size && !stream.subscriptions.length && !stream.more);
  return { streams, firstInput, same };
}
