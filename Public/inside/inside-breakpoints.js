// Breakpoints: "stop when this serial disposable swaps / this compound disposable is disposed / a
// second subscriber reaches this stream / a value enters this replay buffer / this subject gains a
// subscriber" (docs/API.md, "Breakpoints"). A live virtual-clock session's are the server's: its
// clock stops after the work that meets one, and the page is told (`event: breakpoint`). A kept run
// has no clock to stop: its breakpoints are the page's, and "Go to the next stop" moves its
// scrubber to the next change one names, from what the run kept.
import { continueFromBreakpoint, linkInside, sessionBreakpoints, setBreakpoints } from "../lib/api.js";
import { html } from "../lib/dom.js";
import { seconds } from "../lib/format.js";

const DISPOSABLES = new Set(["disposable", "compoundDisposable", "serialDisposable", "scopedDisposable"]);

/** The breakpoints an object offers: what RAC's object of its class does that one may stop at. */
export function offersOf(node) {
  // Its Swift type's name without generic arguments tells two of one class apart (SwitchCore).
  const name = `#${node.id} ${node.racClass} (${node.type.split("<")[0]})`;
  const offers = [];
  if (node.kind === "serialDisposable") offers.push({ on: "swapped", node: node.id, text: `${name} swaps what it holds` });
  if (node.kind === "subject" || node.kind === "replaySubject") offers.push({ on: "added", node: node.id, text: `${name} gains a subscriber` });
  if (node.kind === "replaySubject") offers.push({ on: "buffered", node: node.id, text: `a value enters ${name}'s buffer` });
  if (DISPOSABLES.has(node.kind)) offers.push({ on: "disposed", node: node.id, text: `${name} is disposed` });
  if (node.stream !== undefined && !node.probe) {
    offers.push({ on: "subscribed", stream: node.stream, count: 2, text: `a second subscriber reaches ${node.stream}` });
  }
  return offers;
}

/** The breakpoint as the API takes it (without the page's words). */
const wire = ({ on, node, stream, count }) => (on === "subscribed" ? { on, stream, count } : { on, node });
const same = (a, b) => JSON.stringify(wire(a)) === JSON.stringify(wire(b));

/** How a breakpoint the server lists reads, for one the page did not make (another tab's). */
function textOf(breakpoint) {
  if (breakpoint.on === "subscribed") return `subscriber ${breakpoint.count} reaches ${breakpoint.stream}`;
  return `#${breakpoint.node} is ${breakpoint.on === "added" ? "given something (a subscriber)" : breakpoint.on}`;
}

/**
 * The times, in order, at which a kept run's changes meet `breakpoints`: the graph is the run's
 * at its end with every change (`since` 0); a stream's subscribers are counted in order of creation.
 */
export function stopsIn(graph, breakpoints) {
  const byID = new Map(graph.nodes.map((node) => [node.id, node]));
  const subscribers = new Map();
  const stops = [];
  for (const change of graph.changes) {
    const node = byID.get(change.node);
    let count = 0;
    if (change.op === "created" && node?.stream !== undefined && !node.probe) {
      count = (subscribers.get(node.stream) ?? 0) + 1;
      subscribers.set(node.stream, count);
    }
    const index = breakpoints.findIndex((breakpoint) => {
      if (breakpoint.on === "subscribed") return count > 0 && node.stream === breakpoint.stream && count === breakpoint.count;
      if (breakpoint.on === "added") return change.op === "added" && change.owner === breakpoint.node;
      return change.op === breakpoint.on && change.node === breakpoint.node;
    });
    if (index >= 0) stops.push({ t: change.t, breakpoint: index, narration: change.narration });
  }
  return stops;
}

export class InsideBreakpoints {
  /**
   * `clock` is the session's VirtualClock (it stops and goes on here); `scrubTo(t)` moves a kept
   * run's scrubber; `instant()` is the scrubber's instant (null: the end).
   */
  constructor({ fieldset, choice, add, next, list, status, clock, scrubTo, instant }) {
    Object.assign(this, { fieldset, choice, add, next, list, status, clock, scrubTo, instant });
    this.breakpoints = [];
    this.offers = [];
    this.idle = null;
    this.pendingGraph = null;
    add.addEventListener("click", () => this.addChosen());
    for (const reached of ["focus", "pointerdown"]) choice.addEventListener(reached, () => this.offerPending());
    next.addEventListener("click", () => this.goToNextStop());
    clock.goOn = () => (this.sessionID && this.live ? continueFromBreakpoint(this.sessionID).then(() => this.showHit(null)) : Promise.resolve());
  }

  /** A new session: a live virtual-clock one (`virtual`), a kept run (`replay`), or neither. */
  async show({ sessionID, virtual, replay }) {
    this.sessionID = sessionID ?? replay?.id ?? null;
    this.live = Boolean(sessionID) && virtual && !replay;
    this.replay = replay;
    this.jumped = false;
    this.breakpoints = [];
    this.offers = [];
    this.offersKey = null;
    this.fieldset.hidden = !this.live && !replay;
    this.next.hidden = !replay;
    this.showHit(null);
    this.renderList();
    if (!this.live) return;
    const session = this.sessionID;
    try {
      const answer = await sessionBreakpoints(session);
      if (session !== this.sessionID) return;
      this.breakpoints = answer.breakpoints.map((breakpoint) => ({ ...breakpoint, text: textOf(breakpoint) }));
      this.renderList();
      if (answer.hit) this.stopped(answer.hit);
    } catch {
      // the panel's own reading says what went wrong
    }
  }

