// How values read on the page: short text, a stable colour per value, times in seconds.

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

/** The colour of a value: the same value has the same colour in every stage (FNV-1a of its JSON). */
export function colour(value) {
  const text = JSON.stringify(value ?? null);
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return PALETTE[hash % PALETTE.length];
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
