// The playground page: picks a scenario, opens (or joins) a session, sends inputs, and shows every
// stream of the pipeline live. Values are always rendered as text, never as HTML.
import { APIError, InputSender, catalogue, checkProgram, createSession, examplePrograms, runProgram, sessionInfo } from "./api.js";
import { Diagram, WINDOW_RANGE } from "./diagram.js";
import { html } from "./dom.js";
import { ProgramEditor, decodeProgram, encodeProgram } from "./editor.js";
import { Gallery } from "./gallery.js";
import { describe, seconds } from "./format.js";

const $ = (id) => document.getElementById(id);
const MAX_LOG = 200;
/** Events kept to redraw the diagram when a chain's stages are shown or hidden. */
const MAX_KEPT_EVENTS = 5000;
/** How long the editor waits after a keystroke before it asks the server to check the program. */
const CHECK_DELAY_MS = 300;
/** Where the editor keeps the learner's last program, so that it opens on it next time. */
const LAST_PROGRAM_KEY = "playground.lastProgram";
/** How often Play moves the virtual clock, in wall milliseconds. */
const PLAY_TICK_MS = 100;

const page = {
  scenarios: [],
  source: null,
  diagram: null,
  scenario: null,
  events: [], // every event shown, so the diagram can be drawn again with other rows
  expanded: new Set(), // named streams of a program whose chain's stages are shown
  editor: null,
  examples: [],
  gallery: null,
  streamNames: new Set(),
  windowMs: 10_000,
  clockOffset: Infinity,
  announceAt: new Map(),
  virtual: false,
  virtualTime: 0,
  advanced: 0, // what this page has advanced the clock by
  latestT: 0, // the latest event time seen (another tab may have advanced the clock too)
  advance: null,
  playing: false,
};

function notice(message) {
  $("notice").textContent = message ?? "";
  $("notice").hidden = !message;
}

function setConnection(text, state) {
  $("connection").textContent = text;
  $("connection").dataset.state = state;
}

function explain(error) {
  if (error instanceof APIError) {
    if (error.status === 429) return `Slow down: ${error.message}`;
    if (error.status === 503) return `The server is busy: ${error.message}`;
    if (error.status === 0) return error.message;
    return error.message;
  }
  return String(error);
}

// MARK: Scenario list

function renderScenarioList() {
  const list = $("scenario-list");
  list.replaceChildren();
  for (const scenario of page.scenarios) {
    const item = html("li");
    const link = html("a", "scenario-link", scenario.title);
    link.href = `#${scenario.id}`;
    link.id = `pick-${scenario.id}`;
    link.title = scenario.description.split(". ")[0] + ".";
    item.appendChild(link);
    list.appendChild(item);
  }
}

// MARK: Session view

/**
 * A text field bound to the stream of the same name (the binding scenario's fields): it shows what
 * the stream says, except the stream's echoes of what this page typed, which would otherwise
 * overwrite newer keystrokes with older text.
 */
class BoundField {
  constructor(box) {
    this.box = box;
    this.typed = []; // values sent from this page whose events have not come back yet
  }

  sent(value) {
    this.typed.push(value);
  }

  received(event) {
    if (event.kind !== "next") return;
    const value = String(event.value);
    // Events come back in the order they were typed; one that never comes back (its post was
    // refused) is dropped with the older ones when a later echo arrives.
    const echo = this.typed.indexOf(value);
    if (echo >= 0) {
      this.typed.splice(0, echo + 1);
      return;
    }
    if (this.box.value !== value) this.box.value = value;
  }
}

/** The radio group that lets a person take one of several bound fields, the others read-only. */
function renderFieldChoice(form, fields) {
  const group = html("fieldset", "field-owner");
  group.appendChild(html("legend", undefined, "Your field"));
  const take = (name) => {
    for (const [other, field] of fields) {
      field.box.readOnly = other !== name;
      field.box.closest(".field").classList.toggle("field-taken", other === name);
    }
  };
  for (const [name] of fields) {
    const label = html("label", "switch");
    const radio = html("input");
    radio.type = "radio";
    radio.name = "take-field";
    radio.value = name;
    radio.id = `take-${name}`;
    radio.addEventListener("change", () => take(name));
    label.append(radio, ` type into ${name}`);
    group.appendChild(label);
  }
  group.appendChild(html("p", "help",
    "Each person takes one field; the others follow the model. Open the session link in a second browser to try it."));
  form.prepend(group);
  const [first] = fields.keys();
  group.querySelector("input").checked = true;
  take(first);
}

