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
import { drawGraph, lightEdges } from "./diagram-graph.js";
import {
  completedShapes, errorShapes, eventText, fit, LABEL_ABOVE, marbleShapes, markShapes, RADIUS, stackShapes,
  STEP_HALF, stepShapes, textWidth, threadBadge,
} from "./diagram-glyphs.js";
import { placeGlyphs, rowLanes } from "./diagram-lanes.js";
import { html, svg } from "./dom.js";
import { CauseColours, describe, seconds } from "./format.js";

/**
 * A row's height with one lane; the axis band; where the first lane's glyphs sit from the row's
 * top; how far apart further lanes are; an inner lane's height and its glyphs' half height.
 */
const ROW = 50;
const AXIS = 26;
const FIRST_LANE = 33;
const LANE = 46;
const INNER_LANE = 24;
const INNER_HALF = 9;
/** The least distance between two glyphs' centres. */
const GAP = 2 * RADIUS + 4;
/** Room before time zero, so that the first marbles are not cut off by the lane's edge. */
const PAD = RADIUS + 6;
/** Where "now" sits when the view follows time, as a share of the lane width. */
const NOW_AT = 0.85;
/**
 * Events kept per row (and inner subscriptions' events per row); the oldest go first, a quarter
 * more at a time, so that a busy row is laid out again once in a hundred events, not at each.
 */
const KEEP = 400;
const KEEP_INNER = 200;
const TRIM_AT = 1.25;
/** Subscriptions' starts and ends kept while the session's counts are on their way. */
const MAX_UNCOUNTED = 5000;
/** The narrowest and widest time windows the zoom allows, in milliseconds. */
export const WINDOW_RANGE = [200, 600_000];
/** Typing at 8 characters a second puts keystrokes this far apart, in milliseconds. */
const KEYSTROKE_MS = 125;
/** The room a keystroke's marble needs to stand apart with a few characters of its value, in pixels. */
const KEYSTROKE_PX = 40;
/** The narrowest window the default chooses: below it, too little happens on screen at once. */
const NARROWEST_DEFAULT_MS = 625;

/**
 * The window a diagram `width` pixels wide opens with: the widest of 10 s, 5 s, 2.5 s… in which
 * keystrokes typed at a normal speed stand apart, each a marble with its value.
 */
export function defaultWindow(width) {
  let windowMs = 10_000;
  while (windowMs / 2 >= NARROWEST_DEFAULT_MS && (KEYSTROKE_MS * width) / windowMs < KEYSTROKE_PX) windowMs /= 2;
  return windowMs;
}

const isMark = (event) => event.kind === "subscribed" || event.kind === "disposed";
/**
 * Events of compared rows (a program's `// compare:` line) are the same when their kind and value
 * agree and their times are this close: one input reaches every variant in one pass on the
 * session's thread, and their timers fire within a few milliseconds of each other.
 */
const SAME_EVENT_MS = 20;
const sameEventKey = (event) => `${event.kind}|${JSON.stringify(event.value ?? null)}`;

export class Diagram {
  /**
   * `root` receives the diagram; `rows` are `{name, title, operator, from, description, input,
   * sources}` in the order drawn (inputs first); `detail` is the live region that tells the marble
   * pointed at; `windowMs` the time across (null: chosen from the width); `colours` the session's
   * colours by cause (kept when the diagram is drawn again with other rows).
   */
  constructor(root, rows, {
    detail, windowMs = null, colours = new CauseColours(), onViewChange, onExpand, threads = false, compared = [],
  }) {
    this.root = root;
    // For each compared stream, the others of its group: its events not in all of theirs are ringed.
    this.comparedWith = new Map(compared.flatMap((group) => group.map((name) => [name, group.filter((other) => other !== name)])));
    this.recheck = null; // the compared rows to look at again, once this frame's events are in
    this.threads = threads; // whether each glyph wears a badge naming its thread
    this.onExpand = onExpand;
    this.detail = detail;
    this.colours = colours;
    this.zoomed = windowMs !== null; // whether the learner chose the window (else it is the default)
    this.onViewChange = onViewChange;
    this.follow = true;
    this.viewStart = 0;
    this.now = 0;
    this.rows = rows.map((row, index) => ({
      ...row, index, events: [], inner: [], lanes: [], shape: "", unfolded: false, step: false,
      count: 0, subscriptions: 0, live: 0, hiddenLanes: 0, top: AXIS + index * ROW, height: ROW,
    }));
    this.byName = new Map(this.rows.map((row) => [row.name, row]));
    this.bySource = new Map(this.rows.flatMap((row) => (row.sources ?? []).map((source) => [source, row])));
    for (const row of this.rows) row.from = row.from.map((name) => this.byName.get(name)).filter(Boolean);
    this.nodes = new WeakMap(); // glyph node -> {row, lane, cluster}
    this.inputEvents = new Map(); // seq -> input event, to name causes
    this.countedTo = undefined; // the seq up to which the server counted subscriptions (seedSubscriptions)
    this.uncounted = []; // subscriptions' starts and ends seen before those counts came
    this.current = null; // the seq of the glyph that holds the diagram's tab stop
    this.traced = null;
    this.build();
    this.windowMs = windowMs ?? defaultWindow(this.width);
  }

