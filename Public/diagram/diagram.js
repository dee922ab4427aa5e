// One marble diagram for a whole session: the inputs and every stage of the pipeline on one time
// axis, as RxMarbles draws an operator — coloured marbles with their value, a bar for completion,
// a cross for an error — with a graph column that shows which rows each stage reads, boolean
// streams as step lines, marbles too close to tell apart stacked with a count, and "why did this
// fire?": pointing at (or focusing) a marble highlights every event that shares its root cause.
// A marble's colour is its root cause's: the input event that started it.
//
// What RAC hides is drawn too: a row has one lane per subscription, from its `^` to its `!`
// (identical lanes folded with a count), and the inner subscriptions its work made as short lanes
// under it (diagram-lanes.js says how they are laid out).
import { drawAxis, drawStep, recheckCompared, refreshLane, rowLabel } from "./diagram-draw.js";
import { AXIS, FIRST_LANE, INNER_LANE, LANE, PAD, ROW } from "./diagram-geometry.js";
import { RADIUS } from "./diagram-glyphs.js";
import { drawGraph } from "./diagram-graph.js";
import { attachHandlers } from "./diagram-keys.js";
import { MARK_TO_MARK, rowLanes } from "./diagram-lanes.js";
import { laneModelAt, remember, showInstant } from "./diagram-instant.js";
import { isMark, isStep, KEEP, KEEP_INNER, shapeOf, SubscriptionCounts, TRIM_AT, WINDOW_RANGE } from "./diagram-model.js";
import { showCount, showFold, showLatest } from "./diagram-text.js";
import { endOfStory, fittedWindow, pannedStart } from "./diagram-window.js";
import { resetDetail, trace } from "./diagram-trace.js";
import { html, svg } from "../lib/dom.js";
import { CauseColours } from "../lib/format.js";

export { WINDOW_RANGE } from "./diagram-model.js";

/** Where "now" sits when the view follows time, as a share of the lane width. */
const NOW_AT = 0.85;
export class Diagram {
  /**
   * `root` receives the diagram; `rows` are `{name, title, operator, from, description, input,
   * sources}` in the order drawn (inputs first); `detail` is the live region that tells the marble
   * pointed at; `windowMs` the time across (null: fitted to `timeScale`, the pipeline's story, or
   * else chosen from the width); `colours` the session's colours by cause (kept when the diagram is
   * drawn again with other rows).
   */
  constructor(root, rows, {
    detail, windowMs = null, timeScale = null, colours = new CauseColours(), onViewChange, onExpand, onPoint, threads = false, compared = [],
  }) {
    this.timeScale = timeScale;
    this.root = root;
    // For each compared stream, the others of its group: its events not in all of theirs are ringed.
    this.comparedWith = new Map(compared.flatMap((group) => group.map((name) => [name, group.filter((other) => other !== name)])));
    this.recheck = null; // the compared rows to look at again, once this frame's events are in
    this.threads = threads; // whether each glyph wears a badge naming its thread
    this.onExpand = onExpand;
    this.onPoint = onPoint; // told the subscription ({stream, sub}) of each glyph pointed at or focused
    this.litSubscription = null; // the subscription lit from outside (diagram-subscription.js)
    this.detail = detail;
    resetDetail(detail);
    this.colours = colours;
    this.zoomed = windowMs !== null; // whether the learner chose the window (else it is the default)
    this.onViewChange = onViewChange;
    this.follow = true;
    this.viewStart = 0;
    this.now = 0;
    this.rows = rows.map((row, index) => ({
      ...row, index, events: [], inner: [], history: [], innerHistory: [], lanes: [], shape: "", unfolded: false, step: false,
      count: 0, subscriptions: 0, live: 0, hiddenLanes: 0, top: AXIS + index * ROW, height: ROW,
    }));
    this.byName = new Map(this.rows.map((row) => [row.name, row]));
    this.bySource = new Map(this.rows.flatMap((row) => (row.sources ?? []).map((source) => [source, row])));
    for (const row of this.rows) row.from = row.from.map((name) => this.byName.get(name)).filter(Boolean);
    this.nodes = new WeakMap(); // glyph node -> {row, lane, cluster}
    this.inputEvents = new Map(); // seq -> input event, to name causes
    this.counts = new SubscriptionCounts();
    this.current = null; // the seq of the glyph that holds the diagram's tab stop
    this.instant = null; // the scrubber's instant, {t, seq}: null while the diagram shows now
    this.instantShown = null; // the instant's view as last drawn: drawn again when events came or the view moved
    this.traced = null;
    this.build();
    this.windowMs = windowMs ?? fittedWindow(timeScale);
  }

