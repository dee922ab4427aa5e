// The session view: one running session of a scenario (or of the learner's program) — its inputs,
// its marble diagram fed live by the session's SSE stream, the source beside it, the virtual
// clock's controls and the event log. It owns all of this state; nothing outside reads it.
import { roomAddress, sessionInfo, sessionPath } from "../lib/api.js";
import { byId } from "../lib/dom.js";
import { comparisonsIn } from "../editor/compare-lines.js";
import { Diagram, WINDOW_RANGE } from "../diagram/diagram.js";
import { downloadPNG, downloadSVG } from "../diagram/diagram-export.js";
import { lightSubscription } from "../diagram/diagram-subscription.js";
import { encodeProgram } from "../editor/editor.js";
import { CauseColours, describe, seconds } from "../lib/format.js";
import { explainSessionError, notice } from "../lib/notice.js";
import { RoomStream, goneWords } from "../rooms/room-stream.js";
import { diagramRows, resultStreams } from "./diagram-rows.js";
import { EventLog } from "./event-log.js";
import { renderInputs } from "./session-inputs.js";
import { RunActions } from "./run-actions.js";
import { RunRows } from "./run-rows.js";
import { renderSource } from "./source-panel.js";
import { TimeScrubber } from "./time-scrubber.js";
import { VirtualClock } from "./virtual-clock.js";
import { InsideView } from "../inside/inside-view.js";

/** Events kept to redraw the diagram when a chain's stages are shown or hidden. */
const MAX_KEPT_EVENTS = 5000;
/** The errors with which the server stops a program at a limit (docs/PIPELINES.md, "Limits"). */
const HALTS = new Set(["budget_exceeded", "value_too_large", "too_many_subscriptions"]);
/** The least time between two announcements of one result stream, in milliseconds. */
const ANNOUNCE_EVERY_MS = 500;

/** A program's session as the page shows a scenario: its summary, its text as the source. */
export function programScenario(summary, text) {
  return {
    id: "pipeline", title: "Your pipeline", program: text,
    description: "Your program, running on the server: every named line a stream, every operator of a chain a stage.",
    inputs: summary.inputs, streams: summary.streams, source: { path: "your program", swift: text }, timeScale: summary.timeScale,
  };
}

export class SessionView {
  constructor() {
    this.section = byId("scenario");
    this.diagram = null;
    this.source = null; // the session's EventSource
    this.scenario = null;
    this.expanded = new Set(); // named streams of a program whose chain's stages are shown
    this.windowMs = null; // the learner's zoom, kept from session to session (null: the default)
    this.frame = null;
    this.log = new EventLog(byId("log"), byId("log-filter"));
    this.clock = new VirtualClock({
      bar: byId("clock"), reading: byId("virtual-time"), play: byId("play"), speed: byId("speed"),
      steps: [[byId("advance-100"), 100], [byId("advance-500"), 500]],
    });
    this.instant = null; // the scrubber's instant, {t, seq}; null: live
    this.scrubber = new TimeScrubber(byId("diagram"), {
      events: () => this.events.filter((event) => this.streamNames.has(event.stream)),
      start: () => this.events[0]?.t ?? 0, // the page keeps the newest 5,000 events
      onInstant: (instant) => this.showInstant(instant),
    });
    this.runRows = new RunRows(byId("run-actions")); // the panel its buttons open, right under them
    this.runActions = new RunActions(this.runRows);
    this.inside = new InsideView({
      lanes: this.laneEnds(), onLight: (target) => this.diagram && lightSubscription(this.diagram, target),
      clock: this.clock, scrubTo: (t) => this.scrubber.toTime(t), instant: () => this.instant?.t ?? null, log: this.log,
    });
    this.wireViewControls();
    byId("scenario-title").tabIndex = -1;
  }

  /** What the Inside panel asks of the events shown: when a subscription's `!` came, and the last event's time. */
  laneEnds() {
    return {
      ended: (stream, sub, t) => this.events.some((event) => event.kind === "disposed" && event.stream === stream && String(event.sub) === String(sub) && event.t <= t),
      end: () => this.events.at(-1)?.t ?? 0,
    };
  }