  // MARK: Structure

  build() {
    this.root.replaceChildren();
    const grid = html("div", "diagram-grid");
    const labels = html("ol", "row-labels");
    labels.id = "streams";
    labels.setAttribute("aria-label", "Rows: the inputs, then the stages in pipeline order");
    for (const row of this.rows) labels.appendChild(this.rowLabel(row));
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
    this.root.appendChild(grid);
    this.attachHandlers();
    this.width = lanes.clientWidth || 300;
    this.positionRows();
  }

  rowLabel(row) {
    const item = html("li", `stream${row.input ? " input-row" : ""}${row.stage ? " stage-row" : ""}`);
    item.dataset.stream = row.name;
    item.title = row.description ?? "";
    const first = html("div", "row-line");
    first.appendChild(html("span", "stream-name", row.title));
    row.latest = html("output", "latest", "—");
    row.latest.setAttribute("aria-label", `latest ${row.name}`);
    first.appendChild(row.latest);
    const second = html("div", "row-line");
    second.appendChild(html("code", "stream-operator", row.operator));
    if (row.stages) {
      // A program line's chain: its stages are rows of their own, shown on request.
      const toggle = html("button", "expander", `${row.expanded ? "▾" : "▸"} ${row.stages}`);
      toggle.type = "button";
      toggle.setAttribute("aria-expanded", String(row.expanded));
      toggle.setAttribute("aria-label", `${row.expanded ? "Hide" : "Show"} the ${row.stages} stage${row.stages === 1 ? "" : "s"} of ${row.title}`);
      toggle.addEventListener("click", () => this.onExpand?.(row.name));
      second.appendChild(toggle);
    }
    // Identical lanes drawn as one (×2) or each apart: the learner's choice, per row.
    row.foldToggle = html("button", "fold-toggle");
    row.foldToggle.type = "button";
    row.foldToggle.hidden = true;
    row.foldToggle.addEventListener("click", () => this.toggleFold(row));
    second.appendChild(row.foldToggle);
    row.countLabel = html("span", "count", "0 events");
    second.appendChild(row.countLabel);
    item.append(first, second);
    if (row.description) item.appendChild(html("span", "visually-hidden", row.description));
    // The graph column says it with lines; this says it in words.
    const readers = this.rows.filter((other) => other.from.includes(row)).map((other) => other.title);
    const reads = [row.from.length ? `reads ${row.from.map((source) => source.title).join(", ")}` : "",
      readers.length ? `read by ${readers.join(", ")}` : ""].filter(Boolean).join("; ");
    if (reads) item.appendChild(html("span", "visually-hidden", ` (${reads})`));
    row.label = item;
    return item;
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
    if (this.traced) this.trace(this.traced);
  }

  // MARK: Time

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

  /** Moves the paused view by a share of its window (negative: earlier). */
  pan(share) {
    this.setFollow(false);
    this.viewStart = Math.max(0, this.viewStart + share * this.windowMs);
    this.render(this.now);
  }

  setFollow(follow) {
    if (this.follow === follow) return;
    this.follow = follow;
    this.onViewChange?.();
  }

  /** Lays every row out again: after a zoom or a change of width. */
  relayout() {
    this.width = this.lanes.clientWidth || this.width;
    if (!this.zoomed) this.windowMs = defaultWindow(this.width);
    this.svg.setAttribute("width", this.width);
    let moved = false;
    for (const row of this.rows) moved = this.layoutRow(row) || moved;
    if (moved) this.positionRows();
    this.render(this.now);
    this.onViewChange?.();
  }

  /** Scrolls to `now` (when following), redraws the axis, the "now" line and the live lanes' ends. */
  render(now) {
    this.now = now;
    if (this.lanes.clientWidth && Math.abs(this.lanes.clientWidth - this.width) > 1) {
      this.relayout();
      return;
    }
    if (this.follow) this.viewStart = Math.max(0, now - NOW_AT * this.windowMs);
    const scale = this.pxPerMs;
    this.content.setAttribute("transform", `translate(${PAD - this.viewStart * scale} 0)`);
    const nowX = PAD + (now - this.viewStart) * scale;
    this.nowLine.setAttribute("x1", nowX);
    this.nowLine.setAttribute("x2", nowX);
    for (const row of this.rows) {
      for (const lane of row.lanes) {
        for (const line of lane.liveLines) line.setAttribute("x2", Math.max(Number(line.getAttribute("x1")), now * scale));
        if (row.step && lane.kind === "main") this.drawStep(row, lane);
      }
    }
    this.drawAxis();
  }

