// The Inside panel: the objects RAC built for the session — subscribers, compound and serial
// disposables, subjects and their subscribers, connections — at the scrubbed instant (or now),
// drawn as trees of ownership from GET /api/sessions/{sid}/inside (docs/API.md, "Inside"). What
// changed since the instant shown before is marked, and each change is a line of narration.
import { linkInside, sessionInside } from "../lib/api.js";
import { html } from "../lib/dom.js";
import { seconds } from "../lib/format.js";

/** How often an open panel asks again while the session is live, in milliseconds. */
const LIVE_EVERY_MS = 1000;
/** The most narration lines shown: the newest. */
const MAX_LINES = 200;

/** Each node's owners at the instant, from the nodes' `holds`. */
export function ownersOf(nodes) {
  const owners = new Map();
  for (const node of nodes) {
    if (node.disposed !== undefined || node.released !== undefined) continue;
    for (const child of node.holds) owners.set(child, [...(owners.get(child) ?? []), node.id]);
  }
  return owners;
}

/**
 * The trees of ownership at the instant: roots are the objects alive that nothing alive holds,
 * each with its children (what it holds), once each — an object held by two owners is drawn under
 * the first and named under the others. Without `probes`, the playground's probes (objects it adds
 * to watch a stage, not the program's own) are left out and what they hold drawn in their place.
 */
export function ownershipTrees(graph, { probes = true } = {}) {
  const byID = new Map(graph.nodes.map((node) => [node.id, node]));
  const alive = graph.nodes.filter((node) => node.disposed === undefined && node.released === undefined);
  const owners = ownersOf(graph.nodes);
  const placed = new Set();
  const shown = (node) => probes || !node.probe;
  // The trees of `node`: itself with its children, or, for a probe left out, its children's.
  const grow = (node) => {
    placed.add(node.id);
    const children = node.holds.map((id) => byID.get(id)).filter(Boolean).flatMap((child) => {
      if (placed.has(child.id)) return shown(child) ? [{ node: child, again: true, children: [] }] : [];
      return grow(child);
    });
    return shown(node) ? [{ node, children }] : children;
  };
  const roots = alive.filter((node) => !owners.has(node.id)).flatMap((node) => grow(node));
  // What is left alive is held only inside a cycle: draw each such group from its first object.
  for (const node of alive) if (!placed.has(node.id)) roots.push(...grow(node));
  return roots;
}

/** How a node names what it is to the session: its stage's subscription, or a probe of one. */
export function labelOf(node) {
  if (node.stream === undefined) return null;
  return node.probe ? `the playground's probe of ${node.stream} · ${node.subscription}` : `${node.stream} · subscription ${node.subscription}`;
}

/** What changed of each node in the graph's window (`since`, `at`]: "new", "swapped", "disposed". */
export function changesByNode(graph) {
  const marks = new Map();
  const mark = (id, word) => marks.set(id, [...new Set([...(marks.get(id) ?? []), word])]);
  for (const change of graph.changes) {
    if (change.op === "created") mark(change.node, "new");
    else if (change.op === "swapped") mark(change.node, "swapped");
    else if (change.op === "disposed") mark(change.node, "disposed");
  }
  return marks;
}

export class InsidePanel {
  /** The panel's fixed markup is in session-markup.js; this fills it. */
  constructor({ toggle, body, summary, trees, gone, narration, note, probes }) {
    Object.assign(this, { toggle, body, summary, trees, gone, narration, note, probes });
    this.graph = null;
    probes.addEventListener("change", () => this.graph && this.render(this.graph));
    this.open = false;
    this.shownAt = null; // the instant drawn last (its changes since the one before are marked)
    this.wanted = null; // the instant asked for; null: now
    this.timer = null;
    toggle.addEventListener("click", () => this.setOpen(!this.open));
  }

  /**
   * A new session (or none): a live session's objects are asked for as it runs, a kept run's
   * (`replay`, by its link) from what it kept; a room's are shown to nobody yet.
   */
  show({ sessionID, room = null, replay = null }) {
    this.sessionID = sessionID ?? replay?.id;
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

  async refresh() {
    this.timer = null;
    if (!this.open) return;
    const sessionID = this.sessionID;
    const since = this.shownAt !== null && (this.wanted === null || this.wanted >= this.shownAt) ? this.shownAt : 0;
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
    const everything = graph.nodes.filter((node) => node.disposed === undefined && node.released === undefined);
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
    const list = html("ul", "inside-tree");
    for (const tree of ownershipTrees(graph, { probes: this.probes.checked })) list.append(this.item(tree, marks));
    this.trees.replaceChildren(list);
    const ended = graph.nodes.filter((node) => node.disposed !== undefined || node.released !== undefined);
    this.gone.textContent = ended.length
      ? `Ended since ${seconds(graph.since)}: ${ended.map((node) => `#${node.id} ${node.racClass} (${node.disposed !== undefined ? "disposed" : "freed"})`).join(", ")}.`
      : "";
    const lines = graph.changes.slice(-MAX_LINES).map((change) => {
      const line = html("li", `inside-line inside-${change.op}`);
      line.append(html("span", "inside-time", seconds(change.t)), " ", change.narration);
      return line;
    });
    if (graph.changes.length > MAX_LINES) lines.unshift(html("li", "inside-line hint", `(${graph.changes.length - MAX_LINES} earlier changes not shown)`));
    this.narration.replaceChildren(...lines);
  }

  item({ node, children, again }, marks) {
    const item = html("li", node.probe ? "inside-node inside-probe" : "inside-node");
    item.dataset.node = node.id;
    item.dataset.kind = node.kind;
    if (node.stream !== undefined) Object.assign(item.dataset, { stream: node.stream, sub: node.subscription });
    const head = html("span", "inside-head");
    head.append(html("strong", undefined, `#${node.id} ${node.racClass}`), " ", html("code", "inside-type", node.type));
    const label = labelOf(node);
    if (label) head.append(" ", html("span", "inside-label", label));
    if (again) {
      head.append(" ", html("span", "hint", "(drawn above: held here too)"));
    } else {
      const facts = [`made at ${seconds(node.created)}`];
      if (node.buffered !== undefined) facts.push(`buffers ${node.buffered}`);
      head.append(" ", html("span", "hint", facts.join(", ")));
      for (const word of marks.get(node.id) ?? []) head.append(" ", html("span", `inside-mark inside-mark-${word}`, word));
    }
    item.append(head);
    if (children.length) {
      const list = html("ul", "inside-tree");
      for (const child of children) list.append(this.item(child, marks));
      item.append(list);
    }
    return item;
  }
}
