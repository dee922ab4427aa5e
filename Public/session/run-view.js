// How the run's lanes are shown in "This run as marbles": from its first event — the idle lead-in
// before it is not drawn (a session started, nothing typed for 5 s, was 3,000 px of nothing) — at
// full size or fitted to the panel's width. Only the view starts later: the lanes keep their time
// axis from 0, so a row's notation, a marble's frame and every time said in words stay the
// session's. Each lane is an SVG whose viewBox starts at the first event's frame; a pointer on an
// input's lane is handed to the row's editor (lib/marble-row.js) where it would be on the lane
// drawn in full, so dragging and clicking keep their frames, fitted or not.
import { FRAME_WIDTH } from "../lib/marble-row.js";

/** A lead-in shorter than this is drawn: too short to be worth a word. */
const LEAST_TRIMMED_MS = 1000;
/** The least a fitted view scales the lanes: beyond it they scroll. */
const LEAST_SCALE = 0.05;
const LANES = "svg.gallery-lane, svg.gallery-subscriptions";

/**
 * The idle lead-in of a run whose first event (of any stream, its inputs among them) comes at
 * `first` ms, in whole frames of `frame` ms: the time from which its lanes are drawn, or 0 when
 * it is shorter than a second.
 */
export function idleLeadIn(first, frame) {
  if (!Number.isFinite(first) || first < LEAST_TRIMMED_MS) return 0;
  return Math.floor(first / frame) * frame;
}

/** The time of the first event of the runs `runs` (`{streams: {name: {events}}}`): Infinity if none. */
export function firstEvent(...runs) {
  return Math.min(...runs.flatMap((run) => Object.values(run?.streams ?? {}).flatMap((stream) => stream.events.map((event) => event.time))));
}

/** A time in seconds with one decimal, as the panel says where it starts: "5.0 s". */
export const tenths = (ms) => `${(ms / 1000).toFixed(1)} s`;

export class RunView {
  /** The view of the lanes in `lanes` (the panel's scrolling region); `inputs` holds the editable rows. */
  constructor(lanes, inputs) {
    Object.assign(this, { lanes, inputs, fromMs: 0, frame: 1, fit: false, scale: 1 });
    for (const type of ["pointermove", "click"]) lanes.addEventListener(type, (event) => this.redirect(event), true);
  }

  /** Starts the view at `fromMs` (a multiple of the rows' `frame`), fitted or not, and draws every lane so. */
  set({ fromMs = this.fromMs, frame = this.frame, fit = this.fit }) {
    Object.assign(this, { fromMs, frame, fit });
    this.apply();
  }

  get fromPx() {
    return (this.fromMs / this.frame) * FRAME_WIDTH;
  }

  /** The widest lane's width in pixels, drawn from the view's start. */
  span() {
    const widths = [...this.lanes.querySelectorAll(LANES)].map((lane) => Number(lane.getAttribute("width")) || 0);
    return Math.max(1, ...widths) - this.fromPx;
  }

  /** Every lane drawn from the view's start, at the view's scale (the whole run in the panel's width when fitted). */
  apply() {
    const room = this.lanes.clientWidth - 4;
    this.scale = this.fit ? Math.min(1, Math.max(LEAST_SCALE, room / this.span())) : 1;
    this.lanes.classList.toggle("fitted", this.fit); // fitted, the rows' words wrap in the panel's width too
    for (const lane of this.lanes.querySelectorAll(LANES)) {
      const width = Number(lane.getAttribute("width")) || 0;
      const height = Number(lane.getAttribute("height")) || 0;
      if (!this.fromPx && this.scale === 1) {
        lane.removeAttribute("viewBox");
        lane.style.width = "";
        continue;
      }
      const shown = Math.max(1, width - this.fromPx);
      // A lane with no height (no inner subscriptions) draws nothing: it only must not be wider.
      if (height) lane.setAttribute("viewBox", `${this.fromPx} 0 ${shown} ${height}`);
      lane.setAttribute("preserveAspectRatio", "xMinYMid meet");
      lane.style.width = `${shown * this.scale}px`;
    }
  }

  /**
   * A pointer's move or click on an input's lane, as the row's editor would have it on the lane
   * drawn in full from 0 at full size: the same event, dispatched again at that place.
   */
  redirect(event) {
    if (!event.isTrusted || (!this.fromPx && this.scale === 1)) return;
    const lane = event.target.closest?.("svg.gallery-lane");
    if (!lane || !this.inputs.contains(lane)) return;
    event.stopPropagation();
    const box = lane.getBoundingClientRect();
    const clientX = box.left + (event.clientX - box.left) / this.scale + this.fromPx;
    const Kind = event instanceof PointerEvent ? PointerEvent : MouseEvent;
    const { clientY, screenY, button, buttons, detail, pointerId, pointerType, isPrimary } = event;
    event.target.dispatchEvent(new Kind(event.type, {
      bubbles: true, cancelable: true, composed: true, clientX, clientY, screenY, button, buttons, detail, pointerId, pointerType, isPrimary,
    }));
  }
}
