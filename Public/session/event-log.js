// The event log under the diagram: every event as a line, newest first, filtered by stream; while
// the Inside panel is open, each change of RAC's objects too, in its words (inside-feed.js).
import { html } from "../lib/dom.js";
import { describe } from "../lib/format.js";

/** Lines kept; the oldest go first. */
const MAX_LOG = 200;
/** The filter's value for the changes of RAC's objects: no stream is named so (names are words). */
const INSIDE = "(inside)";

export class EventLog {
  /** `list` receives the lines; `filter` is the select that shows one stream's lines only. */
  constructor(list, filter) {
    this.list = list;
    this.filter = filter;
    filter.addEventListener("change", () => {
      for (const item of list.children) item.hidden = Boolean(filter.value) && item.dataset.stream !== filter.value;
    });
  }

  /** Starts again with no lines, offering `streams` in the filter. */
  reset(streams) {
    this.instant = null;
    this.list.replaceChildren();
    this.setStreams(streams);
  }

  /** The streams the filter offers (after a chain's stages are shown or hidden). */
  setStreams(streams) {
    this.streams = streams;
    const chosen = this.filter.value;
    this.filter.replaceChildren(html("option", undefined, "every stream"));
    this.filter.firstChild.value = "";
    const choices = [...streams.map((name) => [name, name]), ...(this.inside ? [[INSIDE, "RAC's objects (Inside)"]] : [])];
    for (const [value, text] of choices) {
      const option = html("option", undefined, text);
      option.value = value;
      this.filter.appendChild(option);
    }
    this.filter.value = choices.some(([value]) => value === chosen) ? chosen : "";
  }

  /** Whether the changes of RAC's objects come as lines too (the Inside panel is open). */
  showInside(shown) {
    this.inside = shown;
    this.setStreams(this.streams ?? []);
  }

  /** Adds a change of RAC's objects (`{n, t, narration}`, an `inside` frame) as the newest line. */
  note(change) {
    if (this.instant !== null && this.instant !== undefined) return;
    this.prepend(INSIDE, `${change.t} ms · RAC · ${change.narration}`);
  }

  /**
   * Shows the lines of `events` (in order) up to `seq`, newest first: the log at the scrubber's
   * instant; `seq` null shows the newest again, and new events are added as they come.
   */
  showAt(events, seq) {
    this.instant = seq;
    this.list.replaceChildren();
    let end = events.length;
    if (seq !== null) while (end > 0 && events[end - 1].seq > seq) end -= 1;
    for (const event of events.slice(Math.max(0, end - MAX_LOG), end)) this.line(event);
  }

  /** Adds `event` (`{seq, t, stream, kind, value, sub}`) as the newest line (not while scrubbed). */
  add(event) {
    if (this.instant !== null && this.instant !== undefined) return;
    this.line(event);
  }

  line(event) {
    const value = "value" in event ? ` ${describe(event.value, 400)}` : "";
    const subscription = event.sub === undefined ? "" : ` (subscription ${event.sub})`;
    this.prepend(event.stream, `#${event.seq} · ${event.t} ms · ${event.stream} ${event.kind}${value}${subscription}`);
  }

  prepend(stream, text) {
    const item = html("li", stream === INSIDE ? "log-entry log-inside" : "log-entry");
    item.dataset.stream = stream;
    item.textContent = text;
    item.hidden = Boolean(this.filter.value) && this.filter.value !== stream;
    this.list.prepend(item);
    while (this.list.children.length > MAX_LOG) this.list.lastElementChild.remove();
  }
}
