// One marble diagram for a whole session: the inputs and every stage of the pipeline on one time
// axis, as RxMarbles draws an operator — coloured marbles with their value, a bar for completion,
// a cross for an error — with a graph column that shows which rows each stage reads, boolean
// streams as step lines, marbles too close to tell apart stacked with a count, and "why did this
// fire?": pointing at (or focusing) a marble highlights every event that shares its root cause.
// A marble's colour is its root cause's: the input event that started it.
import { drawGraph, lightEdges } from "./diagram-graph.js";
import { html, svg } from "./dom.js";
import { CauseColours, describe, seconds } from "./format.js";

/** Row height, axis band height, marble radius, and the least distance between two glyphs' centres. */
const ROW = 50;
const AXIS = 26;
const RADIUS = 12;
const GAP = 2 * RADIUS + 4;
/** Where a row's label baseline, glyphs and step levels sit, from the row's top. */
const LABEL_BASELINE = 15;
const GLYPH_Y = 33;
const HIGH_Y = 24;
const LOW_Y = 42;
const DOT = 5;
/** Room before time zero, so that the first marbles are not cut off by the lane's edge. */
const PAD = RADIUS + 6;
/** Where "now" sits when the view follows time, as a share of the lane width. */
const NOW_AT = 0.85;
/** Events kept per row; the oldest go first. */
const KEEP = 400;
/** Subscriptions' starts and ends kept while the session's counts are on their way. */
const MAX_UNCOUNTED = 5000;
const LABEL_FONT = "14px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
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

const measurer = document.createElement("canvas").getContext("2d");
function textWidth(text) {
  measurer.font = LABEL_FONT;
  return measurer.measureText(text).width;
}

/** `text` cut (with "…") to at most `width` pixels; "" when not even two characters fit. */
function fit(text, width) {
  if (textWidth(text) <= width) return text;
  for (let length = text.length - 1; length >= 2; length -= 1) {
    const cut = text.slice(0, length) + "…";
    if (textWidth(cut) <= width) return cut;
  }
  return "";
}

/** An event as words: what it is, its value, its time, and the thread that delivered it. */
function eventText(event) {
  const on = event.thread ? ` on the ${event.thread} thread` : "";
  if (event.kind === "completed") return `completed at ${seconds(event.t)}${on}`;
  if (event.kind === "error") return `error ${describe(event.value?.code ?? "", 40)}: ${describe(event.value?.message ?? "", 120)} at ${seconds(event.t)}${on}`;
  return `${describe(event.value, 120)} at ${seconds(event.t)}${on}`;
}

/** The letter a thread's badge shows: its name's first letter, upper case (`S` session, `B` background…). */
function threadLetter(thread) {
  return (thread ?? "?").charAt(0).toUpperCase();
}

export class Diagram {
  /**
   * `root` receives the diagram; `rows` are `{name, title, operator, from, description, input}` in
   * the order drawn (inputs first); `detail` is the live region that tells the marble pointed at;
   * `windowMs` the time across (null: chosen from the width); `colours` the session's colours by
   * cause (kept when the diagram is drawn again with other rows).
   */
  constructor(root, rows, { detail, windowMs = null, colours = new CauseColours(), onViewChange, onExpand, threads = false }) {
    this.root = root;
    this.threads = threads; // whether each glyph wears a badge naming its thread
    this.onExpand = onExpand;
    this.detail = detail;
    this.colours = colours;
    this.zoomed = windowMs !== null; // whether the learner chose the window (else it is the default)
    this.onViewChange = onViewChange;
    this.follow = true;
    this.viewStart = 0;
    this.now = 0;
    this.rows = rows.map((row, index) => ({ ...row, index, events: [], clusters: [], step: false, count: 0, subscriptions: 0, live: 0 }));
    this.byName = new Map(this.rows.map((row) => [row.name, row]));
    for (const row of this.rows) row.from = row.from.map((name) => this.byName.get(name)).filter(Boolean);
    this.inputEvents = new Map(); // seq -> input event, to name causes
    this.countedTo = undefined; // the seq up to which the server counted subscriptions (seedSubscriptions)
    this.uncounted = []; // subscriptions' starts and ends seen before those counts came
    this.current = null; // the seq of the marble that holds the diagram's tab stop
    this.traced = null;
    this.build();
    this.windowMs = windowMs ?? defaultWindow(this.width);
  }

  // MARK: Structure