  drawAxis() {
    const [start, end] = this.view;
    const steps = [10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000];
    const step = steps.find((candidate) => candidate * this.pxPerMs >= 64) ?? 600_000;
    const key = `${start}|${end}|${step}|${this.height}`;
    if (key === this.axisKey) return;
    this.axisKey = key;
    this.axis.replaceChildren();
    for (let t = Math.max(0, Math.ceil((start - PAD / this.pxPerMs) / step) * step); t <= end; t += step) {
      const x = PAD + (t - start) * this.pxPerMs;
      this.axis.appendChild(svg("line", { class: "grid-line", x1: x, x2: x, y1: AXIS - 5, y2: this.height }));
      // Near an edge a label is anchored inside the lane, so that none is cut off.
      const anchor = x < 24 ? "start" : x > this.width - 24 ? "end" : "middle";
      this.axis.appendChild(svg("text", { class: "tick-label", x, y: 16, "text-anchor": anchor, "data-ms": t }, seconds(t)));
    }
  }

  // MARK: Events

  /**
   * Adds one event — of a row's stream, or of a subscription its work made inside it (one of the
   * row's `sources`) — and redraws what it changes.
   */
  add(event) {
    const row = this.byName.get(event.stream);
    if (!row) {
      const owner = this.bySource.get(event.stream);
      if (!owner) return;
      owner.inner.push(event);
      if (owner.inner.length > KEEP_INNER * TRIM_AT) {
        owner.inner.splice(0, owner.inner.length - KEEP_INNER);
        if (this.layoutRow(owner)) this.positionRows();
        return;
      }
      this.update(owner, event);
      return;
    }
    if (isMark(event)) {
      this.subscription(event);
    } else {
      if (row.input) {
        this.inputEvents.set(event.seq, event);
        this.colours.assign(event.seq);
      }
      if (this.inputEvents.size > KEEP * 4) this.inputEvents.delete(this.inputEvents.keys().next().value);
      row.count += 1;
      this.showCount(row);
      row.latest.textContent = event.kind === "next" ? describe(event.value, 120) : event.kind;
      row.latest.dataset.kind = event.kind;
    }
    row.events.push(event);
    const wasStep = row.step;
    row.step = this.isStep(row);
    if (row.events.length > KEEP * TRIM_AT || wasStep !== row.step) {
      if (row.events.length > KEEP * TRIM_AT) row.events.splice(0, row.events.length - KEEP);
      if (this.layoutRow(row)) this.positionRows();
      return;
    }
    this.update(row, event);
    if (this.comparedWith.has(row.name)) this.recheckCompared(row.name);
  }

  /**
   * Whether any of `events` (a glyph's) is missing from another compared row: no event of the
   * same kind and value within ``SAME_EVENT_MS`` there.
   */
  differs(row, events) {
    const others = (this.comparedWith.get(row.name) ?? []).map((name) => this.byName.get(name)).filter(Boolean);
    return events.some((event) => !isMark(event) && others.some((other) => !other.events.some((candidate) =>
      !isMark(candidate) && Math.abs(candidate.t - event.t) <= SAME_EVENT_MS && sameEventKey(candidate) === sameEventKey(event))));
  }

  /**
   * Once the frame's events are in, redraws the glyphs of `name`'s group whose ring is now wrong: a
   * variant's event may find its counterpart only when the other row's arrives.
   */
  recheckCompared(name) {
    this.recheck ??= new Set();
    this.recheck.add(name);
    for (const other of this.comparedWith.get(name)) this.recheck.add(other);
    if (this.recheckScheduled) return;
    this.recheckScheduled = true;
    requestAnimationFrame(() => {
      this.recheckScheduled = false;
      const names = this.recheck;
      this.recheck = null;
      for (const rowName of names ?? []) {
        const row = this.byName.get(rowName);
        for (const lane of row?.lanes ?? []) {
          if (lane.kind !== "main") continue;
          lane.clusters.forEach((cluster, index) => {
            if (!cluster.mark && Boolean(cluster.differs) !== this.differs(row, cluster.events)) this.drawCluster(row, lane, index);
          });
        }
      }
    });
  }