  /** The time axis's controls and the source toggle act on whichever diagram is shown. */
  wireViewControls() {
    byId("follow").addEventListener("change", (event) => {
      if (event.target.checked) this.scrubber.backToLive();
      this.diagram?.setFollow(event.target.checked);
    });
    byId("show-threads").addEventListener("change", (event) => this.diagram?.setThreads(event.target.checked));
    byId("export-svg").addEventListener("click", () => this.diagram && downloadSVG(this.diagram, this.exportTitle, this.exportName));
    byId("export-png").addEventListener("click", () => this.diagram && downloadPNG(this.diagram, this.exportTitle, this.exportName)
      .catch(() => notice("The PNG could not be made in this browser; the SVG can.")));
    byId("zoom-in").addEventListener("click", () => this.diagram?.setWindow(this.diagram.windowMs / 2));
    byId("zoom-out").addEventListener("click", () => this.diagram?.setWindow(this.diagram.windowMs * 2));
    byId("earlier").addEventListener("click", () => this.diagram?.pan(-0.5));
    byId("later").addEventListener("click", () => this.diagram?.pan(0.5));
    byId("toggle-source").addEventListener("click", (event) => {
      const shown = event.target.getAttribute("aria-expanded") !== "true";
      event.target.setAttribute("aria-expanded", String(shown));
      event.target.textContent = shown ? "Hide source" : "Show source";
      byId("source-panel").hidden = !shown;
      byId("pipeline-layout").classList.toggle("source-hidden", !shown);
      this.diagram?.relayout();
    });
    window.addEventListener("resize", () => this.diagram?.relayout());
  }

  /**
   * Shows session `sessionID` of `scenario` on a `clock` ("real" or "virtual"), connected live; a
   * room's (`room`: `{id, key, role}`) is driven by its teacher alone. With `replay` (a run kept by
   * a link: `{id, title, events, lost, …}`) it shows the recorded events instead, read-only. A
   * room's session is reached through the room (its paths, its key), never by its own id.
   */
  mount({ scenario, sessionID, clock = "real", focus = false, room = null, replay = null }) {
    this.section.hidden = false;
    this.replay = replay;
    this.room = replay ? null : room;
    this.renderHead(scenario, sessionID ?? replay?.id, clock);
    this.runRows.close();
    if (replay) byId("scenario-title").textContent = replay.title;
    // A room's session is shared by the room's code, and driven by its teacher alone; a replay is
    // shared by its own link, and is turned into marbles and compared as a live run is.
    byId("session-share").hidden = Boolean(room || replay);
    this.runActions.show({ scenario, sessionID, room, replay });
    this.inside.show({ sessionID, room: this.room, replay, virtual: clock === "virtual" });
    if (room || replay) byId("program-share").hidden = true;
    this.events = []; // every event shown, so the diagram can be drawn again with other rows
    this.seed = null; // the session's subscription counts when this page joined
    this.colours = new CauseColours();
    this.diagram = null;
    if (this.scenario !== scenario) this.expanded.clear();
    this.scenario = scenario;
    this.sessionID = sessionID ?? replay?.id;
    this.clockOffset = Infinity;
    this.announceAt = new Map();
    this.instant = null;
    this.scrubber.backToLive();
    notice(null);
    this.boundFields = renderInputs(byId("inputs"), scenario, sessionID, replay ? { role: "student" } : room);
    this.renderDiagram();
    renderSource({ path: byId("source-path"), code: byId("source-code"), choice: byId("source-choice") }, scenario);
    this.clock.start(sessionID, clock === "virtual" && !replay, room);
    if (replay) this.play(replay);
    else this.connect();
    if (this.frame === null) this.animate();
    if (focus) byId("scenario-title").focus();
  }

  /** Disconnects and hides the view. */
  unmount() {
    this.source?.close();
    this.source = null;
    this.clock.stop();
    this.inside.hide();
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    this.frame = null;
    this.section.hidden = true;
  }

  renderHead(scenario, sessionID, clock) {
    byId("scenario-title").textContent = scenario.title;
    // The first sentence, then the rest on request: the diagram stays in view.
    const [summary, ...rest] = scenario.description.split(/(?<=\.) /);
    byId("scenario-summary").textContent = summary;
    byId("scenario-description").textContent = rest.join(" ") || summary;
    const link = byId("session-link");
    link.href = `#session=${sessionID}`;
    link.textContent = `${location.origin}/#session=${sessionID}`;
    byId("marbles-link").href = this.room ? roomAddress(this.room, "/session/marbles") : sessionPath(sessionID, null, "/marbles");
    byId("edit-offer").hidden = !scenario.pipeline;
    byId("step-offer").hidden = clock === "virtual" || Boolean(scenario.program); // a program picks its clock in the editor
    byId("step-link").href = `#step=${scenario.id}`;
    byId("edit-link").href = `#edit=${scenario.id}`;
    byId("program-share").hidden = !scenario.program;
    if (scenario.program) {
      const share = `${location.origin}/#program=${encodeProgram(scenario.program)}`;
      byId("program-link").href = share;
      byId("program-link").textContent = share.length > 90 ? `${share.slice(0, 87)}…` : share;
    }
  }

