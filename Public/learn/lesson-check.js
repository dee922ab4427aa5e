// The course's checks, pure: a lesson's program with its inputs, a prediction compared with what
// the server drew marble by marble, and a challenge's streams compared with the reference's.
import { parseRow, parseSubscription } from "../lib/marble-notation.js";

/** A value as JSON with its objects' keys in order: two values that are equal read the same. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * `drawing` (a stream as POST /api/marbles draws it) written with the lesson's letters: a value
 * that `values` names takes that letter, so that the drawn row reads as the legend and the
 * prediction do. A letter the drawing already gives another value is left alone.
 */
export function relabel(drawing, values) {
  const byValue = new Map(Object.entries(values ?? {}).map(([letter, value]) => [canonical(value), letter]));
  const renamed = new Map();
  for (const [symbol, value] of Object.entries(drawing.values)) {
    const letter = byValue.get(canonical(value));
    if (letter && letter !== symbol) renamed.set(symbol, letter);
  }
  for (const [symbol, letter] of [...renamed]) if (letter in drawing.values && !renamed.has(letter)) renamed.delete(symbol);
  if (!renamed.size) return drawing;
  return {
    ...drawing,
    marbles: drawing.marbles === null ? null : [...drawing.marbles].map((character) => renamed.get(character) ?? character).join(""),
    values: Object.fromEntries(Object.entries(drawing.values).map(([symbol, value]) => [renamed.get(symbol) ?? symbol, value])),
  };
}

/**
 * Drawings shown in one panel (yours and the goal's, two runs compared) written with one letter
 * per value across them all: a value keeps the letter it has in the first drawing that sends it,
 * a value first sent later keeps its own letter when no earlier value took it, else the first
 * free one. Each drawing's notation and `values` are rewritten alike, so every legend stays true.
 */