  // MARK: Structure

  build() {
    this.root.replaceChildren();
    const grid = html("div", "diagram-grid");
    const labels = html("ol", "row-labels");
    labels.id = "streams";
    labels.setAttribute("aria-label", "Rows: the inputs, then the stages in pipeline order");
    for (const row of this.rows) labels.appendChild(rowLabel(this, row));
    this.graph = svg("svg", { class: "graph" });
    const lanes = html("div", "lanes");
    this.svg = svg("svg", { class: "lanes-svg", role: "group", "aria-label": "Marbles on one time axis" });
    this.bands = svg("g", { class: "bands", "aria-hidden": "true" });
    this.axis = svg("g", { class: "axis", "aria-hidden": "true" });
    this.content = svg("g", { class: "content" });
    this.traceLayer = svg("g", { class: "trace", "aria-hidden": "true" });
    this.nowLine = svg("line", { class: "now-line", y1: 0, "aria-hidden": "true" });
    for (const row of this.rows) {
      row.band = svg("rect", { class: `band band-${row.index % 2 ? "odd" : "even"}`, x: 0, width: "100%" });
      this.bands.appendChild(row.band);
      row.group = svg("g", { class: "row", "data-stream": row.name });
      this.content.appendChild(row.group);
    }
    this.content.insertBefore(this.traceLayer, this.content.firstChild);
    this.stackValues = svg("g", { class: "stack-values", "aria-hidden": "true" });
    this.content.appendChild(this.stackValues);
    this.svg.append(this.bands, this.axis, this.content, this.nowLine);
    lanes.appendChild(this.svg);
    grid.append(labels, this.graph, lanes);
    this.grid = grid;
    this.labels = labels;
    this.lanes = lanes;
    // Why each stream that failed failed, in words under the diagram (diagram-text.js).
    this.failures = html("ul", "diagram-failures");
    this.failures.setAttribute("aria-label", "Streams that failed, and why");
    this.failures.hidden = true;
    this.root.append(grid, this.failures);
    attachHandlers(this);
    this.width = lanes.clientWidth || 300;
    this.positionRows();
  }

  /** Each row's top from the heights of the rows above it; the bands, labels and graph follow. */
  positionRows() {
    let top = AXIS;
    for (const row of this.rows) {
      row.top = top;
      row.band.setAttribute("y", top);
      row.band.setAttribute("height", row.height);
      row.group.setAttribute("transform", `translate(0 ${top})`);
      row.label.style.height = `${row.height}px`;
      top += row.height;
    }
    this.height = top;
    this.svg.setAttribute("height", top);
    this.nowLine.setAttribute("y2", top);
    this.grid.style.setProperty("--rows-height", `${top}px`);
    const graph = drawGraph(this.rows, { height: top, centre: (row) => row.top + ROW / 2 });
    this.graph.replaceWith(graph);
    this.graph = graph;
    this.axisKey = null;
    if (this.traced) trace(this, this.traced);
  }

  get pxPerMs() {
    return this.width / this.windowMs;
  }

  /** The visible time range, in session milliseconds. */
  get view() {
    return [this.viewStart, this.viewStart + this.windowMs];
  }

  setWindow(windowMs, anchor) {
    this.zoomed = true;
    const clamped = Math.min(WINDOW_RANGE[1], Math.max(WINDOW_RANGE[0], windowMs));
    const at = anchor ?? this.viewStart + this.windowMs / 2;
    const share = (at - this.viewStart) / this.windowMs;
    this.windowMs = clamped;
    if (!this.follow) this.viewStart = Math.max(0, at - share * clamped);
    this.relayout();
  }

  /** Shows or hides the badge that names each glyph's thread. */
  setThreads(shown) {
    if (this.threads === shown) return;
    this.threads = shown;
    this.relayout();
  }

  /** Shows the session at `instant` (`{t, seq}`; null: now), kept in view (diagram-instant.js). */
  setInstant(instant) {
    this.instant = instant;
    if (instant) this.setFollow(false);
    if (instant && (instant.t < this.viewStart || instant.t > this.view[1])) this.viewStart = Math.max(0, instant.t - this.windowMs / 2);
    this.instantShown = null;
    this.render(this.now);
    if (!instant) showInstant(this);
  }

