// A virtual-clock session's controls: the clock's reading, +100 ms / +500 ms steps, and Play, which
// moves the clock at a chosen speed. A real-time session hides them.
import { InputSender } from "../lib/api.js";
import { explain, notice } from "../lib/notice.js";

/** How often Play moves the virtual clock, in wall milliseconds. */
const PLAY_TICK_MS = 100;
/** The largest step one tick sends (the server refuses steps over a minute). */
const MAX_STEP_MS = 60_000;

export class VirtualClock {
  /**
   * `bar` holds the controls; `reading` shows the time; `play` and `speed` are Play's button and
   * select; `steps` maps each step button to its milliseconds.
   */
  constructor({ bar, reading, play, speed, steps }) {
    Object.assign(this, { bar, reading, play, speed });
    this.virtual = false;
    this.session = null;
    this.playing = false;
    play.addEventListener("click", () => this.setPlaying(!this.playing));
    for (const [button, milliseconds] of steps) button.addEventListener("click", () => this.advance(milliseconds));
  }

  /**
   * Shows the controls for `sessionID` if its clock is virtual, at zero and paused; in a room
   * (`{id, key, role}`) the teacher moves it through the room, and a student only reads it.
   */
  start(sessionID, virtual, room = null) {
    this.session = sessionID;
    this.virtual = virtual;
    this.bar.hidden = !virtual;
    for (const control of this.bar.querySelectorAll("button, select, label")) control.hidden = Boolean(room) && room.role !== "teacher";
    this.advanced = 0; // what this page has advanced the clock by
    this.latest = 0; // the latest event time seen (another tab may have advanced the clock too)
    this.pending = 0; // steps sent and not yet answered: the clock is busy until they are
    this.show(0);
    this.setPlaying(false);
    this.stopped = false;
    // A step refused because a breakpoint stopped the clock first: the breakpoints say so, and
    // the next move goes on from there.
    this.sender = new InputSender(sessionID, "advance", (error) => {
      if (error.code === "at_breakpoint") this.stopped = true;
      else notice(explain(error));
    }, room);
  }

  /** Stops Play and forgets the session. */
  stop() {
    this.setPlaying(false);
    this.session = null;
  }

  /** The clock's reading in session milliseconds. */
  get time() {
    return this.current;
  }

  /** An event at `t` was seen: the clock is at least there. */
  saw(t) {
    this.latest = Math.max(this.latest, t);
    if (this.virtual) this.show(Math.max(this.advanced, this.latest));
  }

  show(milliseconds) {
    this.current = milliseconds;
    this.reading.textContent = `${milliseconds} ms`;
  }

  /**
   * The server stopped the clock at a breakpoint, at `t`: Play stops, and the next move first
   * goes on from there (`goOn`, set by the Inside view's breakpoints).
   */
  stopAt(t) {
    this.setPlaying(false);
    this.stopped = true;
    this.advanced = t;
    this.show(Math.max(t, this.latest));
  }

  /** Asks the server to move the clock; resolves to whether it moved. */
  advance(milliseconds) {
    if (!this.session) return Promise.resolve(false);
    if (!this.stopped) return this.send(milliseconds);
    this.stopped = false;
    return (this.goOn?.() ?? Promise.resolve()).then(() => this.send(milliseconds), () => false);
  }

  send(milliseconds) {
    const session = this.session;
    this.pending += 1;
    this.bar.setAttribute("aria-busy", "true");
    return this.sender.send(milliseconds).then((accepted) => {
      if (this.session !== session) return false;
      this.pending -= 1;
      this.bar.setAttribute("aria-busy", String(this.pending > 0));
      if (!accepted) return false; // refused (429, 400, 409): the clock did not move
      if (this.stopped) return false; // accepted, then dropped: a breakpoint stopped the clock first
      this.advanced += milliseconds;
      this.show(Math.max(this.advanced, this.latest));
      return true;
    });
  }

  /**
   * Play: the virtual clock moves at the chosen speed, in small steps (one at a time, each sized by
   * the wall time since the last, so the rate holds however long a step takes to be answered).
   */
  setPlaying(playing) {
    this.playing = playing;
    this.play.setAttribute("aria-pressed", String(playing));
    this.play.textContent = playing ? "Pause" : "Play";
    if (!playing) return;
    const session = this.session;
    let last = performance.now();
    let owed = 0;
    const tick = async () => {
      if (!this.playing || this.session !== session) return;
      const now = performance.now();
      owed += (now - last) * Number(this.speed.value);
      last = now;
      const step = Math.min(MAX_STEP_MS, Math.floor(owed));
      if (step >= 1) {
        owed -= step;
        if (!(await this.advance(step))) {
          this.setPlaying(false); // refused: the notice says why
          return;
        }
      }
      setTimeout(tick, PLAY_TICK_MS);
    };
    setTimeout(tick, PLAY_TICK_MS);
  }
}