  build() {
    this.root.replaceChildren();
    const height = AXIS + this.rows.length * ROW;
    const grid = html("div", "diagram-grid");
    grid.style.setProperty("--rows-height", `${height}px`);
    const labels = html("ol", "row-labels");
    labels.id = "streams";
    labels.setAttribute("aria-label", "Rows: the inputs, then the stages in pipeline order");
    for (const row of this.rows) labels.appendChild(this.rowLabel(row));
    this.graph = drawGraph(this.rows, { height, top: AXIS, rowHeight: ROW });
    const lanes = html("div", "lanes");
    this.svg = svg("svg", { class: "lanes-svg", height, role: "group", "aria-label": "Marbles on one time axis" });
    this.bands = svg("g", { class: "bands", "aria-hidden": "true" });
    this.axis = svg("g", { class: "axis", "aria-hidden": "true" });
    this.content = svg("g", { class: "content" });
    this.traceLayer = svg("g", { class: "trace", "aria-hidden": "true" });
    this.nowLine = svg("line", { class: "now-line", y1: 0, y2: height, "aria-hidden": "true" });
    for (const row of this.rows) {
      const top = AXIS + row.index * ROW;
      this.bands.appendChild(svg("rect", { class: `band band-${row.index % 2 ? "odd" : "even"}`, x: 0, y: top, width: "100%", height: ROW }));
      row.group = svg("g", { class: "row", "data-stream": row.name });
      row.tail = svg("path", { class: "step-line" });
      row.group.appendChild(row.tail);
      this.content.appendChild(row.group);
    }
    this.content.insertBefore(this.traceLayer, this.content.firstChild);
    this.stackValues = svg("g", { class: "stack-values", "aria-hidden": "true" });
    this.content.appendChild(this.stackValues);
    this.svg.append(this.bands, this.axis, this.content, this.nowLine);
    lanes.appendChild(this.svg);
    grid.append(labels, this.graph, lanes);
    this.labels = labels;
    this.lanes = lanes;
    this.root.appendChild(grid);
    this.attachHandlers();
    this.width = lanes.clientWidth || 300;
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
    for (const row of this.rows) this.layoutRow(row);
    this.render(this.now);
    this.onViewChange?.();
  }