  /** Moves the paused view by a share of its window (negative: earlier), or to the nearest events that way. */
  pan(share) {
    this.setFollow(false);
    this.viewStart = pannedStart(this.rows, this.viewStart, this.windowMs, share);
    this.render(this.now);
  }

  setFollow(follow) {
    if (this.follow === follow) return;
    this.follow = follow;
    this.onViewChange?.();
  }

  /** How a row's lanes are laid out at this scale: inner subscriptions share a track only when their marks stand apart. */
  laneOptions(row) {
    return { unfolded: row.unfolded, apartMs: (2 * MARK_TO_MARK) / this.pxPerMs };
  }

  /** Lays every row out again: after a zoom or a change of width. */
  relayout() {
    this.width = this.lanes.clientWidth || this.width;
    if (!this.zoomed) this.windowMs = fittedWindow(this.timeScale);
    this.svg.setAttribute("width", this.width);
    let moved = false;
    for (const row of this.rows) moved = this.layoutRow(row) || moved;
    if (moved) this.positionRows();
    this.render(this.now);
    this.onViewChange?.();
  }

  /** Scrolls to `now` (when following; a finished run's last event), redraws the axis, the "now" line and the live lanes' ends. */
  render(now) {
    this.now = now;
    if (this.lanes.clientWidth && Math.abs(this.lanes.clientWidth - this.width) > 1) {
      this.relayout();
      return;
    }
    if (this.follow) this.viewStart = Math.max(0, Math.min(now, endOfStory(this.rows) ?? now) - NOW_AT * this.windowMs);
    const scale = this.pxPerMs;
    this.content.setAttribute("transform", `translate(${PAD - this.viewStart * scale} 0)`);
    const shown = `${this.viewStart}|${this.windowMs}|${this.width}`;
    if (this.instant && this.instantShown !== shown) {
      this.instantShown = shown;
      showInstant(this);
    }
    const nowX = PAD + ((this.instant?.t ?? now) - this.viewStart) * scale;
    this.nowLine.setAttribute("x1", nowX);
    this.nowLine.setAttribute("x2", nowX);
    for (const row of this.rows) {
      for (const lane of row.lanes) {
        for (const line of lane.liveLines) line.setAttribute("x2", Math.max(Number(line.getAttribute("x1")), now * scale));
        if (row.step && lane.kind === "main") drawStep(this, row, lane);
      }
    }
    drawAxis(this);
  }

  /**
   * Adds one event — of a row's stream, or of a subscription its work made inside it (one of the
   * row's `sources`) — and redraws what it changes.
   */
  add(event) {
    this.instantShown = null;
    const row = this.byName.get(event.stream);
    if (!row) {
      const owner = this.bySource.get(event.stream);
      if (!owner) return;
      owner.inner.push(event);
      remember(owner.innerHistory, event);
      const trimmed = owner.inner.length > KEEP_INNER * TRIM_AT;
      if (trimmed) owner.inner.splice(0, owner.inner.length - KEEP_INNER);
      if (this.batch) return; // laid out once the batch is in
      if (!trimmed) this.update(owner, event);
      else if (this.layoutRow(owner)) this.positionRows();
      return;
    }
    if (isMark(event)) {
      if (this.counts.count(row, event)) showCount(row);
    } else {
      if (row.input) {
        this.inputEvents.set(event.seq, event);
        this.colours.assign(event.seq);
      }
      if (this.inputEvents.size > KEEP * 4) this.inputEvents.delete(this.inputEvents.keys().next().value);
      row.count += 1;
      showCount(row);
      showLatest(this, row, event);
    }
    row.events.push(event);
    remember(row.history, event);
    const trimmed = row.events.length > KEEP * TRIM_AT;
    if (trimmed) row.events.splice(0, row.events.length - KEEP);
    if (this.batch) return;
    const wasStep = row.step;
    row.step = isStep(row);
    if (trimmed || wasStep !== row.step) {
      if (this.layoutRow(row)) this.positionRows();
      return;
    }
    this.update(row, event);
    if (this.comparedWith.has(row.name)) recheckCompared(this, row.name);
  }

  /** Runs `work`, which adds events (a replay, a redraw), and lays each row out once, after it. */
  batched(work) {
    this.batch = true;
    try {
      work();
    } finally {
      this.batch = false;
    }
    let moved = false;
    for (const row of this.rows) {
      row.step = isStep(row);
      moved = this.layoutRow(row) || moved;
    }
    if (moved) this.positionRows();
  }