  /** What an exported diagram is called: the scenario's title and the session. */
  get exportTitle() {
    return `${this.scenario.title} — Reactive Playground session ${this.sessionID}`;
  }

  get exportName() {
    return `${this.scenario.id}-${this.sessionID.slice(-8)}`;
  }

  renderDiagram() {
    const rows = diagramRows(this.scenario, this.expanded);
    const previous = this.diagram;
    const diagram = new Diagram(byId("diagram"), rows, {
      detail: byId("marble-detail"), windowMs: this.windowMs, timeScale: this.scenario.timeScale, colours: this.colours, onViewChange: () => this.showView(),
      onExpand: (name) => this.toggleStages(name), onPoint: (target) => this.inside.select(target), threads: byId("show-threads").checked,
      compared: comparisonsIn(this.scenario.program),
    });
    if (previous) diagram.follow = previous.follow;
    this.diagram = diagram;
    this.streamNames = new Set(rows.flatMap((row) => [row.name, ...(row.sources ?? [])]));
    if (previous) this.log.setStreams(rows.map((row) => row.name));
    else this.log.reset(rows.map((row) => row.name));
    this.results = resultStreams(this.scenario);
    diagram.batched(() => {
      for (const event of this.events) diagram.add(event);
    });
    if (this.seed) diagram.seedSubscriptions(this.seed.subscriptions ?? {}, this.seed.subscriptionsCountedTo ?? 0);
    if (this.instant) diagram.setInstant(this.instant);
    this.showView();
  }

  /**
   * The scrubber moved: the diagram and the event log show the session at `instant` (`{t, seq}`),
   * or live again (null). The log is written again once a frame at most.
   */
  showInstant(instant) {
    this.instant = instant;
    this.diagram?.setInstant(instant);
    this.inside.setInstant(instant ? instant.t : null);
    if (!instant) this.diagram?.setFollow(true);
    if (this.logFrame) return;
    this.logFrame = requestAnimationFrame(() => {
      this.logFrame = null;
      this.log.showAt(this.events.filter((event) => this.streamNames.has(event.stream)), this.instant?.seq ?? null);
    });
  }

  /** Shows or hides the stages of a program line's chain: the diagram is drawn again from the events kept. */
  toggleStages(name) {
    if (this.expanded.has(name)) this.expanded.delete(name);
    else this.expanded.add(name);
    this.renderDiagram();
    this.diagram.rows.find((row) => row.name === name)?.label.querySelector(".expander")?.focus();
  }

  /** The view controls say what the diagram shows: following time or not, and its window. */
  showView() {
    const diagram = this.diagram;
    if (!diagram) return;
    byId("follow").checked = diagram.follow;
    byId("window-size").textContent = seconds(diagram.windowMs);
    if (diagram.zoomed) this.windowMs = diagram.windowMs;
    byId("zoom-in").disabled = diagram.windowMs <= WINDOW_RANGE[0];
    byId("zoom-out").disabled = diagram.windowMs >= WINDOW_RANGE[1];
  }

  /** Says a result stream's new value to screen readers, at most every half second per stream. */
  announce(event) {
    if (!this.results.has(event.stream) || event.kind !== "next") return;
    const now = performance.now();
    if (now - (this.announceAt.get(event.stream) ?? 0) < ANNOUNCE_EVERY_MS) return;
    this.announceAt.set(event.stream, now);
    byId("announcer").textContent = `${event.stream}: ${describe(event.value, 120)}`;
  }

  receive(event) {
    this.events.push(event);
    if (this.events.length > MAX_KEPT_EVENTS) this.events.splice(0, this.events.length - MAX_KEPT_EVENTS);
    if (!this.streamNames.has(event.stream)) return;
    this.clockOffset = Math.min(this.clockOffset, performance.now() - event.t);
    this.clock.saw(event.t);
    if (event.kind === "subscribed" || event.kind === "disposed") {
      this.diagram.add(event); // a lane's start and end, counted beside the row's name
      this.log.add(event);
      return;
    }
    this.diagram.add(event);
    this.boundFields.get(event.stream)?.received(event);
    this.log.add(event);
    this.announce(event);
  }