  /**
   * Redraws what `event` changed in `row`: the row's lanes when their shape changed (a new
   * subscription, lanes folded or apart), else the glyphs of the lane that holds it.
   */
  update(row, event) {
    const model = rowLanes(row.events, row.inner, { unfolded: row.unfolded });
    if (this.shapeOf(model) !== row.shape) {
      if (this.layoutRow(row, model)) this.positionRows();
      return;
    }
    const index = model.lanes.findIndex((lane) => lane.subscriptions.some((subscription) => subscription.sub === (event.sub ?? null)));
    if (index < 0) return; // on a lane folded into another, or not drawn
    this.refreshLane(row, row.lanes[index], model.lanes[index]);
    if (this.current === null) this.current = event.seq;
    if (this.traced) this.trace(this.traced);
  }

  shapeOf(model) {
    return `${model.lanes.map((lane) => lane.key).join(" ")}|${model.hidden}|${model.foldable}`;
  }

  /**
   * Counts a subscription's start or end (`subscribed`, `disposed`) of a row's stream: how often
   * its work has run, and how many runs are going — its side effects at a glance.
   */
  subscription(event) {
    const row = this.byName.get(event.stream);
    if (!row) return;
    if (this.countedTo === undefined) {
      // Kept until the session's counts arrive (seedSubscriptions); a few thousand at most, should
      // they never come (the counts then stay those of the events seen).
      if (this.uncounted.length < MAX_UNCOUNTED) this.uncounted.push(event);
    } else if (event.seq <= this.countedTo) {
      return; // counted by the server already
    }
    if (event.kind === "subscribed") {
      row.subscriptions += 1;
      row.live += 1;
    } else if (event.kind === "disposed") {
      row.live = Math.max(0, row.live - 1);
    }
    this.showCount(row);
  }

  /**
   * Starts the counts from the session's (`GET /api/sessions/{sid}`: `counts` by stream, which
   * include every event up to `countedTo`): a page that joins late saw none of the earlier
   * subscriptions. Events seen before, and after `countedTo`, are added again.
   */
  seedSubscriptions(counts, countedTo) {
    const seen = this.uncounted;
    this.countedTo = countedTo;
    this.uncounted = [];
    for (const row of this.rows) {
      row.subscriptions = counts[row.name]?.subscriptions ?? 0;
      row.live = counts[row.name]?.live ?? 0;
    }
    for (const event of seen) if (event.seq > countedTo) this.subscription(event);
    for (const row of this.rows) this.showCount(row);
  }

  /** "3 events", then (once subscribed to) "· 2 subs, 1 live". */
  showCount(row) {
    const events = `${row.count} event${row.count === 1 ? "" : "s"}`;
    const hidden = row.hiddenLanes ? `; ${row.hiddenLanes} subscription${row.hiddenLanes === 1 ? "" : "s"} not drawn (too many at once)` : "";
    if (!row.subscriptions) {
      row.countLabel.textContent = events;
      row.countLabel.title = hidden.slice(2);
      return;
    }
    const subs = `${row.subscriptions} sub${row.subscriptions === 1 ? "" : "s"}`;
    const live = row.live === row.subscriptions ? "" : `, ${row.live} live`;
    row.countLabel.textContent = `${events} · ${subs}${live}`;
    row.countLabel.title = `${row.subscriptions} subscription${row.subscriptions === 1 ? "" : "s"} so far (each runs the stream's work again), ${row.live} live now${hidden}`;
  }

  /** The fold switch says what it would do: unfold the lanes drawn as one, or fold them again. */
  showFold(row, model) {
    const toggle = row.foldToggle;
    toggle.hidden = !model.foldable;
    if (!model.foldable) return;
    const folded = model.lanes.filter((lane) => lane.count > 1);
    toggle.setAttribute("aria-expanded", String(!folded.length));
    if (folded.length) {
      toggle.textContent = folded.map((lane) => `×${lane.count}`).join(" ");
      const subscriptions = folded.reduce((sum, lane) => sum + lane.count, 0);
      toggle.setAttribute("aria-label", `Unfold ${row.title}: ${subscriptions} subscriptions with the same events are drawn as ${folded.length === 1 ? "one lane" : `${folded.length} lanes`}`);
    } else {
      toggle.textContent = "fold";
      toggle.setAttribute("aria-label", `Fold the lanes of ${row.title} that carry the same events into one`);
    }
  }

  toggleFold(row) {
    row.unfolded = !row.unfolded;
    if (this.layoutRow(row)) this.positionRows();
    this.render(this.now);
    row.foldToggle.focus();
  }

  /**
   * Whether a row is drawn as a step line: all its values are booleans (high is true), or all are
   * among its known `levels` (a small enumeration, or a choice input's options), top first.
   */
  isStep(row) {
    const values = row.events.filter((event) => event.kind === "next").map((event) => event.value);
    if (!values.length) return false;
    return row.levels ? values.every((value) => row.levels.includes(value)) : values.every((value) => typeof value === "boolean");
  }