  /** The graph drawn: the choices are what its objects alive now offer. */
  offer(graph) {
    // Built after the draw, when the page is idle (or at once when the choices are reached for):
    // the panel's draw at an instant stays within its frame.
    this.pendingGraph = graph;
    if (this.idle === null) this.idle = (window.requestIdleCallback ?? setTimeout)(() => this.offerPending(), { timeout: 500 });
  }

  offerPending() {
    if (this.idle !== null) (window.cancelIdleCallback ?? clearTimeout)(this.idle);
    this.idle = null;
    const graph = this.pendingGraph;
    this.pendingGraph = null;
    if (!graph) return;
    const chosen = this.offers[Number(this.choice.value)];
    const offers = graph.nodes.filter((node) => node.disposed === undefined && node.released === undefined).flatMap(offersOf);
    const distinct = [...new Map(offers.map((offer) => [JSON.stringify(wire(offer)), offer])).values()];
    // Drawn again only when the objects alive offer other breakpoints (a live panel redraws each second).
    const key = distinct.map((offer) => offer.text).join("\n");
    if (key === this.offersKey) return;
    this.offersKey = key;
    this.offers = distinct;
    this.choice.replaceChildren(...this.offers.map((offer, index) => {
      const option = html("option", undefined, offer.text);
      option.value = String(index);
      return option;
    }));
    const again = chosen ? this.offers.findIndex((offer) => same(offer, chosen)) : -1;
    if (again >= 0) this.choice.value = String(again);
    this.add.disabled = !this.offers.length;
  }

  async addChosen() {
    this.offerPending();
    const offer = this.offers[Number(this.choice.value)];
    if (!offer || this.breakpoints.some((breakpoint) => same(breakpoint, offer))) return;
    await this.save([...this.breakpoints, offer]);
  }

  async remove(index) {
    await this.save(this.breakpoints.filter((_, at) => at !== index));
  }

  /** A live session's are set on the server (which goes on from a stop); a kept run's are the page's. */
  async save(breakpoints) {
    if (this.live) {
      try {
        await setBreakpoints(this.sessionID, breakpoints.map(wire));
      } catch (error) {
        this.status.textContent = `The breakpoints could not be set: ${error.message}`;
        return;
      }
      this.showHit(null);
    }
    this.breakpoints = breakpoints;
    this.renderList();
  }

  renderList() {
    this.list.replaceChildren(...this.breakpoints.map((breakpoint, index) => {
      const item = html("li", "inside-break");
      const remove = html("button", "secondary", "Remove");
      remove.type = "button";
      remove.setAttribute("aria-label", `Remove the breakpoint: stop when ${breakpoint.text}`);
      remove.addEventListener("click", () => this.remove(index));
      item.append(`${index + 1}. Stop when ${breakpoint.text} `, remove);
      return item;
    }));
    this.next.disabled = !this.breakpoints.length;
    if (!this.breakpoints.length && !this.hit) {
      this.status.textContent = this.live ? "No breakpoint: the clock goes where it is sent." : "";
    }
  }

  /** The server's clock stopped at `hit` (`{breakpoint, t, node, op}`): Play stops, and the page says where. */
  stopped(hit) {
    this.clock.stopAt(hit.t);
    this.showHit(hit);
  }

  showHit(hit) {
    this.hit = hit;
    const breakpoint = hit && this.breakpoints[hit.breakpoint];
    if (hit) {
      this.status.textContent = `Stopped at ${seconds(hit.t)}: ${breakpoint ? `${breakpoint.text}` : `#${hit.node} ${hit.op}`} `
        + `(breakpoint ${hit.breakpoint + 1}). Play or a step goes on.`;
    } else if (this.live) {
      this.status.textContent = this.breakpoints.length ? "The clock stops at the next breakpoint met." : "No breakpoint: the clock goes where it is sent.";
    }
  }

  /** A kept run: the scrubber goes to the first change after its instant that a breakpoint names. */
  async goToNextStop() {
    if (!this.replay) return;
    const graph = await linkInside(this.replay.id, { since: 0 });
    // At the run's end (no instant scrubbed: the whole run shown) the stops start again from its start.
    const from = this.instant() ?? -1;
    const stop = stopsIn(graph, this.breakpoints).find((candidate) => candidate.t > from);
    if (!stop) {
      this.status.textContent = `No breakpoint is met after ${from < 0 ? "the start" : seconds(from)}.`;
      return;
    }
    this.scrubTo(stop.t);
    const again = from < 0 && this.jumped ? "From the start again: " : "";
    this.jumped = true;
    this.status.textContent = `${again}At ${seconds(stop.t)}: ${this.breakpoints[stop.breakpoint].text} (breakpoint ${stop.breakpoint + 1}). ${stop.narration}`;
  }
}
