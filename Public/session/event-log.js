// The event log under the diagram: every event as a line, newest first, filtered by stream.
import { html } from "../lib/dom.js";
import { describe } from "../lib/format.js";

/** Lines kept; the oldest go first. */
const MAX_LOG = 200;

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
    const chosen = this.filter.value;
    this.filter.replaceChildren(html("option", undefined, "every stream"));
    this.filter.firstChild.value = "";
    for (const name of streams) {
      const option = html("option", undefined, name);
      option.value = name;
      this.filter.appendChild(option);
    }
    this.filter.value = streams.includes(chosen) ? chosen : "";
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
    const item = html("li", "log-entry");
    item.dataset.stream = event.stream;
    const value = "value" in event ? ` ${describe(event.value, 400)}` : "";
    const subscription = event.sub === undefined ? "" : ` (subscription ${event.sub})`;
    item.textContent = `#${event.seq} · ${event.t} ms · ${event.stream} ${event.kind}${value}${subscription}`;
    item.hidden = Boolean(this.filter.value) && this.filter.value !== event.stream;
    this.list.prepend(item);
    while (this.list.children.length > MAX_LOG) this.list.lastElementChild.remove();
  }
}
