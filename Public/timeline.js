// A marble timeline for one stream: values as labelled marbles at the time they happened, errors
// as ×, completion as a bar, scrolling with time. Labels are laid out in lanes so that no two
// overlap; a label that fits in no lane is hidden (its value stays in the marble's tooltip, the
// stream's latest value and the event log).

const LANES = 3;
const LANE_HEIGHT = 24;
const LABEL_GAP = 8;
const MAX_MARBLES = 300;
/** Where "now" sits, as a share of the width: the rest leaves room for the newest labels. */
const NOW_AT = 0.75;

/** A short, single-line text for a value. */
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
  } else {
    text = JSON.stringify(value);
  }
  return text.length > limit ? text.slice(0, limit - 1) + "…" : text;
}

export class Timeline {
  constructor(container, windowMs) {
    this.container = container;
    this.windowMs = windowMs;
    this.marbles = [];
    this.track = document.createElement("div");
    this.track.className = "track";
    container.appendChild(this.track);
    this.width = container.clientWidth || 300;
  }

  get pxPerMs() {
    return (this.width * NOW_AT) / this.windowMs;
  }

  add(event) {
    const marble = document.createElement("span");
    marble.className = `marble marble-${event.kind}`;
    const symbol = document.createElement("span");
    symbol.className = "symbol";
    symbol.textContent = event.kind === "error" ? "×" : "";
    marble.appendChild(symbol);
    const label = document.createElement("span");
    label.className = "marble-label";
    label.textContent = event.kind === "next" ? describe(event.value)
      : event.kind === "error" ? `error ${describe(event.value?.code ?? "")}` : "completed";
    marble.title = `${label.textContent} at ${event.t} ms`;
    marble.appendChild(label);
    this.track.appendChild(marble);
    this.marbles.push({ t: event.t, element: marble, label, labelWidth: label.offsetWidth });
    if (this.marbles.length > MAX_MARBLES) this.marbles.shift().element.remove();
    this.layout();
  }

  /**
   * Positions every marble and gives labels lanes, newest first, so the latest values keep their
   * labels: a label takes the first lane where it ends before the next label already placed there.
   */
  layout() {
    const laneStarts = new Array(LANES).fill(Infinity);
    for (let index = this.marbles.length - 1; index >= 0; index -= 1) {
      const entry = this.marbles[index];
      const x = entry.t * this.pxPerMs;
      entry.element.style.left = `${x}px`;
      const end = x + entry.labelWidth + 14;
      const lane = laneStarts.findIndex((start) => end + LABEL_GAP <= start);
      if (lane < 0) {
        entry.label.classList.add("hidden-label");
        entry.element.style.top = "0px";
        continue;
      }
      entry.label.classList.remove("hidden-label");
      entry.element.style.top = `${lane * LANE_HEIGHT}px`;
      laneStarts[lane] = x - 6;
    }
  }

  /** Lays every marble out again, after a change of zoom or width. */
  relayout() {
    this.width = this.container.clientWidth || this.width;
    this.layout();
  }

  setWindow(windowMs) {
    this.windowMs = windowMs;
    this.relayout();
  }

  /** Scrolls so that `nowMs` (session time) sits at the NOW_AT mark. */
  render(nowMs) {
    const offset = this.width * NOW_AT - nowMs * this.pxPerMs;
    this.track.style.transform = `translateX(${offset}px)`;
  }

  clear() {
    for (const entry of this.marbles) entry.element.remove();
    this.marbles = [];
  }
}
