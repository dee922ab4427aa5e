// RAC's objects as they change, while the Inside panel is open on a live session: a stream of its
// own (GET …/events?inside=1, docs/API.md "Inside, as it happens") whose `inside` frames — one
// change each, with its line of narration — become lines of the event log ("RAC's objects" in its
// filter) and, for the changes a learner follows (a serial disposable's swap, a subject's
// subscriber gained or let go, a disposal of a stream's subscription), are read by screen readers.
// The playground's own probes are left out unless the panel shows them. The stream carries the
// events too (they are the session's other stream's); this one listens to the changes alone.
import { sessionPath } from "../lib/api.js";

/** Whether a change is one a screen reader says: what RAC's own objects decide, not bookkeeping. */
const SAID = /switchToLatest|swapped|gains a subscriber|subscribers? left|\(\S+ · subscription \d+\) is disposed/;

export class InsideFeed {
  /** `log`: the session's EventLog; `announcer`: the live region; `probes`: the panel's switch. */
  constructor({ log, announcer, probes }) {
    Object.assign(this, { log, announcer, probes });
    this.source = null;
    this.said = [];
    this.timer = null;
  }

  /** Follows the changes of live session `sessionID` from now on; null stops. */
  follow(sessionID) {
    if (sessionID === this.sessionID && this.source) return;
    this.source?.close();
    this.source = null;
    this.sessionID = sessionID;
    this.log.showInside(Boolean(sessionID));
    if (!sessionID) return;
    // No `since`: the events' snapshot comes first (ignored here), then the changes from now on.
    const source = new EventSource(`${sessionPath(sessionID, null, "/events")}?inside=1`);
    source.addEventListener("inside", (message) => this.change(JSON.parse(message.data)));
    source.addEventListener("end", () => source.close());
    this.source = source;
  }

  change(change) {
    if (!this.probes.checked && change.narration.includes("the playground's probe")) return;
    this.log.note(change);
    if (!SAID.test(change.narration)) return;
    // Said together once they stop coming for a moment: one run of work is one sentence or a few.
    this.said.push(change.narration);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.announcer.textContent = `Inside: ${this.said.slice(-3).join(" ")}`;
      this.said = [];
    }, 250);
  }
}
