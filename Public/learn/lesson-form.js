// The lesson writer's fields and a lesson (docs/LESSONS.md), each from the other: rows one a line
// (`a: -a-b|`, with the row's letters as a JSON object after it), streams one a line
// (`out: ---b|`), letters one a line (`A = "Ada"`), paragraphs and wrong answers apart by a blank
// line. A field that cannot be read is a problem of the form's own, in the validator's shape.

const ROW = /^\s*([A-Za-z_]\w*)\s*:\s*(\S+)\s*(\{.*\})?\s*$/;
const NAMED = /^\s*([^\s:]+)\s*:\s*(.*?)\s*$/;
const LETTER = /^\s*(\S+)\s*=\s*(.+?)\s*$/;

const lines = (text) => text.split("\n").filter((line) => line.trim());
const blocks = (text) => text.split(/\n\s*\n/).map((block) => block.trim()).filter(Boolean);

/** Rows written one a line; `{rows}` or `{error}`. */
export function readRows(text) {
  const rows = [];
  for (const line of lines(text)) {
    const match = line.match(ROW);
    if (!match) return { error: `Write each row as name: marbles (${line.trim().slice(0, 40)}).` };
    const row = { name: match[1], marbles: match[2] };
    if (match[3]) {
      try {
        row.values = JSON.parse(match[3]);
      } catch {
        return { error: `The letters after row ${match[1]} are not a JSON object.` };
      }
    }
    rows.push(row);
  }
  return { rows };
}

export function writeRows(rows = []) {
  return rows.map((row) => `${row.name}: ${row.marbles}${row.values ? ` ${JSON.stringify(row.values)}` : ""}`).join("\n");
}

/** Streams written one a line, `name: marbles`; `{named}` or `{error}`. */
export function readNamed(text) {
  const named = {};
  for (const line of lines(text)) {
    const match = line.match(NAMED);
    if (!match || !match[2]) return { error: `Write each stream as name: marbles (${line.trim().slice(0, 40)}).` };
    named[match[1]] = match[2];
  }
  return { named };
}

export function writeNamed(named = {}) {
  return Object.entries(named).map(([name, marbles]) => `${name}: ${marbles}`).join("\n");
}

/** Letters written one a line, `A = "Ada"` (a JSON value); `{values}` or `{error}`. */
export function readValues(text) {
  const values = {};
  for (const line of lines(text)) {
    const match = line.match(LETTER);
    if (!match) return { error: `Write each letter as A = "a JSON value" (${line.trim().slice(0, 40)}).` };
    try {
      values[match[1]] = JSON.parse(match[2]);
    } catch {
      return { error: `The value of ${match[1]} is not JSON: write text in quotes, "Ada".` };
    }
  }
  return { values };
}

export function writeValues(values = {}) {
  return Object.entries(values).map(([letter, value]) => `${letter} = ${JSON.stringify(value)}`).join("\n");
}

/**
 * The lesson the fields (`{title: "…", inputs: "a: -a|", …}`, by the validator's field names)
 * say, on top of `base` (what a copied lesson has that the form does not show: `docs`, `labels`,
 * a scenario…); `problems` for the fields that cannot be read.
 */
export function lessonFromFields(fields, base = {}) {
  const problems = [];
  const read = (field, result, key) => {
    if (result.error) problems.push({ field, message: result.error });
    return result[key];
  };
  const rows = read("inputs", readRows(fields.inputs), "rows") ?? [];
  const challengeRows = read("challenge.inputs", readRows(fields["challenge.inputs"]), "rows") ?? [];
  const subscriptions = read("subscriptions", readNamed(fields.subscriptions), "named") ?? {};
  const nested = (list, earlier = []) => list.map((row) => {
    const before = earlier.find((item) => item.name === row.name);
    return before?.nested ? { ...row, nested: before.nested } : row;
  });
  const lesson = {
    ...base,
    id: fields.id.trim(),
    title: fields.title.trim(),
    rac: fields.rac.trim(),
    explanation: blocks(fields.explanation),
    inputs: nested(rows, base.inputs),
    program: fields.program.trim(),
    predict: fields.predict.trim(),
    expected: read("expected", readNamed(fields.expected), "named") ?? {},
    result: fields.result.trim(),
    challenge: {
      ...(base.challenge ?? {}),
      task: fields["challenge.task"].trim(),
      inputs: nested(challengeRows, base.challenge?.inputs),
      expected: read("challenge.expected", readNamed(fields["challenge.expected"]), "named") ?? {},
      solution: fields["challenge.solution"].trim(),
      wrong: blocks(fields["challenge.wrong"]),
    },
  };
  const values = read("values", readValues(fields.values), "values") ?? {};
  if (Object.keys(values).length) lesson.values = values;
  else delete lesson.values;
  const [stream, marbles] = Object.entries(subscriptions)[0] ?? [];
  if (stream) lesson.subscriptions = { stream, expected: marbles.split(",").map((text) => text.trim()).filter(Boolean) };
  else delete lesson.subscriptions;
  if (base.scenario && !lesson.program) delete lesson.program;
  return { lesson, problems };
}

/** The fields that write `lesson`. */
export function fieldsFromLesson(lesson) {
  return {
    title: lesson.title ?? "",
    id: lesson.id ?? "",
    rac: lesson.rac ?? "",
    explanation: (lesson.explanation ?? []).join("\n\n"),
    inputs: writeRows(lesson.inputs),
    values: writeValues(lesson.values),
    program: lesson.program ?? "",
    predict: lesson.predict ?? "",
    expected: writeNamed(lesson.expected),
    subscriptions: lesson.subscriptions ? `${lesson.subscriptions.stream}: ${lesson.subscriptions.expected.join(", ")}` : "",
    result: lesson.result ?? "",
    "challenge.task": lesson.challenge?.task ?? "",
    "challenge.inputs": writeRows(lesson.challenge?.inputs),
    "challenge.solution": lesson.challenge?.solution ?? "",
    "challenge.expected": writeNamed(lesson.challenge?.expected),
    "challenge.wrong": (lesson.challenge?.wrong ?? []).join("\n\n"),
  };
}

/** A lesson's id from its title: `Skipping, my way` → `skipping-my-way`. */
export function idFromTitle(title) {
  return title.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60);
}