export function sameLetters(drawings) {
  const letterOf = new Map();
  const taken = new Set();
  const free = () => [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"].find((letter) => !taken.has(letter)) ?? "?";
  return drawings.map((drawing) => {
    const renamed = new Map();
    for (const [symbol, value] of Object.entries(drawing.values)) {
      const key = canonical(value);
      if (!letterOf.has(key)) {
        const letter = taken.has(symbol) ? free() : symbol;
        letterOf.set(key, letter);
        taken.add(letter);
      }
      renamed.set(symbol, letterOf.get(key));
    }
    return {
      ...drawing,
      marbles: typeof drawing.marbles === "string" ? [...drawing.marbles].map((character) => renamed.get(character) ?? character).join("") : drawing.marbles,
      values: Object.fromEntries(Object.entries(drawing.values).map(([symbol, value]) => [renamed.get(symbol), value])),
    };
  });
}

/**
 * A lesson's rows as the body of POST /api/scenarios/{id}/marbles: each row's notation by name,
 * and the values of every row's letters (the lessons give each letter one value).
 */
export function scenarioQuery(inputs) {
  return {
    inputs: Object.fromEntries(inputs.map((row) => [row.name, row.marbles])),
    values: Object.assign({}, ...inputs.map((row) => row.values ?? {})),
  };
}

/**
 * A lesson's input rows as program lines (`a = marbles("-a-b|")`, with the values its letters
 * stand for and the letters that stand for streams as nested diagrams), then its program.
 */
export function lessonProgram(inputs, program) {
  const lines = inputs.map((row) => {
    const values = Object.entries(row.values ?? {}).map(([letter, value]) => `, ${letter}: ${JSON.stringify(value)}`).join("");
    const nested = Object.entries(row.nested ?? {}).map(([letter, inner]) => `, ${letter}: marbles(${JSON.stringify(inner)})`).join("");
    return `${row.name} = marbles(${JSON.stringify(row.marbles)}${values}${nested})`;
  });
  return [...lines, program].join("\n");
}

/**
 * A drawn stream (`POST /api/marbles`) as events in frames of `frame` ms (each in the frame its
 * time falls in): frame, kind, its letter (`symbol`), what a sentence calls its value (`text`) and
 * what compares (`key`: the letter, or with `byValue` the value's JSON — two runs may letter a new
 * value differently). Read from the events themselves, at their times: the notation reads back to
 * them, and a stream too dense for the lesson's frame is written at another.
 */
export function drawnEvents(drawing, frame, { byValue = false } = {}) {
  const letterOf = new Map(Object.entries(drawing.values).map(([letter, value]) => [canonical(value), letter]));
  return drawing.events.map((event) => {
    const at = Math.floor(event.time / frame + 1e-9);
    const thread = event.thread ?? "session";
    if (event.kind !== "next") {
      const symbol = event.kind === "completed" ? "|" : "#";
      return { frame: at, kind: event.kind === "completed" ? "completed" : "error", symbol, key: symbol, thread };
    }
    const symbol = letterOf.get(canonical(event.value)) ?? "?";
    const text = typeof event.value === "string" ? event.value : JSON.stringify(event.value);
    return { frame: at, kind: "next", symbol, text, key: byValue ? canonical(event.value) : symbol, thread };
  });
}

/**
 * A row in marble notation as events, or `{error}`. With `values` (letter to value), each value's
 * `key` is its JSON — a letter without a value is itself as text, a digit a number, as in a
 * diagram — so that a prediction compares with a drawing by value, whatever letters the server
 * chose for values no input sends.
 */
export function notationEvents(text, values) {
  const row = parseRow(text);
  if (row.error) return row;
  const keyOf = (symbol) => canonical(symbol in (values ?? {}) ? values[symbol] : /^\d$/.test(symbol) ? Number(symbol) : symbol);
  const events = row.values.map(({ frame, symbol }) => ({ frame, kind: "next", symbol, key: values ? keyOf(symbol) : symbol }));
  if (row.end) events.push({ frame: row.end.frame, kind: row.end.kind === "|" ? "completed" : "error", symbol: row.end.kind, key: row.end.kind });
  return events.sort((first, second) => first.frame - second.frame);
}

/**
 * `predicted` against `actual` (events in time order, compared by `key`), marble by marble: each item is `right`,
 * `time` (the right value in another frame), `value` (another value in the right frame), `extra`
 * (predicted, not sent) or `missing` (sent, not predicted), with the events it pairs. The pairing
 * is the cheapest, by value and order before time: the right value at another time costs about
 * half an event missing or extra, another value in the right frame three quarters of the two — so
 * a value that never comes is called missing rather than every later value wrong.
 */
export function compareEvents(predicted, actual) {
  const pairCost = (guess, real) => {
    if (guess.kind !== real.kind) return Infinity;
    const sameTime = guess.frame === real.frame;
    const sameValue = guess.key === real.key;
    if (sameTime && sameValue) return 0;
    if (sameValue) return 0.5 + Math.min(Math.abs(guess.frame - real.frame), 20) / 100;
    if (sameTime) return 1.5;
    return Infinity;
  };
  const rows = predicted.length + 1;
  const columns = actual.length + 1;
  const cost = Array.from({ length: rows }, (_, i) => Array.from({ length: columns }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < columns; j += 1) {
      cost[i][j] = Math.min(cost[i - 1][j] + 1, cost[i][j - 1] + 1, cost[i - 1][j - 1] + pairCost(predicted[i - 1], actual[j - 1]));
    }
  }
  const items = [];
  let i = predicted.length;
  let j = actual.length;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && cost[i][j] === cost[i - 1][j - 1] + pairCost(predicted[i - 1], actual[j - 1])) {
      const guess = predicted[i - 1];
      const real = actual[j - 1];
      const status = guess.frame === real.frame && guess.key === real.key ? "right" : guess.key === real.key ? "time" : "value";
      items.push({ status, predicted: guess, actual: real });
      i -= 1;
      j -= 1;
    } else if (i > 0 && cost[i][j] === cost[i - 1][j] + 1) {
      items.push({ status: "extra", predicted: predicted[i - 1] });
      i -= 1;
    } else {
      items.push({ status: "missing", actual: actual[j - 1] });
      j -= 1;
    }
  }
  return items.reverse();
}

/** An event as a sentence names it: a value as its text (the empty text quoted, so it is seen), or what ends the stream. */
const WHAT = { next: (event) => (event.text === "" ? "the empty text \"\"" : event.text ?? event.symbol), completed: () => "the completion", error: () => "the error" };

/** One item of `compareEvents` (a prediction against what was sent) as a sentence. */
export function describeItem(item, frame) {
  const at = (event) => `${event.frame * frame} ms`;
  switch (item.status) {
    case "right": return `${WHAT[item.actual.kind](item.actual)} at ${at(item.actual)}: right`;
    case "time": return `${WHAT[item.actual.kind](item.actual)}: right, but at ${at(item.actual)}, not ${at(item.predicted)}`;
    case "value": return `at ${at(item.actual)}: ${WHAT[item.actual.kind](item.actual)}, not ${WHAT[item.predicted.kind](item.predicted)}`;
    case "extra": return `${WHAT[item.predicted.kind](item.predicted)} is missing: it is never sent (you predicted it at ${at(item.predicted)})`;
    default: return `${WHAT[item.actual.kind](item.actual)} at ${at(item.actual)}: sent, but not in your prediction`;
  }
}

/** One item of `compareEvents` (the learner's run against the goal's) as a sentence about `name`. */
function describeDifference(name, item, frame) {
  const at = (event) => `${event.frame * frame} ms`;
  const what = (event) => WHAT[event.kind](event);
  switch (item.status) {
    case "time": return `\`${name}\` sends ${what(item.predicted)} at ${at(item.predicted)}; the goal sends it at ${at(item.actual)}`;
    case "value": return `at ${at(item.actual)} \`${name}\` sends ${what(item.predicted)}; the goal sends ${what(item.actual)}`;
    case "extra": return `\`${name}\` sends ${what(item.predicted)} at ${at(item.predicted)}; the goal does not`;
    default: return `the goal sends ${what(item.actual)} at ${at(item.actual)}; \`${name}\` does not`;
  }
}

