// Which rows a session's diagram draws, and in which order: pure functions of the scenario (or
// program) summary the server gives, so they can be read and tested apart from the page.

/** Streams that no other stream reads: the pipeline's results, announced to screen readers. */
export function resultStreams(scenario) {
  const read = new Set(scenario.streams.flatMap((stream) => stream.from));
  return new Set(scenario.streams.filter((stream) => !read.has(stream.name)).map((stream) => stream.name));
}

/**
 * The diagram's rows: each input (`input:NAME`, what was done), then the streams in pipeline order,
 * each with the rows it reads. A stream reads the input of its own name (the binding scenario's
 * fields), else a stream of that name, else an input. A program's stages (the operators inside a
 * line's chain) are shown only under a line in `expanded`; a row that reads a hidden stage is drawn
 * from what that stage reads. A stream's `sources` (the subscriptions its work makes inside it)
 * are drawn as inner lanes of its row.
 */
export function diagramRows(scenario, expanded) {
  const streams = new Map(scenario.streams.map((stream) => [stream.name, stream]));
  const inputs = new Set(scenario.inputs.map((input) => input.name));
  const shown = (stream) => !stream.stageOf || expanded.has(stream.stageOf);
  const stageCount = new Map();
  for (const stream of scenario.streams) {
    if (stream.stageOf) stageCount.set(stream.stageOf, (stageCount.get(stream.stageOf) ?? 0) + 1);
  }
  const visibleSources = (stream, seen = new Set()) => stream.from.flatMap((name) => {
    if (name !== stream.name && streams.has(name)) {
      const source = streams.get(name);
      if (shown(source) || seen.has(name)) return [name];
      seen.add(name);
      return visibleSources(source, seen);
    }
    return inputs.has(name) ? [`input:${name}`] : [];
  });
  const rows = scenario.inputs.map((input) => ({
    name: `input:${input.name}`, title: input.name, operator: `input (${input.kind})`, from: [],
    description: input.description, input: true, levels: input.kind === "choice" ? input.options : undefined,
  }));
  for (const stream of scenario.streams.filter(shown)) {
    rows.push({ name: stream.name, title: stream.name, operator: stream.operator, description: stream.description,
      from: [...new Set(visibleSources(stream))], input: false, stage: Boolean(stream.stageOf), levels: stream.levels,
      stages: stageCount.get(stream.name) ?? 0, expanded: expanded.has(stream.name), sources: stream.sources ?? [] });
  }
  return rows;
}
