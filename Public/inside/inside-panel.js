// The Inside panel: the objects RAC built for the session — subscribers, compound and serial
// disposables, subjects and their subscribers, connections — at the scrubbed instant (or now),
// drawn as trees of ownership from GET /api/sessions/{sid}/inside (docs/API.md, "Inside"). What
// changed since the instant shown before is marked, and each change is a line of narration.
// Lanes and objects point at each other: a glyph pointed at on the diagram selects its
// subscription's objects here (`select`); an object pointed at or focused here lights its lane
// there (`onLight`). At the end of a kept run, what nothing can let go is marked a leak.
import { belongsTo, changesByNode, isAlive, labelOf, leaksOf, ownershipTrees } from "./inside-graph.js";
import { linkInside, sessionInside } from "../lib/api.js";
import { html } from "../lib/dom.js";
import { seconds } from "../lib/format.js";

/** How often an open panel asks again while the session is live, in milliseconds. */
const LIVE_EVERY_MS = 1000;
/** The most narration lines shown: the newest (a box of sixteen lines scrolls through them). */
const MAX_LINES = 60;
/** How far before an instant its changes are shown when no earlier instant was shown. */
const LOOK_BACK_MS = 1000;
/** The most objects named as ended since the instant compared with: the newest. */
const MAX_ENDED = 40;

export class InsidePanel {
  /** The panel's fixed markup is in session-markup.js; this fills it. */
  /**
   * `lanes` answers from the events shown: `ended(stream, sub, t)` whether that subscription's `!`
   * came by `t`, and `end()` the time of the last one; `onLight` is given the subscription
   * (`{stream, sub}`) of the object pointed at or focused, or null; `onGraph` each graph drawn;
   * `onOpen` the live session shown while the panel is open, or null.
   */
  constructor({ toggle, body, summary, selection, trees, gone, narration, note, probes, lanes, onLight, onGraph, onOpen }) {
    Object.assign(this, { toggle, body, summary, selection, trees, gone, narration, note, probes, lanes, onLight, onGraph, onOpen });
    this.graph = null;
    probes.addEventListener("change", () => this.graph && this.render(this.graph));
    this.open = false;
    this.shownAt = null; // the instant drawn last (its changes since the one before are marked)
    this.wanted = null; // the instant asked for; null: now
    this.selected = null; // the subscription whose objects are selected, {stream, sub, kind, t}
    this.timer = null;
    toggle.addEventListener("click", () => this.setOpen(!this.open));
    this.attachPointing();
  }