/**
 * Buttons that complete or fail an input's signal (`?event=completed|error`). Returns a function
 * that shows the input as ended (also when another window ended it and a post here found out).
 */
function renderEndControls(field, input, sender, controls) {
  const group = html("div", "input-end");
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", `End ${input.name}`);
  const status = html("span", "input-ended");
  status.setAttribute("aria-live", "polite");
  const buttons = [];
  const showEnded = (how) => {
    for (const control of [...controls, ...buttons]) control.disabled = true;
    status.textContent = how;
  };
  for (const [kind, text, title] of [["completed", "Complete", "sendCompleted: | travels down the pipeline"],
    ["error", "Fail", "sendError: # travels down the pipeline"]]) {
    const button = html("button", "secondary", text);
    button.type = "button";
    button.id = `${kind === "error" ? "fail" : "complete"}-${input.name}`;
    button.title = title;
    button.setAttribute("aria-label", `${text} ${input.name}`);
    button.addEventListener("click", async () => {
      if (await sender.end(kind)) showEnded(kind === "error" ? "failed" : "completed");
    });
    buttons.push(button);
  }
  group.append(...buttons, status);
  field.appendChild(group);
  return showEnded;
}

function renderInputs(scenario, sessionID) {
  const form = $("inputs");
  form.replaceChildren();
  form.closest(".panel").hidden = scenario.inputs.length === 0; // the ticker has none
  form.onsubmit = (event) => event.preventDefault();
  const streamNames = new Set(scenario.streams.map((stream) => stream.name));
  page.boundFields = new Map();
  for (const input of scenario.inputs) {
    let showEnded = () => {};
    const sender = new InputSender(sessionID, input.name, (error) => {
      if (error instanceof APIError && error.code === "input_ended") showEnded("ended");
      notice(explain(error));
    });
    const field = html("div", `field field-${input.kind}`);
    const id = `input-${input.name}`;
    let control;
    if (input.kind === "action") {
      control = html("button", "action", input.name);
      control.type = "button";
      control.addEventListener("click", () => sender.send(null));
      field.appendChild(control);
    } else if (input.kind === "bool") {
      const label = html("label", "switch");
      control = html("input");
      control.type = "checkbox";
      control.setAttribute("role", "switch");
      control.addEventListener("change", () => sender.send(control.checked));
      label.append(control, ` ${input.name}`);
      field.appendChild(label);
    } else if (input.kind === "choice") {
      const label = html("label", undefined, input.name);
      label.htmlFor = id;
      control = html("select");
      for (const option of input.options ?? []) control.appendChild(html("option", undefined, option));
      control.addEventListener("change", () => sender.send(control.value));
      field.append(label, control);
    } else {
      const label = html("label", undefined, input.name);
      label.htmlFor = id;
      const box = html("input");
      control = box;
      box.type = input.kind === "number" ? "number" : "text";
      box.autocomplete = "off";
      box.spellcheck = false;
      const bound = input.kind === "text" && streamNames.has(input.name) ? new BoundField(box) : null;
      if (bound) page.boundFields.set(input.name, bound);
      box.addEventListener("input", () => {
        const value = input.kind === "number" ? Number(box.value) : box.value;
        bound?.sent(value);
        sender.send(value);
      });
      field.append(label, box);
    }
    control.id = id;
    control.setAttribute("aria-describedby", `${id}-help`);
    const help = html("p", "help", input.description);
    help.id = `${id}-help`;
    field.appendChild(help);
    showEnded = renderEndControls(field, input, sender, [control]);
    form.appendChild(field);
  }
  if (page.boundFields.size > 1) renderFieldChoice(form, page.boundFields);
}

/** Streams that no other stream reads: the pipeline's results, announced to screen readers. */
function resultStreams(scenario) {
  const read = new Set(scenario.streams.flatMap((stream) => stream.from));
  return new Set(scenario.streams.filter((stream) => !read.has(stream.name)).map((stream) => stream.name));
}

/**
 * The diagram's rows: each input (`input:NAME`, what was done), then the streams in pipeline order,
 * each with the rows it reads. A stream reads the input of its own name (the binding scenario's
 * fields), else a stream of that name, else an input. A program's stages (the operators inside a
 * line's chain) are shown only under an expanded line; a row that reads a hidden stage is drawn
 * from what that stage reads.
 */
