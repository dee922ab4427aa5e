// What a failed challenge draws, pure of the page's state, on one time axis: the challenge's own
// input rows the two programs ran on; for each stream that differs, yours above the goal's, the
// differing events ringed and the check marks under them; the signals each program subscribed to
// inside its streams (a flattening's inner signals, `r·request`'s calls), yours and the goal's;
// and the subscriptions the challenge holds, yours and the goal's. A lesson's own run draws the
// subscriptions its challenge holds too (`heldSubscriptions`), so the point is seen before it is tested.
import { canonical, subscriptionsOf } from "./lesson-check.js";
import { parseRow, writtenAs } from "../lib/marble-notation.js";
import { FRAME_WIDTH, outputLane, rowDrawing } from "../lib/marble-row.js";
import { checkRow, innerSignals, laneGroup, lessonRow, subscriptionRow, withReason } from "./lesson-drawings.js";

/** A row's notation with its nested diagrams, as the row's line shows it: `-x-y| (x: -1|, y: -2|)`. */
function notationOf(input) {
  const nested = Object.entries(input.nested ?? {}).map(([letter, inner]) => `${letter}: ${inner}`);
  return nested.length ? `${input.marbles} (${nested.join(", ")})` : input.marbles;
}

/** Input rows drawn as lanes, each named `NAME (whose)` (`whose`: "the challenge's row"). */
export function inputRows(inputs, whose, frame, width) {
  return inputs.map((input) => {
    const lane = outputLane(`${input.name}, ${whose}`, rowDrawing(input.marbles, parseRow(input.marbles), input.values ?? {}, frame), frame, width);
    const row = lessonRow(`${input.name} (${whose})`, lane, notationOf(input));
    row.dataset.input = input.name;
    return row;
  });
}

/**
 * For a lesson whose challenge holds subscriptions (`challenge.subscriptions`, lesson 12's one
 * shared subscription to `a`) and whose run does not already ask for them: those streams'
 * subscriptions in the run (`answer`), a line each.
 */
export function heldSubscriptions(lesson, answer, width) {
  return (lesson.challenge.subscriptions ?? []).filter((name) => name !== lesson.subscriptions?.stream)
    .map((name) => subscriptionRow(`${name}'s subscriptions`, subscriptionsOf(answer, name), width));
}

/**
 * The names a program calls inside its closures, at any depth: `request` of `{ _ in request() }`,
 * `createSignal` (and `after`) of `{ p in createSignal { subscriber in after(1s) { … } } }`.
 */
function calledInClosures(program) {
  const names = [];
  let depth = 0;
  for (const [token, name] of program.matchAll(/(\w+)\s*(?=[({])|[{}]/g)) {
    if (token === "{") depth += 1;
    else if (token === "}") depth = Math.max(0, depth - 1);
    else if (depth > 0) names.push(name);
  }
  return names;
}

/**
 * The signals the compared streams (`names`) make inside them, by name, in either answer: of each
 * stream's `sources`, those a closure of either program calls (`{ marbles($0) }`: `out·marbles`,
 * `{ _ in request() }`: `r·request`) — a flattening's inner signals, not the stages of its chain
 * (`out·flatMap`) or the source it starts from (`late·timer`).
 */
function innerSources(names, mine, goal, programs) {
  const called = new Set(programs.flatMap(calledInClosures));
  const sources = names.flatMap((name) => [mine, goal].flatMap((answer) => Object.keys(answer.streams[name]?.sources ?? {})));
  return [...new Set(sources)].filter((source) => called.has(source.split("·").pop()));
}

/**
 * The inner signals of `source` in one program's run (`whose`: "yours", "the goal's"): a lane each
 * with its values when they come from the challenge's nested row (`out·marbles`), else its
 * subscriptions as lines (`request() inside r (yours)`). Answers `{rows, words}`.
 */
function innerOf(inputs, source, answer, whose, width) {
  const nested = source.endsWith("·marbles") && inputs.some((input) => input.nested);
  if (nested) return innerSignals(inputs, source, answer, width, whose);
  const [owner, made] = [source.split("·")[0], source.split("·").pop()];
  const row = subscriptionRow(`${made}() inside ${owner} (${whose === "yours" ? "yours" : "goal"})`, subscriptionsOf(answer, source), width);
  row.dataset.whose = whose;
  return { rows: [row], words: null };
}

/**
 * A failed challenge drawn (`challengeDifferences`' answer, and the two `POST /api/marbles`
 * answers: the learner's, `mine`, of `program`, and the reference solution's, `goal`): nothing
 * when it passed, else the lanes (one scroll) and what the inner signals show, in words.
 */
export function challengeFailure(lesson, { problems, streams }, { mine, goal, program }) {
  if (!problems.length) return [];
  const frame = goal.frame;
  const { inputs, expected, solution, subscriptions: held = [] } = lesson.challenge;
  const sources = innerSources(Object.keys(expected), mine, goal, [program, solution]);
  const lines = [...held, ...sources].flatMap((name) => [...subscriptionsOf(mine, name), ...subscriptionsOf(goal, name)]);
  const longest = Math.max(...inputs.map((input) => input.marbles.length), ...lines.map((line) => line.length),
    ...streams.flatMap(({ mine: ours, goal: theirs }) => [...ours.events, ...theirs.events].map((event) => Math.ceil(event.time / frame) + 1)));
  const width = Math.max(16, longest + 4) * FRAME_WIDTH;
  // A drawing's events that an item that is not right pairs, found by frame, kind and value.
  const ringed = (drawing, items, side) => {
    const differing = items.filter((item) => item.status !== "right").map((item) => item[side]).filter(Boolean);
    return new Set(drawing.events.flatMap((event, index) => (differing.some((other) => other.frame === Math.floor(event.time / frame + 1e-9)
      && other.kind === event.kind && (event.kind !== "next" || other.key === canonical(event.value))) ? [index] : [])));
  };
  const rows = inputRows(inputs, "the challenge's row", frame, width);
  const before = inputs.length; // the learner's program follows the rows' lines
  for (const { name, mine: ours, goal: theirs, items } of streams) {
    rows.push(
      withReason(lessonRow(`${name} (yours)`, outputLane(`${name}, yours`, ours, frame, width, ringed(ours, items, "predicted"), { threads: lesson.threads }),
        writtenAs(ours, frame)), ours, `your \`${name}\``, before),
      withReason(lessonRow(`${name} (goal)`, outputLane(`${name}, the goal's`, theirs, frame, width, ringed(theirs, items, "actual"), { threads: lesson.threads }),
        writtenAs(theirs, frame)), theirs, `the goal's \`${name}\``, before),
      checkRow(items, width),
    );
  }
  const words = [];
  for (const source of sources) {
    for (const [answer, whose] of [[mine, "yours"], [goal, "the goal's"]]) {
      const inner = innerOf(inputs, source, answer, whose, width);
      rows.push(...inner.rows);
      if (inner.words) words.push(inner.words);
    }
  }
  for (const name of held) {
    rows.push(subscriptionRow(`${name}'s subscriptions (yours)`, subscriptionsOf(mine, name), width),
      subscriptionRow(`${name}'s subscriptions (goal)`, subscriptionsOf(goal, name), width));
  }
  return [laneGroup("The challenge's rows, and your program against the goal's on them", rows), ...words];
}
