// One subscription lit on the diagram: its glyphs (values, `^`, `!`, terminal) and its line,
// the others dimmed — what the Inside panel asks for while one of the subscription's objects is
// pointed at or focused. Glyphs drawn later are lit as they are drawn (drawCluster, drawLines).

/** Whether the glyph or line of `stream`'s subscription `sub` is the one lit. */
export function isLit(diagram, stream, sub) {
  const lit = diagram.litSubscription;
  return Boolean(lit) && lit.stream === stream && String(lit.sub) === String(sub);
}

/** Lights `target` (`{stream, sub}`, the ids the events' `stream` and `sub` carry), or none (null). */
export function lightSubscription(diagram, target) {
  diagram.litSubscription = target;
  diagram.svg.classList.toggle("sub-lighting", Boolean(target));
  for (const node of diagram.svg.querySelectorAll(".glyph, .lane-line")) {
    const stream = node.dataset.source ?? node.dataset.stream;
    node.classList.toggle("sub-lit", isLit(diagram, stream, node.dataset.sub));
  }
}
