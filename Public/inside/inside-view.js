// The Inside view of a session or kept run: the panel of its RAC objects (inside-panel.js), its
// breakpoints (inside-breakpoints.js) and its changes as they happen (inside-feed.js), over the
// markup in session/session-markup.js. The session's view gives it what it needs of the rest: the
// events' lanes, the diagram to light, the clock to stop, the scrubber to move, the event log.
import { InsideBreakpoints } from "./inside-breakpoints.js";
import { InsideFeed } from "./inside-feed.js";
import { InsidePanel } from "./inside-panel.js";
import { byId } from "../lib/dom.js";

export class InsideView {
  /**
   * `lanes` and `onLight` go to the panel; `clock`, `scrubTo` and `instant` to the breakpoints;
   * `log`, the event log, takes the changes while the panel is open.
   */
  constructor({ lanes, onLight, clock, scrubTo, instant, log }) {
    this.feed = new InsideFeed({ log, announcer: byId("announcer"), probes: byId("inside-probes") });
    this.breakpoints = new InsideBreakpoints({
      fieldset: byId("inside-breaks"), choice: byId("inside-break-choice"), add: byId("inside-break-add"), next: byId("inside-break-next"),
      list: byId("inside-break-list"), status: byId("inside-break-status"), clock, scrubTo, instant,
    });
    this.panel = new InsidePanel({
      toggle: byId("inside-toggle"), body: byId("inside-body"), summary: byId("inside-summary"), trees: byId("inside-trees"),
      gone: byId("inside-gone"), narration: byId("inside-narration"), note: byId("inside-note"), probes: byId("inside-probes"),
      selection: byId("inside-selection"), lanes, onLight, onGraph: (graph) => this.breakpoints.offer(graph),
      onOpen: (sessionID) => this.feed.follow(sessionID),
    });
  }

  /** A new session (a room's shows nobody its objects yet) or kept run (`replay`). */
  show({ sessionID, room, replay, virtual }) {
    this.panel.show({ sessionID, room, replay });
    this.breakpoints.show({ sessionID: room ? null : sessionID, virtual, replay });
  }

  hide() {
    this.panel.hide();
  }

  setInstant(t) {
    this.panel.setInstant(t);
  }

  /** A glyph's subscription pointed at on the diagram. */
  select(target) {
    this.panel.select(target);
  }

  /** The session's stream said its clock stopped at a breakpoint. */
  stopped(hit) {
    this.breakpoints.stopped(hit);
  }
}