  /** Scrolls to `now` (when following), redraws the axis and the "now" line. */
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
    for (const row of this.rows) if (row.step) this.drawStep(row);
    this.drawAxis();
  }

  drawAxis() {
    const [start, end] = this.view;
    const steps = [10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000];
    const step = steps.find((candidate) => candidate * this.pxPerMs >= 64) ?? 600_000;
    const key = `${start}|${end}|${step}`;
    if (key === this.axisKey) return;
    this.axisKey = key;
    this.axis.replaceChildren();
    const height = AXIS + this.rows.length * ROW;
    for (let t = Math.max(0, Math.ceil((start - PAD / this.pxPerMs) / step) * step); t <= end; t += step) {
      const x = PAD + (t - start) * this.pxPerMs;
      this.axis.appendChild(svg("line", { class: "grid-line", x1: x, x2: x, y1: AXIS - 5, y2: height }));
      // Near an edge a label is anchored inside the lane, so that none is cut off.
      const anchor = x < 24 ? "start" : x > this.width - 24 ? "end" : "middle";
      this.axis.appendChild(svg("text", { class: "tick-label", x, y: 16, "text-anchor": anchor, "data-ms": t }, seconds(t)));
    }
  }

  // MARK: Events

  /** Adds one event (of a row's stream) and redraws what it changes. */
  add(event) {
    if (event.kind === "subscribed" || event.kind === "disposed") {
      this.subscription(event);
      return;
    }
    const row = this.byName.get(event.stream);
    if (!row) return;
    if (row.input) {
      this.inputEvents.set(event.seq, event);
      this.colours.assign(event.seq);
    }
    if (this.inputEvents.size > KEEP * 4) this.inputEvents.delete(this.inputEvents.keys().next().value);
    row.events.push(event);
    row.count += 1;
    this.showCount(row);
    row.latest.textContent = event.kind === "next" ? describe(event.value, 120) : event.kind;
    row.latest.dataset.kind = event.kind;
    const wasStep = row.step;
    row.step = this.isStep(row);
    if (row.events.length > KEEP || wasStep !== row.step) {
      if (row.events.length > KEEP) row.events.splice(0, row.events.length - KEEP);
      this.layoutRow(row);
      return;
    }
    const x = event.t * this.pxPerMs;
    const last = row.clusters.at(-1);
    if (last && x - last.x < GAP) {
      last.events.push(event);
      this.drawCluster(row, row.clusters.length - 1);
    } else {
      row.clusters.push({ x, events: [event] });
      this.drawCluster(row, row.clusters.length - 1);
      if (row.clusters.length > 1) this.drawCluster(row, row.clusters.length - 2); // its label's room changed
    }
    if (row.step) this.drawStep(row);
    if (this.current === null) this.current = event.seq;
    if (this.traced) this.trace(this.traced);
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
    if (!row.subscriptions) {
      row.countLabel.textContent = events;
      return;
    }
    const subs = `${row.subscriptions} sub${row.subscriptions === 1 ? "" : "s"}`;
    const live = row.live === row.subscriptions ? "" : `, ${row.live} live`;
    row.countLabel.textContent = `${events} · ${subs}${live}`;
    row.countLabel.title = `${row.subscriptions} subscription${row.subscriptions === 1 ? "" : "s"} so far (each runs the stream's work again), ${row.live} live now`;
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

  /** The height of a step row's level for `value`, from the row's top. */
  levelY(row, value) {
    if (!row.levels) return value ? HIGH_Y : LOW_Y;
    const index = Math.max(0, row.levels.indexOf(value));
    return row.levels.length < 2 ? HIGH_Y : HIGH_Y + ((LOW_Y - HIGH_Y) * index) / (row.levels.length - 1);
  }

  /** Groups a row's events into glyphs at least GAP apart, and draws them. */
  layoutRow(row) {
    const active = document.activeElement;
    const focused = active?.classList?.contains("glyph") && active.dataset.stream === row.name ? Number(active.dataset.seq) : null;
    const scale = this.pxPerMs;
    row.clusters = [];
    for (const event of row.events) {
      const x = event.t * scale;
      const last = row.clusters.at(-1);
      if (last && x - last.x < GAP) last.events.push(event);
      else row.clusters.push({ x, events: [event] });
    }
    for (const cluster of row.clusters) cluster.node = null;
    row.group.replaceChildren(row.tail);
    row.clusters.forEach((_, index) => this.drawCluster(row, index));
    if (row.step) this.drawStep(row);
    else row.tail.removeAttribute("d");
    // Focus and the diagram's one tab stop survive a new layout (or move to a glyph still drawn).
    const again = row.clusters.find((cluster) => cluster.events.some((event) => event.seq === focused));
    if (again) again.node.focus({ preventScroll: true });
    if (!this.svg.querySelector('.glyph[tabindex="0"]')) {
      const first = this.svg.querySelector(".glyph");
      this.current = first ? Number(first.dataset.seq) : null;
      first?.setAttribute("tabindex", "0");
    }
    if (this.traced) this.trace(this.traced);
  }

  /** A boolean row's level: high for true, low for false, from its first value to now. */
  drawStep(row) {
    const scale = this.pxPerMs;
    let d = "";
    let level = null;
    let end = null;
    for (const event of row.events) {
      if (event.kind !== "next") {
        end = event.t;
        continue;
      }
      const x = event.t * scale;
      const y = AXIS + row.index * ROW + this.levelY(row, event.value);
      d += level === null ? `M${x} ${y}` : ` H${x} V${y}`;
      level = y;
    }
    if (level !== null) d += ` H${Math.max(0, (end ?? this.now)) * scale}`;
    row.tail.setAttribute("d", d);
  }

  /** Draws (or redraws in place) one glyph: a marble, a step dot, a bar, a cross, or a stack. */
  drawCluster(row, index) {
    const cluster = row.clusters[index];
    const top = AXIS + row.index * ROW;
    const [first] = cluster.events;
    const group = svg("g", { class: "glyph", tabindex: "-1", "data-stream": row.name, "data-seq": first.seq });
    group.dataset.seqs = cluster.events.map((event) => event.seq).join(" ");
    const x = cluster.x;
    if (cluster.events.length > 1) {
      group.classList.add("stack");
      group.setAttribute("role", "button");
      group.appendChild(svg("circle", { class: "stack-shadow", cx: x + 3, cy: top + GLYPH_Y - 3, r: RADIUS }));
      group.appendChild(svg("circle", { class: "marble-circle", cx: x, cy: top + GLYPH_Y, r: RADIUS }));
      group.appendChild(svg("text", { class: "marble-text stack-count", x, y: top + GLYPH_Y + 5, "text-anchor": "middle" },
        String(cluster.events.length)));
    } else if (first.kind === "completed") {
      group.setAttribute("role", "img");
      group.appendChild(svg("rect", { class: "glyph-hit", x: x - 6, y: top + GLYPH_Y - RADIUS, width: 12, height: 2 * RADIUS }));
      group.appendChild(svg("line", { class: "completed-bar", x1: x, x2: x, y1: top + GLYPH_Y - RADIUS, y2: top + GLYPH_Y + RADIUS }));
    } else if (first.kind === "error") {
      group.setAttribute("role", "img");
      const s = RADIUS * 0.7;
      group.appendChild(svg("rect", { class: "glyph-hit", x: x - RADIUS, y: top + GLYPH_Y - RADIUS, width: 2 * RADIUS, height: 2 * RADIUS }));
      group.appendChild(svg("path", { class: "error-cross", d: `M${x - s} ${top + GLYPH_Y - s} L${x + s} ${top + GLYPH_Y + s} M${x + s} ${top + GLYPH_Y - s} L${x - s} ${top + GLYPH_Y + s}` }));
    } else if (row.step) {
      group.setAttribute("role", "img");
      const y = top + this.levelY(row, first.value);
      group.appendChild(svg("circle", { class: "glyph-hit", cx: x, cy: y, r: RADIUS }));
      group.appendChild(svg("circle", { class: "step-dot", cx: x, cy: y, r: DOT }));
      if (row.levels) this.drawLabel(group, row, index, describe(first.value), top);
    } else {
      group.setAttribute("role", "img");
      const text = describe(first.value);
      const fill = this.colours.of(first);
      group.appendChild(svg("circle", { class: "marble-circle", cx: x, cy: top + GLYPH_Y, r: RADIUS, fill }));
      if (textWidth(text) <= 2 * RADIUS - 5) {
        group.appendChild(svg("text", { class: "marble-text", x, y: top + GLYPH_Y + 5, "text-anchor": "middle" }, text));
      } else {
        this.drawLabel(group, row, index, text, top);
      }
    }
    if (this.threads) this.drawThreadBadge(group, cluster, top);
    group.setAttribute("aria-label", this.describeCluster(row, cluster));
    if (cluster.events.some((event) => event.seq === this.current)) group.setAttribute("tabindex", "0");
    const old = cluster.node;
    const hadFocus = old && document.activeElement === old;
    if (old) old.replaceWith(group);
    else row.group.appendChild(group);
    cluster.node = group;
    if (hadFocus) group.focus({ preventScroll: true });
  }

  /**
   * The badge at a glyph's lower right that names the thread (or threads) its events came on: a
   * letter each, never colour alone, the names in full in the glyph's label and title.
   */
  drawThreadBadge(group, cluster, top) {
    const threads = [...new Set(cluster.events.map((event) => event.thread).filter(Boolean))];
    if (!threads.length) return;
    // One letter (two threads: two letters, more: "+"), in the marble's lower right corner, within
    // the row and short of the next glyph (GAP away).
    const text = threads.length > 2 ? "+" : threads.map(threadLetter).join("");
    const width = 3 + 10 * text.length;
    const x = cluster.x + RADIUS - 9;
    const y = top + GLYPH_Y + 1;
    const badge = svg("g", { class: "thread-badge", "data-threads": threads.join(" ") });
    badge.appendChild(svg("title", {}, `on the ${threads.join(" and ")} thread${threads.length > 1 ? "s" : ""}`));
    badge.appendChild(svg("rect", { x, y, width, height: 15, rx: 3 }));
    badge.appendChild(svg("text", { x: x + width / 2, y: y + 12, "text-anchor": "middle" }, text));
    group.appendChild(badge);
  }

  /**
   * A value written above its glyph, cut to the room between its neighbours: centred labels may
   * each take half the distance to a neighbour, less a margin, so no two labels meet.
   */
  drawLabel(group, row, index, text, top) {
    const x = row.clusters[index].x;
    const previous = row.clusters[index - 1]?.x ?? -Infinity;
    const next = row.clusters[index + 1]?.x ?? Infinity;
    const shown = fit(text, Math.min(180, Math.min(x - previous, next - x) - 8));
    if (shown) group.appendChild(svg("text", { class: "marble-label", x, y: top + LABEL_BASELINE, "text-anchor": "middle" }, shown));
  }

  /** What a glyph says to a screen reader and in the detail line: row, values, times, causes. */
  describeCluster(row, cluster) {
    const events = cluster.events;
    const causes = [...new Set(events.flatMap((event) => event.causes ?? []))];
    const because = causes.length ? `; caused by ${causes.map((seq) => this.describeCause(seq)).join(", ")}` : "";
    if (events.length === 1) return `${row.title}: ${eventText(events[0])}${row.input ? "" : because}`;
    const listed = events.slice(0, 8).map(eventText).join("; ");
    return `${row.title}: ${events.length} events close together (Enter spreads them): ${listed}${events.length > 8 ? "; …" : ""}${because}`;
  }

  describeCause(seq) {
    const input = this.inputEvents.get(seq);
    if (!input) return `input event #${seq}`;
    const what = input.kind === "next" ? describe(input.value, 40) : input.kind;
    return `${input.stream.replace(/^input:/, "input ")} ${what} (#${seq})`;
  }

  // MARK: Causes

  /** Highlights every glyph that shares a root cause with `cluster`, and draws the lines between them. */
  trace(target) {
    this.traced = target;
    const roots = new Set(target.events.flatMap((event) => (event.causes?.length ? event.causes : [])));
    const seqs = new Set(target.events.map((event) => event.seq));
    this.svg.classList.add("tracing");
    const related = [];
    for (const row of this.rows) {
      for (const cluster of row.clusters) {
        const hit = cluster.events.some((event) => seqs.has(event.seq) || (event.causes ?? []).some((seq) => roots.has(seq)));
        cluster.node?.classList.toggle("related", hit);
        if (hit) related.push({ row, cluster });
      }
    }
    this.traceLayer.replaceChildren();
    const centre = ({ row, cluster }) => [cluster.x, AXIS + row.index * ROW + GLYPH_Y];
    for (const item of related) {
      // From the related glyph in the nearest row above: the latest one not after it.
      const above = related.filter((other) => other.row.index < item.row.index);
      if (!above.length) continue;
      const nearestRow = Math.max(...above.map((other) => other.row.index));
      const candidates = above.filter((other) => other.row.index === nearestRow);
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
    if (!glyph) return null;
    const row = this.byName.get(glyph.dataset.stream);
    const cluster = row?.clusters.find((item) => item.node === glyph);
    return cluster ? { row, cluster } : null;
  }

  point(found) {
    if (!found) return;
    this.trace(found.cluster);
    this.detail.textContent = this.describeCluster(found.row, found.cluster);
    this.tracedRow = found.row.name;
    lightEdges(this.graph, found.row.name);
    this.showStackValues(found.row, found.cluster);
  }

  /** A stack's values written across its row while it is pointed at or focused: no click needed. */
  showStackValues(row, cluster) {
    this.stackValues.replaceChildren();
    if (cluster.events.length < 2) return;
    const values = cluster.events.map((event) => (event.kind === "next" ? describe(event.value) : event.kind));
    const text = fit(values.join(" · "), Math.max(80, this.width - 2 * PAD));
    const width = textWidth(text) + 10;
    const top = AXIS + row.index * ROW;
    // Centred on the stack, but inside the visible part of the lane.
    const [start, end] = this.view.map((t) => t * this.pxPerMs - PAD);
    const left = Math.max(start + 2, Math.min(cluster.x - width / 2, end - 2 - width));
    this.stackValues.append(
      svg("rect", { class: "stack-values-box", x: left, y: top + 1, width, height: 19, rx: 4 }),
      svg("text", { class: "stack-values-text", x: left + 5, y: top + LABEL_BASELINE }, text),
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
    for (const row of this.rows) {
      const found = row.clusters.find((other) => other.events.some((event) => event.seq === seq));
      if (found) found.node.focus({ preventScroll: true });
    }
  }

  key(event) {
    const found = this.clusterOf(event.target);
    if (!found) return;
    const { row, cluster } = found;
    const index = row.clusters.indexOf(cluster);
    let target = null;
    const nearestIn = (other) => other.clusters.reduce((best, item) =>
      !best || Math.abs(item.x - cluster.x) < Math.abs(best.x - cluster.x) ? item : best, null);
    const rowWith = (direction) => {
      for (let at = row.index + direction; at >= 0 && at < this.rows.length; at += direction) {
        if (this.rows[at].clusters.length) return this.rows[at];
      }
      return null;
    };
    switch (event.key) {
      case "ArrowLeft": target = row.clusters[index - 1]; break;
      case "ArrowRight": target = row.clusters[index + 1]; break;
      case "Home": target = row.clusters[0]; break;
      case "End": target = row.clusters.at(-1); break;
      case "ArrowUp": { const other = rowWith(-1); target = other && nearestIn(other); break; }
      case "ArrowDown": { const other = rowWith(1); target = other && nearestIn(other); break; }
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
    for (const row of this.rows) {
      row.events = [];
      row.step = false;
      this.layoutRow(row);
    }
    this.current = null;
  }
}
