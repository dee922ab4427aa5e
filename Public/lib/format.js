// How values read on the page: short text, colours (by root cause in a session's diagram, by value
// in the gallery), times in seconds.

/**
 * A value as short text: strings as they are; an object as its `value` field first, then
 * `key: value` pairs, joined with " · "; anything else as JSON. Cut to `limit` characters.
 */
export function describe(value, limit = 28) {
  let text;
  if (typeof value === "string") {
    text = value;
  } else if (value && typeof value === "object" && !Array.isArray(value)) {
    const show = (item) => (typeof item === "string" ? item : JSON.stringify(item));
    const rest = Object.entries(value).filter(([key]) => key !== "value").map(([key, item]) => `${key}: ${show(item)}`);
    text = ("value" in value ? [show(value.value), ...rest] : rest).join(" · ");
  } else if (value === null || value === undefined) {
    text = "•";
  } else {
    text = JSON.stringify(value);
  }
  return text.length > limit ? text.slice(0, limit - 1) + "…" : text;
}

/**
 * Marble colours: each takes white text at 4.5:1 or more and stands out from the white lane at
 * 3:1 or more. Red is left to errors.
 */
const PALETTE = ["#0b5cad", "#1a7f37", "#8250df", "#9a3412", "#0e7490", "#a21caf", "#4d7c0f", "#b45309",
  "#334155", "#be185d"];

/** FNV-1a of a value's JSON: the same value, the same number. */
function hashOf(value) {
  const text = JSON.stringify(value ?? null);
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The colour of a value: the same value has the same colour in every row (the gallery's rule). */
export function colour(value) {
  return PALETTE[hashOf(value) % PALETTE.length];
}

/**
 * The colours input events take in turn, neighbours far apart in hue or lightness. Each takes white
 * text at 4.5:1 or more; red is left to errors and grey to events no input caused.
 */
export const CAUSE_PALETTE = ["#0b5cad", "#b45309", "#1a7f37", "#a21caf", "#0e7490", "#9f1239", "#4d7c0f",
  "#6d28d9", "#854d0e", "#0f766e", "#be185d", "#4338ca"];
/** Greys for events that no input caused (a ticker's timer), by value. */
const NEUTRAL_PALETTE = ["#52525b", "#3f3f46", "#71717a"];
/** Input events whose colour is remembered; older ones fall back to a colour from their number. */
const REMEMBERED = 4096;

/**
 * Colours by cause: every input event takes the next colour of `CAUSE_PALETTE` in turn, so any 12
 * input events in a row have 12 different colours, and every event takes the colour of the input
 * event at its root (`causes[0]`), whatever each stage turned its value into. An event with no
 * cause takes a grey by its value.
 */
export class CauseColours {
  constructor() {
    this.byInput = new Map();
    this.taken = 0;
  }

  /** Gives input event `seq` its colour (again: the same one). */
  assign(seq) {
    if (this.byInput.has(seq)) return;
    this.byInput.set(seq, CAUSE_PALETTE[this.taken % CAUSE_PALETTE.length]);
    this.taken += 1;
    if (this.byInput.size > REMEMBERED) this.byInput.delete(this.byInput.keys().next().value);
  }

  /** The colour of `event` (`{causes, value}`). */
  of(event) {
    const root = event.causes?.[0];
    if (root === undefined) return NEUTRAL_PALETTE[hashOf(event.value) % NEUTRAL_PALETTE.length];
    return this.byInput.get(root) ?? CAUSE_PALETTE[root % CAUSE_PALETTE.length];
  }
}

/** Milliseconds as the axis and the marbles say them: "0.35 s", "12 s", "2 min 5 s". */
export function seconds(milliseconds) {
  if (milliseconds >= 120_000) {
    const minutes = Math.floor(milliseconds / 60_000);
    return `${minutes} min ${Math.round((milliseconds - minutes * 60_000) / 1000)} s`;
  }
  const value = milliseconds / 1000;
  const digits = Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return `${Number(value.toFixed(digits))} s`;
}