/** A list of subscriptions (`^--!`) at `frame` ms a character as spans in ms: `[{start, end}]`. */
function subscriptionSpans(lines, frame) {
  return lines.map((text) => {
    const { start, end } = parseSubscription(text);
    return { start: start * frame, end: end === null ? null : end * frame };
  });
}

/** Spans (`subscriptionSpans`) as words: when each began and ended, in ms. */
function subscriptionWords(spans) {
  if (!spans.length) return "never subscribed to";
  return spans.map(({ start, end }) => `subscribed at ${start} ms${end === null ? "" : ` and disposed of at ${end} ms`}`).join(", then ");
}

/** The frame the subscriptions of stream `name` (or `out·marbles`) are written at in `answer`. */
function subscriptionFrame(answer, name) {
  return answer.streams[name.split("·")[0]]?.frame ?? answer.frame;
}

/** The subscriptions of stream `name` in a `POST /api/marbles` answer; a source inside a stream is `out·marbles`. */
export function subscriptionsOf(answer, name) {
  const owner = name.split("·")[0];
  return (owner === name ? answer.streams[name]?.subscriptions : answer.streams[owner]?.sources?.[name]) ?? [];
}

/**
 * What differs between the learner's run and the reference's on the challenge's rows (two `POST
 * /api/marbles` answers), for everything the challenge holds: the events of each stream of its
 * `expected` (value and time, then the thread each came on) and the subscriptions of each stream
 * its `subscriptions` names. Answers `{problems, streams, subscriptions}`: one sentence per stream
 * that differs, leading with its first difference; the streams that differ with their comparison
 * (to draw yours against the goal); the subscriptions that differ, yours and the goal's.
 */
export function challengeDifferences(challenge, learner, reference) {
  const problems = [];
  const streams = [];
  const subscriptions = [];
  const frame = reference.frame;
  for (const name of Object.keys(challenge.expected)) {
    const mine = learner.streams[name];
    const goal = reference.streams[name];
    if (!mine) {
      problems.push(`Your program has no stream \`${name}\`.`);
      continue;
    }
    const [ourRow, goalRow] = sameLetters([goal, mine]).reverse();
    const items = compareEvents(drawnEvents(ourRow, learner.frame, { byValue: true }), drawnEvents(goalRow, frame, { byValue: true }));
    const differing = items.filter((item) => item.status !== "right");
    if (differing.length) {
      const count = (status) => items.filter((item) => item.status === status).length;
      const parts = [];
      if (count("missing")) parts.push(`${count("missing")} event${count("missing") === 1 ? "" : "s"} the goal sends and yours does not`);
      if (count("extra")) parts.push(`${count("extra")} event${count("extra") === 1 ? "" : "s"} yours sends and the goal does not`);
      if (count("time")) parts.push(`${count("time")} at another time`);
      if (count("value")) parts.push(`${count("value")} with another value`);
      problems.push(`On the challenge's own rows, ${describeDifference(name, differing[0], frame)} (in all: ${parts.join("; ")}).`);
      streams.push({ name, mine: ourRow, goal: goalRow, items });
      continue;
    }
    // The same events: were they delivered on the same threads (`deliverOn`, `subscribeOn`)?
    const threads = (drawing) => drawing.events.map((event) => event.thread ?? "session");
    const [ours, theirs] = [threads(mine), threads(goal)];
    const moved = ours.flatMap((thread, index) => (thread === theirs[index] ? [] : [[thread, theirs[index]]]));
    if (ours.length === theirs.length && moved.length) {
      problems.push(`\`${name}\` sends the goal's events, but ${moved.length} of them on another thread (yours on \`${moved[0][0]}\`, the goal's on \`${moved[0][1]}\`).`);
      // The check row marks them: right by value and time, not by thread.
      const marked = items.map((item) => (item.predicted && item.actual && item.predicted.thread !== item.actual.thread ? { ...item, status: "thread" } : item));
      streams.push({ name, mine: ourRow, goal: goalRow, items: marked });
    }
  }
  for (const name of challenge.subscriptions ?? []) {
    const [mine, goal] = [subscriptionsOf(learner, name), subscriptionsOf(reference, name)];
    const [mySpans, goalSpans] = [subscriptionSpans(mine, subscriptionFrame(learner, name)), subscriptionSpans(goal, subscriptionFrame(reference, name))];
    if (JSON.stringify(mySpans) === JSON.stringify(goalSpans)) continue;
    problems.push(`\`${name}\` is ${subscriptionWords(mySpans)} in yours; in the goal's it is ${subscriptionWords(goalSpans)}.`);
    subscriptions.push({ name, mine, goal });
  }
  return { problems, streams, subscriptions };
}