function diagramRows(scenario) {
  const streams = new Map(scenario.streams.map((stream) => [stream.name, stream]));
  const inputs = new Set(scenario.inputs.map((input) => input.name));
  const shown = (stream) => !stream.stageOf || page.expanded.has(stream.stageOf);
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
      stages: stageCount.get(stream.name) ?? 0, expanded: page.expanded.has(stream.name) });
  }
  return rows;
}

function renderDiagram(scenario) {
  const rows = diagramRows(scenario);
  const previous = page.diagram;
  const diagram = new Diagram($("diagram"), rows, {
    detail: $("marble-detail"), windowMs: page.windowMs, onViewChange: showView,
    onExpand: (name) => toggleStages(scenario, name),
  });
  if (previous) diagram.follow = previous.follow;
  page.diagram = diagram;
  page.streamNames = new Set(rows.map((row) => row.name));
  const filter = $("log-filter");
  filter.replaceChildren(html("option", undefined, "every stream"));
  filter.firstChild.value = "";
  for (const row of rows) {
    const option = html("option", undefined, row.name);
    option.value = row.name;
    filter.appendChild(option);
  }
  page.results = resultStreams(scenario);
  for (const event of page.events) diagram.add(event);
  showView();
}

/** Shows or hides the stages of a program line's chain: the diagram is drawn again from the events kept. */
function toggleStages(scenario, name) {
  if (page.expanded.has(name)) page.expanded.delete(name);
  else page.expanded.add(name);
  renderDiagram(scenario);
  page.diagram.rows.find((row) => row.name === name)?.label.querySelector(".expander")?.focus();
}

/** The view controls say what the diagram shows: following time or not, and its window. */
function showView() {
  const diagram = page.diagram;
  if (!diagram) return;
  $("follow").checked = diagram.follow;
  $("window-size").textContent = seconds(diagram.windowMs);
  page.windowMs = diagram.windowMs;
  $("zoom-in").disabled = diagram.windowMs <= WINDOW_RANGE[0];
  $("zoom-out").disabled = diagram.windowMs >= WINDOW_RANGE[1];
}

function logEvent(event) {
  const item = html("li", "log-entry");
  item.dataset.stream = event.stream;
  const value = event.kind === "completed" ? "" : ` ${describe(event.value, 400)}`;
  item.textContent = `#${event.seq} · ${event.t} ms · ${event.stream} ${event.kind}${value}`;
  const filter = $("log-filter").value;
  item.hidden = Boolean(filter) && filter !== event.stream;
  const log = $("log");
  log.prepend(item);
  while (log.children.length > MAX_LOG) log.lastElementChild.remove();
}

function announce(event) {
  if (!page.results?.has(event.stream) || event.kind !== "next") return;
  const now = performance.now();
  if (now - (page.announceAt.get(event.stream) ?? 0) < 500) return;
  page.announceAt.set(event.stream, now);
  $("announcer").textContent = `${event.stream}: ${describe(event.value, 120)}`;
}

function receive(event) {
  page.events.push(event);
  if (page.events.length > MAX_KEPT_EVENTS) page.events.splice(0, page.events.length - MAX_KEPT_EVENTS);
  if (!page.streamNames.has(event.stream)) return;
  page.clockOffset = Math.min(page.clockOffset, performance.now() - event.t);
  page.latestT = Math.max(page.latestT, event.t);
  if (page.virtual) setVirtualTime(Math.max(page.advanced, page.latestT));
  page.diagram.add(event);
  page.boundFields?.get(event.stream)?.received(event);
  logEvent(event);
  announce(event);
}

function sessionNow() {
  if (page.virtual) return page.virtualTime;
  return page.clockOffset === Infinity ? 0 : performance.now() - page.clockOffset;
}

function setVirtualTime(milliseconds) {
  page.virtualTime = milliseconds;
  $("virtual-time").textContent = `${milliseconds} ms`;
}

