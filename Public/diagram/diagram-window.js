// The time window a session's diagram opens with, before the learner zooms: fitted to the
// pipeline's story when it has one (its `timeScale`), else to the lanes' width.
import { WINDOW_RANGE } from "./diagram-model.js";

/** Typing at 8 characters a second puts keystrokes this far apart, in milliseconds. */
const KEYSTROKE_MS = 125;
/** The room a keystroke's marble needs to stand apart with a few characters of its value, in pixels. */
const KEYSTROKE_PX = 50;
/** The narrowest window the default chooses: below it, too little happens on screen at once. */
const NARROWEST_DEFAULT_MS = 625;

/**
 * The window a diagram `width` pixels wide opens with: the widest of 10 s, 5 s, 2.5 s… in which
 * keystrokes typed at a normal speed stand apart, each a marble with its value.
 */
export function defaultWindow(width) {
  let windowMs = 10_000;
  while (windowMs / 2 >= NARROWEST_DEFAULT_MS && (KEYSTROKE_MS * width) / windowMs < KEYSTROKE_PX) windowMs /= 2;
  return windowMs;
}

/** A session's story (`timeScale`: an input through its longest chain of waits) fits this many times across. */
const STORY_WIDTHS = 4;
/**
 * The shortest story: a value typed — a word of ten keys at 8 a second — and what it does at once.
 * A pipeline that waits for nothing (binding, schedulers) still opens wide enough to show a typed
 * value beside its effect for a few seconds, instead of scrolling it away within one.
 */
const TYPED_VALUE_MS = 1250;

/**
 * The window a session opens with: for a pipeline whose story takes `timeScale` ms (at least a
 * typed value's, `TYPED_VALUE_MS`), the narrowest of 10 s, 5 s, 2.5 s… (or 20 s, 40 s…) that holds
 * it four times over, so that an input and all it caused are on screen together (search: a 0.5 s
 * throttle and a 1 s search in 10 s; binding, which waits for nothing: 5 s). The width does not
 * narrow it: keystrokes closer than a marble stack, and a click or "+" spreads them
 * (`defaultWindow` is the width's keystroke window, for that zoom).
 */
export function fittedWindow(timeScale) {
  const story = Math.max(timeScale ?? 0, TYPED_VALUE_MS);
  let windowMs = 10_000;
  while (windowMs < STORY_WIDTHS * story && windowMs < WINDOW_RANGE[1]) windowMs *= 2;
  while (windowMs / 2 >= STORY_WIDTHS * story && windowMs / 2 >= NARROWEST_DEFAULT_MS) windowMs /= 2;
  return Math.min(windowMs, WINDOW_RANGE[1]);
}

/**
 * Where following time stops: when every stream has ended (none of its subscriptions live, each
 * subscribed at least once), the time of the last event; else null, and the view follows now.
 * A finished run then stays where its events are, however far the clock goes on.
 */
export function endOfStory(rows) {
  const streams = rows.filter((row) => !row.input);
  if (!streams.length || streams.some((row) => row.live > 0 || row.subscriptions === 0)) return null;
  return Math.max(0, ...rows.map((row) => row.events.at(-1)?.t ?? 0));
}

/** Where the nearest event sits after a pan that jumped to it, as a share of the window. */
const NEAREST_AT = 0.75;

/**
 * Where a view of `windowMs` starting at `viewStart` goes when moved by `share` of its width:
 * there, unless that shows no event while some lie further on that way — then to the nearest of
 * them, so that "Earlier" after a long quiet brings the run back rather than more empty time.
 */
export function pannedStart(rows, viewStart, windowMs, share) {
  const start = Math.max(0, viewStart + share * windowMs);
  const times = rows.flatMap((row) => row.events.map((event) => event.t));
  if (times.some((t) => t >= start && t <= start + windowMs)) return start;
  const before = times.filter((t) => t < start);
  const after = times.filter((t) => t > start + windowMs);
  if (share < 0 && before.length) return Math.max(0, Math.max(...before) - NEAREST_AT * windowMs);
  if (share > 0 && after.length) return Math.max(0, Math.min(...after) - (1 - NEAREST_AT) * windowMs);
  return start;
}