  /** An object pointed at or focused lights its lane: its own, or that of the nearest owner with one. */
  attachPointing() {
    const laneOf = (target) => {
      const item = target?.closest?.("li.inside-node[data-stream]");
      return item ? { stream: item.dataset.stream, sub: item.dataset.sub } : null;
    };
    // While the arrow keys walk the objects, a pointer that did not move (the trees scrolled
    // under it) lights nothing: the lane lit is the focused object's until the pointer moves.
    let walking = false;
    this.trees.addEventListener("pointermove", (event) => {
      if (event.movementX || event.movementY) walking = false;
      if (!walking) this.onLight?.(laneOf(event.target));
    });
    this.trees.addEventListener("pointerover", (event) => walking || this.onLight?.(laneOf(event.target)));
    this.trees.addEventListener("pointerleave", () => this.onLight?.(laneOf(document.activeElement)));
    this.trees.addEventListener("focusin", (event) => this.onLight?.(laneOf(event.target)));
    this.trees.addEventListener("focusout", (event) => {
      if (!this.trees.contains(event.relatedTarget)) this.onLight?.(null);
    });
    // One tab stop in the trees; the arrows move it from object to object in the order drawn.
    this.trees.addEventListener("keydown", (event) => {
      const heads = [...this.trees.querySelectorAll(".inside-head")];
      const at = heads.indexOf(document.activeElement);
      const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: heads.length - 1 }[event.key];
      if (to === undefined || !heads.length) return;
      event.preventDefault();
      walking = true;
      this.moveStop(heads[Math.max(0, Math.min(heads.length - 1, to))]).focus();
    });
  }

  moveStop(head) {
    for (const other of this.trees.querySelectorAll('.inside-head[tabindex="0"]')) other.tabIndex = -1;
    head.tabIndex = 0;
    return head;
  }

  /**
   * Selects the objects of the subscription whose glyph (`^`, `!`, a value) was pointed at on the
   * diagram (`{stream, sub, kind, t}`), or none: they are marked and the first is scrolled to.
   */
  select(target) {
    this.selected = target;
    if (this.open && this.graph) this.render(this.graph);
  }

  /**
   * A new session (or none): a live session's objects are asked for as it runs, a kept run's
   * (`replay`, by its link) from what it kept; a room's are shown to nobody yet.
   */
  show({ sessionID, room = null, replay = null }) {
    this.sessionID = sessionID ?? replay?.id;
    this.replay = replay;
    this.selected = null;
    this.read = replay ? (query) => linkInside(replay.id, query) : room || !sessionID ? null : (query) => sessionInside(sessionID, query);
    this.live = !replay;
    this.available = Boolean(this.read);
    this.shownAt = null;
    this.wanted = null;
    this.note.hidden = this.available;
    this.note.textContent = "A room's session shows its objects to nobody yet.";
    this.toggle.disabled = !this.available;
    this.setOpen(false);
  }

  hide() {
    this.setOpen(false);
  }

  setOpen(open) {
    this.open = open && this.available;
    this.toggle.setAttribute("aria-expanded", String(this.open));
    this.toggle.textContent = this.open ? "Hide the objects" : "Show the objects";
    this.body.hidden = !this.open;
    this.onOpen?.(this.open && this.live ? this.sessionID : null);
    clearTimeout(this.timer);
    this.timer = null;
    if (this.open) this.refresh();
  }

  /** The scrubber's instant (milliseconds), or null for now. */
  setInstant(t) {
    this.wanted = t;
    if (!this.open) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 120);
  }

  /**
   * The instant the one asked for is compared with: the one shown before, when time moved on from
   * it; else (the first look, or going back) the second before — what just happened there, not
   * every change since the start (after a long run, thousands: slow to answer and to draw).
   */
  sinceFor(wanted) {
    if (this.shownAt !== null && (wanted === null || wanted >= this.shownAt)) return this.shownAt;
    return Math.max(0, (wanted ?? this.lanes.end()) - LOOK_BACK_MS);
  }

  async refresh() {
    this.timer = null;
    if (!this.open) return;
    const sessionID = this.sessionID;
    const since = this.sinceFor(this.wanted);
    try {
      const graph = await this.read({ at: this.wanted, since });
      if (!this.open || sessionID !== this.sessionID) return;
      this.render(graph);
      this.shownAt = graph.at;
    } catch (error) {
      this.summary.textContent = `The objects could not be read: ${error.message}`;
    }
    if (this.open && this.live && this.wanted === null) this.timer = setTimeout(() => this.refresh(), LIVE_EVERY_MS);
  }

  render(graph) {
    this.graph = graph;
    const everything = graph.nodes.filter(isAlive);
    const alive = everything.filter((node) => !node.probe);
    const probes = everything.length - alive.length;
    const kinds = new Map();
    for (const node of alive) kinds.set(node.racClass, (kinds.get(node.racClass) ?? 0) + 1);
    const counts = [...kinds].sort((a, b) => b[1] - a[1]).map(([name, count]) => `${count} ${name}`).join(", ");
    const stopped = graph.stoppedAt !== undefined ? ` The log filled at ${seconds(graph.stoppedAt)}: nothing after is known.` : "";
    const watched = probes ? ` and ${probes} of the playground's probes${this.probes.checked ? "" : " (not drawn)"}` : "";
    this.summary.textContent = `At ${seconds(graph.at)}: ${alive.length} object${alive.length === 1 ? "" : "s"} of the pipeline alive${counts ? ` (${counts})` : ""}${watched}; `
      + `${graph.changes.length} change${graph.changes.length === 1 ? "" : "s"} since ${seconds(graph.since)}.${stopped}`;
    const marks = changesByNode(graph);
    const trees = ownershipTrees(graph, { probes: this.probes.checked });
    // A kept run has finished by its last event (and at its end, the default instant): from there
    // on, nothing more can let go of what is left.
    const finished = Boolean(this.replay) && (this.wanted === null || graph.at >= this.lanes.end());
    const leaks = leaksOf(graph, trees, { finished, laneEnded: (stream, sub) => this.lanes.ended(stream, sub, graph.at) });
    for (const [id] of leaks) marks.set(id, [...(marks.get(id) ?? []), "leak"]);
    if (leaks.size) this.summary.textContent += ` ${leaks.size} leak${leaks.size === 1 ? "" : "s"}: alive at the run's end, though nothing can let ${leaks.size === 1 ? "it" : "them"} go.`;
    let list = this.trees.firstElementChild;
    if (list?.tagName !== "UL") {
      list = html("ul", "inside-tree");
      this.trees.replaceChildren(list);
    }
    this.patch(list, trees, marks, leaks);
    // One tab stop: where it was, if that object is still drawn, else on the first.
    const stop = this.trees.querySelector('.inside-head[tabindex="0"]') ?? this.trees.querySelector(".inside-head");
    if (stop) this.moveStop(stop);
    this.showSelection(graph);
    this.onGraph?.(graph);
    // The newest that ended, named; the rest counted (after a long run, thousands ended since 0).
    const ended = graph.nodes.filter((node) => !isAlive(node));
    const named = ended.slice(-MAX_ENDED).map((node) => `#${node.id} ${node.racClass} (${node.disposed !== undefined ? "disposed" : "freed"})`);
    const more = ended.length > MAX_ENDED ? ` — and ${ended.length - MAX_ENDED} before them` : "";
    this.gone.textContent = ended.length ? `Ended since ${seconds(graph.since)}: ${named.join(", ")}${more}.` : "";
    const lines = graph.changes.slice(-MAX_LINES).map((change) => {
      const line = html("li", `inside-line inside-${change.op}`);
      line.append(html("span", "inside-time", seconds(change.t)), " ", change.narration);
      return line;
    });
    if (graph.changes.length > MAX_LINES) lines.unshift(html("li", "inside-line hint", `(${graph.changes.length - MAX_LINES} earlier changes not shown)`));
    this.narration.replaceChildren(...lines);
  }

  /** Says which objects the subscription pointed at on the diagram has, and scrolls to the first. */
  showSelection(graph) {
    const target = this.selected;
    const items = target ? [...this.trees.querySelectorAll("li.inside-selected")] : [];
    if (!target) {
      this.selection.textContent = "";
      return;
    }
    const what = `${target.stream} · subscription ${target.sub}`;
    const nodes = graph.nodes.filter((node) => belongsTo(node, target) && (this.probes.checked || !node.probe));
    const named = nodes.map((node) => `#${node.id} ${node.racClass}${isAlive(node) ? "" : node.disposed !== undefined ? " (disposed)" : " (freed)"}`);
    this.selection.textContent = nodes.length
      ? `Selected from the diagram: ${what}, its ${named.join(", ")}.`
      : `Selected from the diagram: ${what} has no object here at ${seconds(graph.at)}${target.t > graph.at ? `: it begins at ${seconds(target.t)}` : ""}.`;
    const [head] = items.map((item) => item.querySelector(".inside-head"));
    if (!head) return;
    // Scrolled within the trees only: the page stays where the learner is looking.
    const box = this.trees.getBoundingClientRect();
    const place = head.getBoundingClientRect();
    if (place.top < box.top || place.bottom > box.bottom) this.trees.scrollTop += place.top - box.top - box.height / 3;
  }

  /**
   * Makes `list` hold the items of `trees` in order. An object drawn before keeps its item (and
   * what it holds is patched the same way), its line drawn again only if it changed: a draw at the
   * next instant lays out what changed, and a focused object keeps the focus while the panel
   * follows a live session.
   */
  patch(list, trees, marks, leaks) {
    const before = new Map([...list.children].map((item) => [item.dataset.key, item]));
    let next = list.firstElementChild;
    for (const tree of trees) {
      const key = `${tree.node.id}${tree.again ? "+" : ""}`;
      const item = before.get(key) ?? html("li");
      before.delete(key);
      item.dataset.key = key;
      this.fill(item, tree, marks, leaks);
      let held = item.querySelector(":scope > ul");
      if (tree.children.length) {
        if (!held) held = item.appendChild(html("ul", "inside-tree"));
        this.patch(held, tree.children, marks, leaks);
      } else {
        held?.remove();
      }
      if (item === next) next = next.nextElementSibling;
      else list.insertBefore(item, next);
    }
    for (const item of before.values()) item.remove();
  }

  /** An object's item: its classes and data, and its line — written again only when it changed. */
  fill(item, { node, again }, marks, leaks) {
    const selected = !again && belongsTo(node, this.selected);
    const leak = !again && leaks.has(node.id);
    const classes = ["inside-node", node.probe && "inside-probe", selected && "inside-selected", leak && "inside-leak"].filter(Boolean).join(" ");
    if (item.className !== classes) item.className = classes;
    Object.assign(item.dataset, { node: node.id, kind: node.kind });
    if (node.stream !== undefined) Object.assign(item.dataset, { stream: node.stream, sub: node.subscription });
    if (selected) item.setAttribute("aria-current", "true");
    else item.removeAttribute("aria-current");
    const label = labelOf(node);
    const facts = [`made at ${seconds(node.created)}`];
    if (node.buffered !== undefined) facts.push(`buffers ${node.buffered}`);
    const words = again ? [] : marks.get(node.id) ?? [];
    const why = leak ? leaks.get(node.id) : "";
    const signature = [node.id, node.racClass, node.type, label, again, facts.join(), words.join(), why].join("|");
    if (item.signature === signature) return;
    item.signature = signature;
    const head = html("span", "inside-head");
    head.tabIndex = -1;
    head.append(html("strong", undefined, `#${node.id} ${node.racClass}`), " ", html("code", "inside-type", node.type));
    if (label) head.append(" ", html("span", "inside-label", label));
    if (again) {
      head.append(" ", html("span", "hint", "(drawn above: held here too)"));
    } else {
      head.append(" ", html("span", "hint", facts.join(", ")));
      for (const word of words) head.append(" ", html("span", `inside-mark inside-mark-${word}`, word));
      if (why) head.append(" ", html("span", "inside-why", why));
    }
    const old = item.querySelector(":scope > .inside-head");
    if (old) {
      const focused = old === document.activeElement;
      head.tabIndex = old.tabIndex;
      old.replaceWith(head);
      if (focused) head.focus({ preventScroll: true });
    } else {
      item.prepend(head);
    }
  }
}