  /** The height of a step row's level for `value`, about a lane's centre. */
  levelY(row, value, centre) {
    if (!row.levels) return value ? centre - STEP_HALF : centre + STEP_HALF;
    const index = Math.max(0, row.levels.indexOf(value));
    return row.levels.length < 2 ? centre - STEP_HALF : centre - STEP_HALF + (2 * STEP_HALF * index) / (row.levels.length - 1);
  }

  // MARK: Lanes

  /**
   * Splits a row into its lanes and draws each (`model`: the row's lanes, when known already).
   * Returns whether the row's height changed, so that the rows below must move.
   */
  layoutRow(row, model = rowLanes(row.events, row.inner, { unfolded: row.unfolded })) {
    const active = document.activeElement;
    const focused = this.nodes.get(active)?.row === row ? Number(active.dataset.seq) : null;
    row.shape = this.shapeOf(model);
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
      this.refreshLane(row, lane, laneModel);
      return lane;
    });
    this.showFold(row, model);
    if (row.hiddenLanes !== model.hidden) {
      row.hiddenLanes = model.hidden;
      this.showCount(row);
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
    if (this.traced && !moved) this.trace(this.traced);
    return moved;
  }

  /** Draws a lane's glyphs again where they changed, its subscriptions' lines, and its step line. */
  refreshLane(row, lane, model) {
    lane.model = model;
    const glyphs = placeGlyphs(model.events, this.pxPerMs, GAP);
    const old = lane.clusters;
    let from = 0;
    while (from < old.length && from < glyphs.length && sameGlyph(old[from], glyphs[from])) from += 1;
    // The glyph before the first change lost or gained a neighbour: its label's room changed.
    from = Math.max(0, Math.min(from, glyphs.length) - 1);
    for (const cluster of old.slice(from)) cluster.node?.remove();
    lane.clusters = [...old.slice(0, from), ...glyphs.slice(from)];
    for (let index = from; index < lane.clusters.length; index += 1) this.drawCluster(row, lane, index);
    this.drawLines(row, lane);
    if (row.step && lane.kind === "main") this.drawStep(row, lane);
    else lane.tail.removeAttribute("d");
  }

  /**
   * Each subscription's life on its lane: a line from its start to its end (to now while it is
   * live), and for an inner lane a branch up from the lane above, where it began.
   */
  drawLines(row, lane) {
    const scale = this.pxPerMs;
    lane.lines.replaceChildren();
    lane.liveLines = [];
    if (row.input) return;
    for (const subscription of lane.model.subscriptions) {
      if (!subscription.events.length) continue;
      const start = (subscription.start ?? subscription.events[0].t) * scale;
      const end = subscription.end === null ? null : subscription.end * scale;
      const line = svg("line", { class: "lane-line", x1: start, x2: end ?? Math.max(start, this.now * scale), y1: lane.centre, y2: lane.centre });
      lane.lines.appendChild(line);
      if (end === null) lane.liveLines.push(line);
      if (lane.kind === "inner") {
        lane.lines.appendChild(svg("line", { class: "inner-branch", x1: start, x2: start, y1: lane.branchTop, y2: lane.centre - INNER_HALF }));
      }
    }
  }

  /** A boolean row's level on a lane: high for true, low for false, from its first value to now. */
  drawStep(row, lane) {
    const scale = this.pxPerMs;
    let d = "";
    let level = null;
    let end = null;
    for (const event of lane.model.events) {
      if (isMark(event)) continue;
      if (event.kind !== "next") {
        end = event.t;
        continue;
      }
      const x = event.t * scale;
      const y = this.levelY(row, event.value, lane.centre);
      d += level === null ? `M${x} ${y}` : ` H${x} V${y}`;
      level = y;
    }
    if (level !== null) d += ` H${Math.max(0, (end ?? this.now)) * scale}`;
    lane.tail.setAttribute("d", d);
  }

  /** Draws (or redraws in place) one glyph: a marble, a step dot, a bar, a cross, a mark, or a stack. */
  drawCluster(row, lane, index) {
    const cluster = lane.clusters[index];
    const y = lane.centre;
    const half = lane.kind === "inner" ? INNER_HALF : RADIUS;
    const [first] = cluster.events;
    const group = svg("g", { class: "glyph", tabindex: "-1", "data-stream": row.name, "data-seq": first.seq, "data-lane": lane.index });
    group.dataset.seqs = cluster.events.map((event) => event.seq).join(" ");
    if (first.stream !== row.name) group.dataset.source = first.stream;
    if (first.sub !== undefined) group.dataset.sub = first.sub;
    const x = cluster.x;
    let badge = this.threads && lane.kind === "main";
    if (cluster.events.length > 1) {
      group.classList.add("stack");
      group.setAttribute("role", "button");
      group.append(...stackShapes(x, y, cluster.events.length));
    } else if (cluster.mark) {
      group.classList.add("mark", `mark-${cluster.mark}`);
      group.setAttribute("role", "img");
      group.append(...markShapes(cluster.mark, x, y, half));
      badge = false;
    } else if (first.kind === "completed") {
      group.setAttribute("role", "img");
      group.append(...completedShapes(x, y, half));
    } else if (first.kind === "error") {
      group.setAttribute("role", "img");
      group.append(...errorShapes(x, y, half));
    } else if (row.step) {
      group.setAttribute("role", "img");
      const level = this.levelY(row, first.value, y);
      group.append(...stepShapes(x, level));
      if (row.levels) this.drawLabel(group, lane, index, describe(first.value));
    } else {
      group.setAttribute("role", "img");
      const text = describe(first.value);
      const { shapes, inside } = marbleShapes(x, y, this.colours.of(first), text);
      group.append(...shapes);
      if (!inside) this.drawLabel(group, lane, index, text);
    }
    if (badge) {
      const node = threadBadge(cluster.events.filter((event) => !isMark(event)), x, y);
      if (node) group.appendChild(node);
    }
    cluster.differs = lane.kind === "main" && !cluster.mark && this.comparedWith.has(row.name) && this.differs(row, cluster.events);
    if (cluster.differs) {
      group.classList.add("differs");
      group.prepend(svg("circle", { cx: x, cy: y, r: half + 3, class: "differs-ring" }));
    }
    group.setAttribute("aria-label", this.describeCluster(row, lane, cluster) + (cluster.differs ? "; not in every compared row" : ""));
    if (cluster.events.some((event) => event.seq === this.current)) group.setAttribute("tabindex", "0");
    const old = cluster.node;
    const hadFocus = old && document.activeElement === old;
    if (old) old.replaceWith(group);
    else lane.node.appendChild(group);
    cluster.node = group;
    this.nodes.set(group, { row, lane, cluster });
    if (hadFocus) group.focus({ preventScroll: true });
  }

  /**
   * A value written above its glyph, cut to the room between its neighbours: centred labels may
   * each take half the distance to a neighbour, less a margin, so no two labels meet. A `^` or
   * `!` has no label and is lower than one: it takes no room.
   */
  drawLabel(group, lane, index, text) {
    const x = lane.clusters[index].x;
    const valueAt = (from, step) => {
      for (let at = from; at >= 0 && at < lane.clusters.length; at += step) if (!lane.clusters[at].mark) return lane.clusters[at].x;
      return null;
    };
    const previous = valueAt(index - 1, -1) ?? -Infinity;
    const next = valueAt(index + 1, 1) ?? Infinity;
    const shown = fit(text, Math.min(180, Math.min(x - previous, next - x) - 8));
    if (shown) group.appendChild(svg("text", { class: "marble-label", x, y: lane.centre - LABEL_ABOVE, "text-anchor": "middle" }, shown));
  }

  /** What a glyph says to a screen reader and in the detail line: row, lane, values, times, causes. */
  describeCluster(row, lane, cluster) {
    const events = cluster.events;
    const causes = [...new Set(events.flatMap((event) => event.causes ?? []))];
    const because = causes.length ? `; caused by ${causes.map((seq) => this.describeCause(seq)).join(", ")}` : "";
    const where = this.laneName(row, lane, events[0]);
    if (events.length === 1) return `${where}: ${eventText(events[0])}${row.input ? "" : because}`;
    const listed = events.slice(0, 8).map(eventText).join("; ");
    return `${where}: ${events.length} events close together (Enter spreads them): ${listed}${events.length > 8 ? "; …" : ""}${because}`;
  }

  /** "r", "r, lane 2 of 3", "r, 2 identical subscriptions folded", "r's inner request". */
  laneName(row, lane, event) {
    if (lane.kind === "inner") return `${row.title}'s inner ${event.stream.slice(row.name.length + 1)}`;
    const mains = lane.mains;
    const folded = lane.count > 1 ? `, ${lane.count} identical subscriptions folded` : "";
    return mains > 1 ? `${row.title}, lane ${lane.index + 1} of ${mains}${folded}` : `${row.title}${folded}`;
  }

  describeCause(seq) {
    const input = this.inputEvents.get(seq);
    if (!input) return `input event #${seq}`;
    const what = input.kind === "next" ? describe(input.value, 40) : input.kind;
    return `${input.stream.replace(/^input:/, "input ")} ${what} (#${seq})`;
  }

  // MARK: Causes

  /** Every drawn lane, top to bottom. */
  get allLanes() {
    return this.rows.flatMap((row) => row.lanes.map((lane) => ({ row, lane })));
  }

  /** Highlights every glyph that shares a root cause with `cluster`, and draws the lines between them. */
  trace(target) {
    this.traced = target;
    const roots = new Set(target.events.flatMap((event) => (event.causes?.length ? event.causes : [])));
    const seqs = new Set(target.events.map((event) => event.seq));
    this.svg.classList.add("tracing");
    const related = [];
    this.allLanes.forEach(({ row, lane }, order) => {
      for (const cluster of lane.clusters) {
        const hit = cluster.events.some((event) => seqs.has(event.seq) || (event.causes ?? []).some((seq) => roots.has(seq)));
        cluster.node?.classList.toggle("related", hit);
        if (hit) related.push({ row, lane, cluster, order });
      }
    });
    this.traceLayer.replaceChildren();
    const centre = ({ row, lane, cluster }) => [cluster.x, row.top + lane.centre];
    for (const item of related) {
      // From the related glyph in the nearest lane above: the latest one not after it.
      const above = related.filter((other) => other.order < item.order);
      if (!above.length) continue;
      const nearest = Math.max(...above.map((other) => other.order));
      const candidates = above.filter((other) => other.order === nearest);
      const before = candidates.filter((other) => other.cluster.x <= item.cluster.x + 0.5);
      const from = (before.length ? before : candidates).reduce((best, other) =>
        (before.length ? other.cluster.x > best.cluster.x : other.cluster.x < best.cluster.x) ? other : best);
      const [x1, y1] = centre(from);
      const [x2, y2] = centre(item);
      this.traceLayer.appendChild(svg("line", { class: "trace-line", x1, y1, x2, y2 }));
    }
  }

  untrace() {
    this.traced = null;
    lightEdges(this.graph, null);
    this.stackValues.replaceChildren();
    this.svg.classList.remove("tracing");
    this.traceLayer.replaceChildren();
    for (const node of this.svg.querySelectorAll(".related")) node.classList.remove("related");
  }

  // MARK: Pointer and keyboard

  clusterOf(node) {
    const glyph = node?.closest?.(".glyph");
    return glyph ? this.nodes.get(glyph) ?? null : null;
  }

  point(found) {
    if (!found) return;
    this.trace(found.cluster);
    this.detail.textContent = this.describeCluster(found.row, found.lane, found.cluster);
    this.tracedRow = found.row.name;
    lightEdges(this.graph, found.row.name);
    this.showStackValues(found.row, found.lane, found.cluster);
  }

  /** A stack's values written across its lane while it is pointed at or focused: no click needed. */
  showStackValues(row, lane, cluster) {
    this.stackValues.replaceChildren();
    if (cluster.events.length < 2) return;
    const values = cluster.events.map((event) => (event.kind === "next" ? describe(event.value) : event.kind));
    const text = fit(values.join(" · "), Math.max(80, this.width - 2 * PAD));
    const width = textWidth(text) + 10;
    const top = row.top + lane.centre - FIRST_LANE;
    // Centred on the stack, but inside the visible part of the lane.
    const [start, end] = this.view.map((t) => t * this.pxPerMs - PAD);
    const left = Math.max(start + 2, Math.min(cluster.x - width / 2, end - 2 - width));
    this.stackValues.append(
      svg("rect", { class: "stack-values-box", x: left, y: top + 1, width, height: 19, rx: 4 }),
      svg("text", { class: "stack-values-text", x: left + 5, y: top + 15 }, text),
    );
  }

  attachHandlers() {
    // A row's label pointed at or focused lights the edges into and out of it.
    const rowOfLabel = (node) => node?.closest?.("li.stream")?.dataset.stream ?? null;
    this.labels.addEventListener("pointerover", (event) => lightEdges(this.graph, rowOfLabel(event.target)));
    this.labels.addEventListener("pointerleave", () => lightEdges(this.graph, this.traced ? this.tracedRow : null));
    this.labels.addEventListener("focusin", (event) => lightEdges(this.graph, rowOfLabel(event.target)));
    this.labels.addEventListener("focusout", () => lightEdges(this.graph, null));
    this.svg.addEventListener("pointerover", (event) => this.point(this.clusterOf(event.target)));
    this.svg.addEventListener("pointerleave", () => {
      const focused = this.clusterOf(document.activeElement);
      if (focused) this.point(focused);
      else this.untrace();
    });
    this.svg.addEventListener("focusin", (event) => {
      const found = this.clusterOf(event.target);
      if (!found) return;
      this.moveTabStop(found.cluster);
      this.reveal(found.cluster);
      this.point(found);
    });
    this.svg.addEventListener("focusout", (event) => {
      if (!this.svg.contains(event.relatedTarget)) this.untrace();
    });
    this.svg.addEventListener("click", (event) => {
      const found = this.clusterOf(event.target);
      if (!found) return;
      found.cluster.node.focus({ preventScroll: true });
      if (found.cluster.events.length > 1) this.spread(found.cluster);
    });
    this.svg.addEventListener("keydown", (event) => this.key(event));
    this.lanes.addEventListener("wheel", (event) => {
      if (event.ctrlKey) {
        event.preventDefault();
        const box = this.lanes.getBoundingClientRect();
        const at = this.viewStart + (event.clientX - box.left - PAD) / this.pxPerMs;
        this.setFollow(false);
        this.setWindow(this.windowMs * (event.deltaY > 0 ? 1.25 : 0.8), at);
      } else if (event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY)) {
        event.preventDefault();
        this.pan((event.shiftKey ? event.deltaY : event.deltaX) / this.width);
      }
    }, { passive: false });
  }

  moveTabStop(cluster) {
    for (const node of this.svg.querySelectorAll('.glyph[tabindex="0"]')) node.setAttribute("tabindex", "-1");
    cluster.node.setAttribute("tabindex", "0");
    this.current = cluster.events[0].seq;
  }

  /** Scrolls a paused view so that a focused glyph is visible. */
  reveal(cluster) {
    const t = cluster.x / this.pxPerMs;
    const [start, end] = this.view;
    if (t >= start && t <= end) return;
    this.setFollow(false);
    this.viewStart = Math.max(0, t - this.windowMs / 2);
    this.render(this.now);
  }

  /** Zooms in until a stack's events stand apart (unless they happened at one instant). */
  spread(cluster) {
    const times = cluster.events.map((event) => event.t);
    const [low, high] = [Math.min(...times), Math.max(...times)];
    if (high <= low) return;
    this.setFollow(false);
    const wanted = ((high - low) * this.width) / (GAP * (cluster.events.length + 1));
    this.zoomed = true;
    this.windowMs = Math.min(WINDOW_RANGE[1], Math.max(WINDOW_RANGE[0], wanted));
    this.viewStart = Math.max(0, (low + high) / 2 - this.windowMs / 2);
    this.relayout();
    const seq = cluster.events[0].seq;
    const found = this.allLanes.flatMap(({ lane }) => lane.clusters).find((other) => other.events.some((event) => event.seq === seq));
    found?.node.focus({ preventScroll: true });
  }

  /**
   * The arrows move along a lane in time order (Left, Right, Home, End) and between lanes (Up,
   * Down: the nearest glyph of the next lane that has one).
   */
  key(event) {
    const found = this.clusterOf(event.target);
    if (!found) return;
    const { lane, cluster } = found;
    const index = lane.clusters.indexOf(cluster);
    let target = null;
    const nearestIn = (other) => other.clusters.reduce((best, item) =>
      !best || Math.abs(item.x - cluster.x) < Math.abs(best.x - cluster.x) ? item : best, null);
    const laneWith = (direction) => {
      const lanes = this.allLanes.map((item) => item.lane);
      for (let at = lanes.indexOf(lane) + direction; at >= 0 && at < lanes.length; at += direction) {
        if (lanes[at].clusters.length) return lanes[at];
      }
      return null;
    };
    switch (event.key) {
      case "ArrowLeft": target = lane.clusters[index - 1]; break;
      case "ArrowRight": target = lane.clusters[index + 1]; break;
      case "Home": target = lane.clusters[0]; break;
      case "End": target = lane.clusters.at(-1); break;
      case "ArrowUp": { const other = laneWith(-1); target = other && nearestIn(other); break; }
      case "ArrowDown": { const other = laneWith(1); target = other && nearestIn(other); break; }
      case "Enter": case " ": if (cluster.events.length > 1) this.spread(cluster); event.preventDefault(); return;
      case "+": case "=": this.setFollow(false); this.setWindow(this.windowMs / 2, cluster.x / this.pxPerMs); event.preventDefault(); return;
      case "-": this.setFollow(false); this.setWindow(this.windowMs * 2, cluster.x / this.pxPerMs); event.preventDefault(); return;
      case "Escape": this.untrace(); this.detail.textContent = ""; return;
      default: return;
    }
    event.preventDefault();
    target?.node?.focus({ preventScroll: true });
  }

  /** Forgets every event (a `reset`: the server no longer has the ones missed). */
  clear() {
    let moved = false;
    for (const row of this.rows) {
      row.events = [];
      row.inner = [];
      row.step = false;
      moved = this.layoutRow(row) || moved;
    }
    if (moved) this.positionRows();
    this.current = null;
  }
}

/** Whether two placed glyphs are drawn the same: same place, same events, same kind. */
function sameGlyph(a, b) {
  return a.x === b.x && a.mark === b.mark && a.events.length === b.events.length
    && a.events.every((event, index) => event.seq === b.events[index].seq);
}