  /** Redraws what `event` changed in `row`: its lanes if their shape changed, else its lane's glyphs. */
  update(row, event) {
    const model = this.modelOf(row);
    if (shapeOf(model) !== row.shape) {
      if (this.layoutRow(row, model)) this.positionRows();
      return;
    }
    const index = model.lanes.findIndex((lane) => lane.subscriptions.some((subscription) => subscription.sub === (event.sub ?? null)));
    if (index < 0) return; // on a lane folded into another, or not drawn
    refreshLane(this, row, row.lanes[index], model.lanes[index]);
    if (this.current === null) this.current = event.seq;
    if (this.traced) trace(this, this.traced);
  }

  /** Starts the counts from the session's (`counts` by stream, up to event `countedTo`): a page joining late saw none. */
  seedSubscriptions(counts, countedTo) {
    this.counts.seed(this.rows, counts, countedTo);
    for (const row of this.rows) showCount(row);
  }

  toggleFold(row) {
    row.unfolded = !row.unfolded;
    if (this.layoutRow(row)) this.positionRows();
    this.render(this.now);
    row.foldToggle.focus();
  }

  /** A row's lanes: of the events it keeps, or at the scrubber's instant, of its history around it. */
  modelOf(row) {
    return this.instant ? laneModelAt(this, row) : rowLanes(row.events, row.inner, this.laneOptions(row));
  }

  /**
   * Splits a row into its lanes and draws each (`model`: the row's lanes, when known already).
   * Returns whether the row's height changed, so that the rows below must move.
   */
  layoutRow(row, model = this.modelOf(row)) {
    const active = document.activeElement;
    const focused = this.nodes.get(active)?.row === row ? Number(active.dataset.seq) : null;
    row.shape = shapeOf(model);
    row.group.replaceChildren();
    const mains = model.lanes.filter((lane) => lane.kind === "main").length;
    const mainHeight = ROW + Math.max(0, mains - 1) * LANE;
    let inner = 0;
    row.lanes = model.lanes.map((laneModel, index) => {
      const centre = laneModel.kind === "main" ? FIRST_LANE + index * LANE : mainHeight + INNER_LANE / 2 + 2 + (inner++) * INNER_LANE;
      const lane = { kind: laneModel.kind, index, centre, count: laneModel.count, clusters: [], liveLines: [], mains,
        branchTop: FIRST_LANE + Math.max(0, mains - 1) * LANE + RADIUS,
        node: svg("g", { class: `lane lane-${laneModel.kind}${laneModel.count > 1 ? " lane-folded" : ""}`, "data-lane": index }) };
      lane.lines = svg("g", { class: "lane-lines", "aria-hidden": "true" });
      lane.tail = svg("path", { class: "step-line" });
      lane.node.append(lane.lines, lane.tail);
      row.group.appendChild(lane.node);
      refreshLane(this, row, lane, laneModel);
      return lane;
    });
    showFold(row, model);
    if (row.hiddenLanes !== model.hidden) {
      row.hiddenLanes = model.hidden;
      showCount(row);
    }
    const height = mainHeight + (inner ? inner * INNER_LANE + 4 : 0);
    const moved = height !== row.height;
    row.height = height;
    // Focus and the diagram's one tab stop survive a new layout (or move to a glyph still drawn).
    const again = row.lanes.flatMap((lane) => lane.clusters).find((cluster) => cluster.events.some((event) => event.seq === focused));
    if (again) again.node.focus({ preventScroll: true });
    if (!this.svg.querySelector('.glyph[tabindex="0"]')) {
      const first = this.svg.querySelector(".glyph");
      this.current = first ? Number(first.dataset.seq) : null;
      first?.setAttribute("tabindex", "0");
    }
    if (this.traced && !moved) trace(this, this.traced);
    return moved;
  }

  /** Every drawn lane, top to bottom. */
  get allLanes() {
    return this.rows.flatMap((row) => row.lanes.map((lane) => ({ row, lane })));
  }

  /** Forgets every event (a `reset`: the server no longer has the ones missed). */
  clear() {
    let moved = false;
    for (const row of this.rows) {
      row.events = [];
      row.inner = [];
      row.history = [];
      row.innerHistory = [];
      row.step = false;
      row.failure = null;
      moved = this.layoutRow(row) || moved;
    }
    if (moved) this.positionRows();
    this.failures.replaceChildren();
    this.failures.hidden = true;
    this.current = null;
  }
}
