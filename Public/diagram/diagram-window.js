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
 * The window a session opens with: for a pipeline whose story takes `timeScale` ms, the narrowest
 * of 10 s, 5 s, 2.5 s… (or 20 s, 40 s…) that holds it four times over, so that an input and all it
 * caused are on screen together (search: a 0.5 s throttle and a 1 s search in 10 s); without one,
 * the width's `defaultWindow`.
 */
export function fittedWindow(timeScale, width) {
  if (!timeScale) return defaultWindow(width);
  let windowMs = 10_000;
  while (windowMs < STORY_WIDTHS * timeScale && windowMs < WINDOW_RANGE[1]) windowMs *= 2;
  while (windowMs / 2 >= STORY_WIDTHS * timeScale && windowMs / 2 >= NARROWEST_DEFAULT_MS) windowMs /= 2;
  return Math.min(windowMs, WINDOW_RANGE[1]);
}