/** Shows the virtual clock's controls for a virtual session, or the offer to step through one. */
function renderClock(scenario, sessionID, clock) {
  page.virtual = clock === "virtual";
  $("clock").hidden = !page.virtual;
  $("step-link").href = `#step=${scenario.id}`;
  page.advanced = 0;
  page.latestT = 0;
  setVirtualTime(0);
  setPlaying(false);
  const sender = new InputSender(sessionID, "advance", (error) => notice(explain(error)));
  let pending = 0; // steps sent and not yet answered: the clock is busy until they are
  page.advance = (milliseconds) => {
    pending += 1;
    $("clock").setAttribute("aria-busy", "true");
    return sender.send(milliseconds).then((accepted) => {
      pending -= 1;
      $("clock").setAttribute("aria-busy", String(pending > 0));
      if (!accepted) return false; // refused (429, 400, 409): the clock did not move
      page.advanced += milliseconds;
      setVirtualTime(Math.max(page.advanced, page.latestT));
      return true;
    });
  };
}

/**
 * Play: the virtual clock moves at the chosen speed, in small steps (one at a time, each sized by
 * the wall time since the last, so the rate holds however long a step takes to be answered).
 */
function setPlaying(playing) {
  page.playing = playing;
  $("play").setAttribute("aria-pressed", String(playing));
  $("play").textContent = playing ? "Pause" : "Play";
  if (!playing) return;
  const session = page.sessionID;
  let last = performance.now();
  let owed = 0;
  const tick = async () => {
    if (!page.playing || page.sessionID !== session) return;
    const now = performance.now();
    owed += (now - last) * Number($("speed").value);
    last = now;
    const step = Math.min(60_000, Math.floor(owed));
    if (step >= 1) {
      owed -= step;
      if (!(await page.advance(step))) {
        setPlaying(false); // refused: the notice says why
        return;
      }
    }
    setTimeout(tick, PLAY_TICK_MS);
  };
  setTimeout(tick, PLAY_TICK_MS);
}

function animate() {
  page.diagram?.render(sessionNow());
  requestAnimationFrame(animate);
}

function connect(sessionID, scenario) {
  page.source?.close();
  setConnection("Connecting…", "connecting");
  const source = new EventSource(`/api/sessions/${encodeURIComponent(sessionID)}/events`);
  page.source = source;
  source.onopen = () => {
    setConnection("Live", "live");
    notice(null);
  };
  source.onerror = async () => {
    if (source.readyState === EventSource.CONNECTING) {
      setConnection("Reconnecting… (the page resumes from the last event it saw)", "reconnecting");
      return;
    }
    setConnection("Disconnected", "disconnected");
    try {
      await sessionInfo(sessionID);
      notice("The event stream was refused; the server may be busy. Reload to try again.");
    } catch (error) {
      notice(error instanceof APIError && error.code === "unknown_session"
        ? "This session has ended (it expired or was deleted). Pick a scenario to start a new one."
        : explain(error));
    }
  };
  const names = [...scenario.inputs.map((input) => `input:${input.name}`), ...scenario.streams.map((stream) => stream.name)];
  for (const name of names) source.addEventListener(name, (message) => receive(JSON.parse(message.data)));
  // The server is shutting down or being replaced: the session is gone for good, so no reconnect.
  source.addEventListener("end", (message) => {
    source.close();
    page.source = null;
    setConnection("Ended", "disconnected");
    const { reason } = JSON.parse(message.data);
    notice(reason === "draining"
      ? "This session ended because its server was replaced — start a new one (pick a scenario, or reload)."
      : "This session has ended. Pick a scenario to start a new one.");
  });
  source.addEventListener("reset", () => {
    page.events = [];
    page.diagram.clear();
    logEvent({ seq: "–", t: "–", stream: "reset", kind: "(some events were missed; showing the current state)" });
  });
}

