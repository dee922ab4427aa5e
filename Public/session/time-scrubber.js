// The time scrubber under the session's controls: drag back across the session's time, or step
// one event back and forth with the arrow keys; the diagram, its row labels and the event log show
// that instant (diagram-instant.js); "Back to live" (or End) returns. A replay's "live" is its end.
import { html } from "../lib/dom.js";
import { describe, seconds } from "../lib/format.js";

/** Where the last event at or before `t` is in `events` (in seq order), or -1. */
function lastAtOrBefore(events, t) {
  let low = 0;
  let high = events.length - 1;
  let found = -1;
  // Times follow seq order (a session stamps both under one lock), so a binary search holds.
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (events[middle].t <= t) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

export class TimeScrubber {
  /**
   * Builds the scrubber after `after` (under the diagram, as a player's under its picture); `events()` are the session's events in order, `start()`
   * the time of the first the page keeps (the range starts there), `onInstant(instant)` receives
   * `{t, seq}` or null (live).
   */
  constructor(after, { events, start, onInstant }) {
    this.events = events;
    this.start = start;
    this.onInstant = onInstant;
    this.root = html("div", "scrubber");
    this.root.setAttribute("role", "group");
    this.root.setAttribute("aria-label", "Time scrubber");
    const label = html("label", undefined, "Time");
    label.htmlFor = "scrub";
    this.range = html("input");
    Object.assign(this.range, { type: "range", id: "scrub", min: 0, max: 0, step: 1, value: 0 });
    this.range.setAttribute("aria-describedby", "scrub-reading");
    this.reading = html("output", "scrub-reading", "live");
    this.reading.id = "scrub-reading";
    this.live = html("button", "secondary", "Back to live");
    this.live.type = "button";
    this.live.id = "scrub-live";
    this.live.disabled = true;
    this.root.append(label, this.range, this.reading, this.live);
    after.after(this.root);
    this.index = null; // the event shown last, while scrubbed
    this.range.addEventListener("input", () => this.toTime(Number(this.range.value)));
    this.range.addEventListener("keydown", (event) => this.key(event));
    this.live.addEventListener("click", () => this.backToLive());
  }

  get scrubbed() {
    return this.index !== null;
  }

  /** The session's time moved on: the range reaches it; while live, the thumb follows it. */
  tick(now) {
    const max = Math.max(0, Math.ceil(now));
    const min = Math.min(max, Math.floor(this.start()));
    if (Number(this.range.min) !== min) this.range.min = min;
    if (Number(this.range.max) !== max) this.range.max = max;
    if (!this.scrubbed && Number(this.range.value) !== max) this.range.value = max;
  }

  /** Live again (a new session, or "Back to live"). */
  backToLive() {
    const wasScrubbed = this.scrubbed;
    this.index = null;
    this.range.value = this.range.max;
    this.reading.textContent = "live";
    this.range.setAttribute("aria-valuetext", "live");
    this.live.disabled = true;
    if (wasScrubbed) this.onInstant(null);
  }

  /** The instant `t` of a drag: every event up to it. At the range's end, live again. */
  toTime(t) {
    if (t >= Number(this.range.max)) {
      this.backToLive();
      return;
    }
    this.show(lastAtOrBefore(this.events(), t), t);
  }

  /** Arrows step one event (Shift: ten); Home and End go to the start and to live. */
  key(event) {
    const steps = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 }[event.key];
    if (event.key === "End") {
      event.preventDefault();
      this.backToLive();
      return;
    }
    if (!steps) return;
    event.preventDefault();
    const events = this.events();
    const from = this.index ?? events.length - 1;
    const to = from + steps * (event.shiftKey ? 10 : 1);
    if (to >= events.length - 1 && steps > 0) {
      this.backToLive();
      return;
    }
    const index = Math.max(-1, Math.min(events.length - 1, to));
    this.show(index, index < 0 ? 0 : events[index].t);
  }

  /** Shows the instant after `events[index]` (-1: before the first), drawn up to `t`. */
  show(index, t) {
    const events = this.events();
    this.index = index;
    const event = events[index];
    this.range.value = t;
    const what = event ? `after #${event.seq} ${event.stream} ${event.kind}${"value" in event ? ` ${describe(event.value, 40)}` : ""}` : "before the first event";
    this.reading.textContent = `${seconds(t)} · ${what}`;
    this.range.setAttribute("aria-valuetext", `${seconds(t)}, ${what}`);
    this.live.disabled = false;
    this.onInstant({ t, seq: event?.seq ?? 0 });
  }
}