  /** Shows a kept run's events, as they were recorded; its time stands at its last event. */
  play(replay) {
    this.source?.close();
    this.source = null;
    const lost = replay.lost ? ` (${replay.lost} earlier events were not kept)` : "";
    // A program halted by its limits: everything it did is here, and where it stopped is said.
    const halt = replay.events.find((event) => event.kind === "error" && HALTS.has(event.value?.code));
    const stopped = halt ? `; the program was stopped at ${halt.t} ms on ${halt.stream}: ${halt.value.message}` : "";
    this.setConnection(`Replay: ${replay.events.length} events${lost}${stopped}`, "replay");
    this.diagram.batched(() => {
      for (const event of replay.events) this.receive(event);
    });
    this.replayNow = replay.events.at(-1)?.t ?? 0;
  }

  /** The session's time now: the virtual clock's reading, or the wall clock since the first event. */
  sessionNow() {
    if (this.replay) return this.replayNow ?? 0;
    if (this.clock.virtual) return this.clock.time;
    return this.clockOffset === Infinity ? 0 : performance.now() - this.clockOffset;
  }

  animate() {
    const now = this.sessionNow();
    this.scrubber.tick(now);
    this.diagram?.render(now);
    this.frame = requestAnimationFrame(() => this.animate());
  }

  setConnection(text, state) {
    byId("connection").textContent = text;
    byId("connection").dataset.state = state;
  }

  /** Opens the session's event stream; every named stream's events go to `receive`. */
  connect() {
    this.source?.close();
    const { scenario } = this;
    this.setConnection("Connecting…", "connecting");
    const source = this.room ? this.roomStream() : this.sessionStream();
    this.source = source;
    const names = [...scenario.inputs.map((input) => `input:${input.name}`),
      ...scenario.streams.flatMap((stream) => [stream.name, ...(stream.sources ?? [])])];
    for (const name of names) source.addEventListener(name, (message) => this.receive(JSON.parse(message.data)));
    // The server is shutting down or being replaced: the session is gone for good, so no reconnect.
    source.addEventListener("end", (message) => {
      source.close();
      this.source = null;
      this.setConnection("Ended", "disconnected");
      const { reason } = JSON.parse(message.data);
      notice(reason === "draining"
        ? "This session ended because its server was replaced — start a new one (pick a scenario, or reload)."
        : "This session has ended. Pick a scenario to start a new one.");
    });
    source.addEventListener("breakpoint", (message) => this.inside.stopped(JSON.parse(message.data)));
    source.addEventListener("reset", () => {
      this.scrubber.backToLive();
      this.events = [];
      this.diagram.clear();
      this.log.add({ seq: "–", t: "–", stream: "reset", kind: "(some events were missed; showing the current state)" });
    });
  }

  /**
   * The stream was opened: the subscriptions made before this page joined, counted by the server
   * up to an event, seed the diagram's counts.
   */
  async joined(source) {
    this.setConnection("Live", "live");
    notice(null);
    try {
      const info = await sessionInfo(this.sessionID, this.room);
      if (this.source !== source) return;
      this.seed = info;
      this.diagram?.seedSubscriptions(info.subscriptions ?? {}, info.subscriptionsCountedTo ?? 0);
    } catch {
      // the stream's own errors say what went wrong
    }
  }

  /** A session's own stream, from the first event the server still has: the lanes start with their subscriptions. */
  sessionStream() {
    const { sessionID } = this;
    const source = new EventSource(`${sessionPath(sessionID, null, "/events")}?since=0`);
    source.onopen = () => this.joined(source);
    source.onerror = async () => {
      if (source.readyState === EventSource.CONNECTING) {
        this.setConnection("Reconnecting… (the page resumes from the last event it saw)", "reconnecting");
        return;
      }
      this.setConnection("Disconnected", "disconnected");
      try {
        await sessionInfo(sessionID);
        notice("The event stream was refused; the server may be busy. Reload to try again.");
      } catch (error) {
        notice(explainSessionError(error));
      }
    };
    return source;
  }

  /**
   * A room's session's stream, through the room (its cookie): opened again from the last event
   * seen when it is closed — the cookie expired — until the room's key opens it no more.
   */
  roomStream() {
    const stream = new RoomStream(this.room, (last) => roomAddress(this.room, "/session/events", { since: last ?? 0 }), (state, detail) => {
      if (this.source !== stream) return;
      if (state === "live") {
        this.joined(stream);
      } else if (state === "reconnecting") {
        const when = detail ? ` in ${Math.round(detail / 1000)} s` : "";
        this.setConnection(`Reconnecting${when}… (the page resumes from the last event it saw)`, "reconnecting");
      } else {
        this.setConnection("Disconnected", "disconnected");
        notice(goneWords(detail, this.room.role));
      }
    });
    stream.start();
    return stream;
  }
}
