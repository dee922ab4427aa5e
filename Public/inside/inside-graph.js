// The Inside panel's reading of a graph (GET …/inside, docs/API.md "Inside"): who holds whom, the
// trees of ownership, what changed, which objects belong to a lane's subscription, and which are
// leaks. Pure functions of the answer: the panel (inside-panel.js) draws what they find.

/** Whether `node` is alive at the graph's instant: neither disposed nor freed by then. */
export const isAlive = (node) => node.disposed === undefined && node.released === undefined;

/** Each node's owners at the instant, from the nodes' `holds`. */
export function ownersOf(nodes) {
  const owners = new Map();
  for (const node of nodes) {
    if (!isAlive(node)) continue;
    for (const child of node.holds) owners.set(child, [...(owners.get(child) ?? []), node.id]);
  }
  return owners;
}

/**
 * The trees of ownership at the instant: roots are the objects alive that nothing alive holds,
 * each with its children (what it holds), once each — an object held by two owners is drawn under
 * the first and named under the others. Without `probes`, the playground's probes (objects it adds
 * to watch a stage, not the program's own) are left out and what they hold drawn in their place.
 * Objects alive that no root reaches are held only inside a cycle: their trees come last, each
 * marked `cycle`, and `inCycle` names them all.
 */
export function ownershipTrees(graph, { probes = true } = {}) {
  const byID = new Map(graph.nodes.map((node) => [node.id, node]));
  const alive = graph.nodes.filter(isAlive);
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
  const reached = new Set(placed);
  for (const node of alive) {
    if (!placed.has(node.id)) roots.push(...grow(node).map((tree) => ({ ...tree, cycle: true })));
  }
  const inCycle = new Set(alive.map((node) => node.id).filter((id) => !reached.has(id)));
  return Object.assign(roots, { inCycle });
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

/** Whether `node` is an object of `stream`'s subscription `sub` (the ids of a lane's events). */
export function belongsTo(node, target) {
  return Boolean(target) && node.stream === target.stream && String(node.subscription) === String(target.sub);
}

/**
 * The leaks of a finished run at its end, by id, each with why: an object alive that only a cycle
 * holds (nothing outside it can ever let it go), and a stage's subscriber still alive though its
 * lane ended (`laneEnded(stream, sub)`: its `!` came) — in RAC both would have been freed. Before
 * the run's end nothing is called a leak: work still to come may hold what the graph does not show.
 */
export function leaksOf(graph, trees, { finished, laneEnded }) {
  const leaks = new Map();
  if (!finished) return leaks;
  for (const node of graph.nodes) {
    if (!isAlive(node)) continue;
    if (trees.inCycle.has(node.id)) leaks.set(node.id, "held only by a cycle of objects: nothing can let it go");
    else if (node.stream !== undefined && !node.probe && laneEnded(node.stream, node.subscription)) {
      leaks.set(node.id, `alive after its lane's ! (${node.stream} · subscription ${node.subscription} ended)`);
    }
  }
  return leaks;
}
