// What the diagram says in words: each glyph's description (for screen readers and the detail
// line), a lane's and a cause's names, and a row's counts and fold switch.
import { eventText } from "./diagram-glyphs.js";
import { failureReason, reasonNote } from "../lib/failure-reason.js";
import { html } from "../lib/dom.js";
import { describe, seconds } from "../lib/format.js";

/** What a glyph says to a screen reader and in the detail line: row, lane, values, times, causes. */
export function describeCluster(diagram, row, lane, cluster) {
  const events = cluster.events;
  const causes = [...new Set(events.flatMap((event) => event.causes ?? []))];
  const because = causes.length ? `; caused by ${causes.map((seq) => describeCause(diagram, seq)).join(", ")}` : "";
  const where = laneName(row, lane, events[0]);
  if (events.length === 1) return `${where}: ${eventText(events[0])}${row.input ? "" : because}`;
  const listed = events.slice(0, 8).map(eventText).join("; ");
  return `${where}: ${events.length} events close together (Enter spreads them): ${listed}${events.length > 8 ? "; …" : ""}${because}`;
}

/** "r", "r, lane 2 of 3", "r, 2 identical subscriptions folded", "r's inner request". */
export function laneName(row, lane, event) {
  if (lane.kind === "inner") return `${row.title}'s inner ${event.stream.slice(row.name.length + 1)}`;
  const mains = lane.mains;
  const folded = lane.count > 1 ? `, ${lane.count} identical subscriptions folded` : "";
  return mains > 1 ? `${row.title}, lane ${lane.index + 1} of ${mains}${folded}` : `${row.title}${folded}`;
}

export function describeCause(diagram, seq) {
  const input = diagram.inputEvents.get(seq);
  if (!input) return `input event #${seq}`;
  const what = input.kind === "next" ? describe(input.value, 40) : input.kind;
  return `${input.stream.replace(/^input:/, "input ")} ${what} (#${seq})`;
}

/** "3 events", then (once subscribed to) "· 2 subs, 1 live". */
export function showCount(row) {
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
export function showFold(row, model) {
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

/**
 * A row's latest event (null: none) in its label; a row whose latest is an error is listed with
 * its reason under the diagram (`diagram.failures`), in the rows' order, and drops out when a
 * later event (a `retry`'s value) or the scrubber's instant says it has not failed yet.
 */
export function showLatest(diagram, row, event) {
  row.latest.textContent = !event ? "—" : event.kind === "next" ? describe(event.value, 120) : event.kind;
  if (event) row.latest.dataset.kind = event.kind;
  else delete row.latest.dataset.kind;
  const failure = event?.kind === "error" ? event : null;
  if (failure === (row.failure ?? null)) return;
  row.failure = failure;
  const list = diagram.failures;
  list.replaceChildren(...diagram.rows.filter((each) => each.failure).map((each) => {
    const item = html("li");
    item.dataset.stream = each.name;
    item.appendChild(reasonNote(`\`${each.title}\``, seconds(each.failure.t), failureReason(each.failure.value)));
    return item;
  }));
  list.hidden = !list.children.length;
}