/** The scenario's Swift file beside its streams, the lines that make a named stream marked. */
function renderSource(scenario) {
  $("source-path").textContent = scenario.source.path;
  const code = $("source-code");
  code.replaceChildren();
  // A program's streams and stages say their line; a scenario's Swift names them in stream("…").
  const byLine = new Map();
  for (const stream of scenario.streams) {
    if (stream.line) byLine.set(stream.line, [...(byLine.get(stream.line) ?? []), stream.name]);
  }
  const lines = scenario.source.swift.split("\n");
  // A scenario's file opens on the lines that build its pipeline: the imports, inputs and
  // catalogue above them are folded, one button away.
  let firstBuilding = scenario.program ? -1 : lines.findIndex((line, index) => streamNamedOn(line, lines[index - 1]));
  if (firstBuilding > 0 && /stream\($/.test(lines[firstBuilding - 1])) firstBuilding -= 1;
  const folded = html("span", "folded");
  folded.hidden = true;
  folded.id = "source-folded";
  renderUnfold(firstBuilding > 0 ? firstBuilding : 0, folded);
  if (firstBuilding > 0) code.appendChild(folded);
  lines.forEach((line, index) => {
    const node = html("span", "line", line || " ");
    const made = scenario.program ? byLine.get(index + 1) : streamNamedOn(line, lines[index - 1]);
    if (made) {
      node.classList.add("defines");
      node.dataset.stream = made.join(" ");
      node.dataset.line = String(index + 1);
    }
    (index < firstBuilding ? folded : code).appendChild(node);
  });
}

/** The button that shows or hides the `count` folded lines above the pipeline (none: no button). */
function renderUnfold(count, folded) {
  $("source-unfold")?.remove();
  if (count === 0) return;
  const button = html("button", "secondary unfold");
  button.type = "button";
  button.id = "source-unfold";
  button.setAttribute("aria-controls", "source-folded");
  const show = (shown) => {
    folded.hidden = !shown;
    button.setAttribute("aria-expanded", String(shown));
    button.textContent = shown ? "Hide the lines above the pipeline" : `Show the ${count} lines above the pipeline (imports, inputs, catalogue)`;
  };
  button.addEventListener("click", () => show(folded.hidden));
  show(false);
  $("source-code").closest("pre").before(button);
}

/** The stream a line of a scenario's Swift names: `stream("name", …)`, or `"name",` alone on the
 * line after `stream(` (as swift-format breaks a long call). */
function streamNamedOn(line, previous = "") {
  const match = line.match(/stream\("([A-Za-z]+)"/) ?? (/stream\($/.test(previous) ? line.match(/^\s*"([A-Za-z]+)",/) : null);
  return match?.slice(1);
}

function showSession(scenario, sessionID, clock = "real") {
  $("intro").hidden = true;
  $("scenario").hidden = false;
  $("scenario-title").textContent = scenario.title;
  // The first sentence, then the rest on request: the diagram stays in view.
  const [summary, ...rest] = scenario.description.split(/(?<=\.) /);
  $("scenario-summary").textContent = summary;
  $("scenario-description").textContent = rest.join(" ") || summary;
  const link = $("session-link");
  link.href = `#session=${sessionID}`;
  link.textContent = `${location.origin}/#session=${sessionID}`;
  $("marbles-link").href = `/api/sessions/${encodeURIComponent(sessionID)}/marbles`;
  $("edit-offer").hidden = !scenario.pipeline;
  $("step-offer").hidden = clock === "virtual" || Boolean(scenario.program); // a program picks its clock in the editor
  $("edit-link").href = `#edit=${scenario.id}`;
  $("program-share").hidden = !scenario.program;
  if (scenario.program) {
    const share = `${location.origin}/#program=${encodeProgram(scenario.program)}`;
    $("program-link").href = share;
    $("program-link").textContent = share.length > 90 ? `${share.slice(0, 87)}…` : share;
  }
  $("log").replaceChildren();
  page.events = [];
  page.diagram = null;
  if (page.scenario !== scenario) page.expanded.clear();
  page.scenario = scenario;
  page.clockOffset = Infinity;
  notice(null);
  page.sessionID = sessionID;
  renderInputs(scenario, sessionID);
  renderDiagram(scenario);
  renderSource(scenario);
  renderClock(scenario, sessionID, clock);
  connect(sessionID, scenario);
  for (const item of document.querySelectorAll(".scenario-link")) {
    item.toggleAttribute("aria-current", item.id === `pick-${scenario.id}`);
  }
  // On a phone the scenarios are one row that scrolls sideways: bring the current one into it.
  const current = document.querySelector(".scenario-link[aria-current]");
  const strip = current?.closest(".scenario-tabs");
  if (current && strip && strip.scrollWidth > strip.clientWidth) {
    strip.scrollLeft = current.offsetLeft - strip.offsetLeft - (strip.clientWidth - current.offsetWidth) / 2;
  }
}

// MARK: The operator gallery

/** Shows the gallery's list, or one operator's entry (`#gallery/throttle`). */
async function showGallery(id) {
  page.source?.close();
  $("scenario").hidden = true;
  $("intro").hidden = true;
  $("gallery").hidden = false;
  if (!page.gallery) {
    const response = await fetch("/gallery/entries.json");
    if (!response.ok) throw new APIError(response.status, "gallery_unavailable", "The gallery could not be loaded.");
    page.gallery = new Gallery(await response.json());
    $("gallery-search").addEventListener("input", () => page.gallery.showList());
  }
  if (id && page.gallery.show(id)) $("gallery-entry-title").focus();
  else page.gallery.showList();
}

// MARK: Your own pipeline

/** A program's session as the page shows a scenario: its summary, its text as the source. */
function programScenario(summary, text) {
  return {
    id: "pipeline", title: "Your pipeline", program: text,
    description: "Your program, running on the server: every named line a stream, every operator of a chain a stage.",
    inputs: summary.inputs, streams: summary.streams, source: { path: "your program", swift: text },
  };
}

/** Opens the editor with `text` (a scenario's program, an example, a shared link's, or nothing). */
function showEditor(text) {
  $("editor-panel").hidden = false;
  $("intro").hidden = true;
  if (text !== undefined && text !== page.editor.value) {
    page.editor.value = text;
    scheduleCheck();
  }
}

/** The program the learner last wrote here, or null (none, or storage unavailable). */
function lastProgram() {
  try {
    return localStorage.getItem(LAST_PROGRAM_KEY) || null;
  } catch {
    return null;
  }
}

function rememberProgram(text) {
  try {
    if (text.trim()) localStorage.setItem(LAST_PROGRAM_KEY, text);
  } catch {
    // Storage may be off (private windows): the editor then opens on the first example.
  }
}

let checkTimer = null;
let checkNumber = 0;
/** Asks the server to check the program once typing pauses; only the latest answer is shown. */
function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(async () => {
    const number = ++checkNumber;
    const text = page.editor.value;
    rememberProgram(text);
    if (!text.trim()) {
      page.editor.setDiagnostics([]);
      return;
    }
    try {
      const diagnostics = await checkProgram(text);
      if (number === checkNumber) page.editor.setDiagnostics(diagnostics);
    } catch (error) {
      if (number !== checkNumber) return;
      if (error instanceof APIError && error.status === 429) scheduleCheck(); // checked again after the pause
      else $("problems-summary").textContent = `Not checked: ${explain(error)}`;
    }
  }, CHECK_DELAY_MS);
}

/** Runs the editor's program as a new session, or shows why it cannot run. */
async function runEditorProgram() {
  const text = page.editor.value;
  const clock = $("program-clock").value;
  $("run").disabled = true;
  try {
    const created = await runProgram(text, clock);
    page.editor.setDiagnostics(created.pipeline?.diagnostics ?? []);
    history.replaceState(null, "", `#session=${created.session}`);
    showSession(programScenario(created.pipeline, text), created.session, clock);
    $("scenario-title").focus();
  } catch (error) {
    if (error instanceof APIError && error.code === "pipeline_invalid") {
      page.editor.setDiagnostics(error.details.diagnostics ?? []);
      notice(null);
      $("problems-summary").focus();
    } else {
      $("scenario").hidden = false;
      notice(explain(error));
    }
  } finally {
    $("run").disabled = false;
  }
}

/** The examples menu: the scenarios' programs, then the server's examples. */
function renderExamples() {
  const menu = $("examples");
  const group = (label, items) => {
    const node = html("optgroup");
    node.label = label;
    for (const [value, text] of items) {
      const option = html("option", undefined, text);
      option.value = value;
      node.appendChild(option);
    }
    menu.appendChild(node);
  };
  group("The scenarios, as programs", page.scenarios.filter((item) => item.pipeline).map((item) => [`scenario:${item.id}`, item.title]));
  group("Examples", page.examples.map((item) => [`example:${item.id}`, item.title]));
  menu.addEventListener("change", () => {
    const [kind, id] = menu.value.split(":");
    const chosen = kind === "scenario" ? page.scenarios.find((item) => item.id === id)?.pipeline
      : page.examples.find((item) => item.id === id)?.program;
    if (chosen !== undefined) showEditor(chosen);
    menu.value = "";
  });
}

async function route() {
  const hash = decodeURIComponent(location.hash.slice(1));
  $("editor-panel").hidden = true;
  $("gallery").hidden = true;
  try {
    if (hash === "gallery" || hash.startsWith("gallery/")) {
      await showGallery(hash.slice("gallery/".length));
      return;
    }
    if (hash === "edit" || hash.startsWith("edit=")) {
      // A scenario's program to change ("Edit this pipeline"), else something to run: the
      // learner's last program, else the first example.
      page.source?.close();
      $("scenario").hidden = true;
      showEditor(page.scenarios.find((item) => item.id === hash.slice(5))?.pipeline
        ?? lastProgram() ?? page.examples[0]?.program ?? "");
      $("program").focus();
      return;
    }
    if (hash.startsWith("program=")) {
      // A shared program: it runs in a new session of its own.
      const text = decodeProgram(hash.slice("program=".length));
      page.source?.close();
      $("scenario").hidden = true;
      showEditor(text ?? "");
      if (text === null) notice("This program link is damaged: its text could not be read.");
      else await runEditorProgram();
      return;
    }
    if (hash.startsWith("session=")) {
      const sessionID = hash.slice("session=".length);
      const info = await sessionInfo(sessionID);
      if (info.pipeline) {
        showEditor(info.pipeline.program);
        showSession(programScenario(info.pipeline, info.pipeline.program), sessionID, info.clock);
        return;
      }
      const scenario = page.scenarios.find((item) => item.id === info.scenario);
      if (scenario) showSession(scenario, sessionID, info.clock);
      return;
    }
    // `#search` starts a real-time session, `#step=search` a virtual-clock one.
    const clock = hash.startsWith("step=") ? "virtual" : "real";
    const scenario = page.scenarios.find((item) => item.id === (clock === "virtual" ? hash.slice(5) : hash));
    if (!scenario) return;
    const created = await createSession(scenario.id, clock);
    history.replaceState(null, "", `#session=${created.session}`);
    showSession(scenario, created.session, clock);
    $("scenario-title").focus();
  } catch (error) {
    $("scenario").hidden = false;
    $("intro").hidden = true;
    notice(error instanceof APIError && error.code === "unknown_session"
      ? "This session has ended (it expired or was deleted). Pick a scenario to start a new one."
      : explain(error));
  }
}

async function start() {
  $("follow").addEventListener("change", (event) => page.diagram?.setFollow(event.target.checked));
  $("zoom-in").addEventListener("click", () => page.diagram?.setWindow(page.diagram.windowMs / 2));
  $("zoom-out").addEventListener("click", () => page.diagram?.setWindow(page.diagram.windowMs * 2));
  $("earlier").addEventListener("click", () => page.diagram?.pan(-0.5));
  $("later").addEventListener("click", () => page.diagram?.pan(0.5));
  $("play").addEventListener("click", () => setPlaying(!page.playing));
  $("toggle-source").addEventListener("click", (event) => {
    const shown = event.target.getAttribute("aria-expanded") !== "true";
    event.target.setAttribute("aria-expanded", String(shown));
    event.target.textContent = shown ? "Hide source" : "Show source";
    $("source-panel").hidden = !shown;
    $("pipeline-layout").classList.toggle("source-hidden", !shown);
    page.diagram?.relayout();
  });
  $("log-filter").addEventListener("change", (event) => {
    for (const item of $("log").children) item.hidden = Boolean(event.target.value) && item.dataset.stream !== event.target.value;
  });
  window.addEventListener("resize", () => page.diagram?.relayout());
  $("scenario-title").tabIndex = -1;
  $("gallery-entry-title").tabIndex = -1;
  $("advance-100").addEventListener("click", () => page.advance?.(100));
  $("advance-500").addEventListener("click", () => page.advance?.(500));
  try {
    page.scenarios = await catalogue();
  } catch (error) {
    notice(explain(error));
    $("scenario").hidden = false;
    return;
  }
  renderScenarioList();
  page.editor = new ProgramEditor({
    textarea: $("program"), highlight: $("editor-highlight"), gutter: $("editor-gutter"),
    problems: $("problems"), summary: $("problems-summary"),
  }, { onChange: scheduleCheck, onRun: runEditorProgram });
  $("run").addEventListener("click", runEditorProgram);
  try {
    page.examples = await examplePrograms();
  } catch {
    page.examples = []; // the menu still offers the scenarios' programs
  }
  renderExamples();
  window.addEventListener("hashchange", route);
  requestAnimationFrame(animate);
  await route();
}

start();
