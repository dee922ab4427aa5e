// The playground page: picks a scenario, opens (or joins) a session, sends inputs, and shows every
// stream of the pipeline live. Values are always rendered as text, never as HTML.
import { APIError, InputSender, catalogue, createSession, sessionInfo } from "./api.js";
import { Timeline, describe } from "./timeline.js";

const $ = (id) => document.getElementById(id);
const MAX_LOG = 200;

const page = {
  scenarios: [],
  source: null,
  streams: new Map(), // name -> { timeline, latest, count, events }
  clockOffset: Infinity,
  follow: true,
  frozenAt: 0,
  announceAt: new Map(),
  virtual: false,
  virtualTime: 0,
  advanced: 0, // what this page has advanced the clock by
  latestT: 0, // the latest event time seen (another tab may have advanced the clock too)
  advance: null,
};

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

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
    const item = element("li");
    const link = element("a", "scenario-link", scenario.title);
    link.href = `#${scenario.id}`;
    link.id = `pick-${scenario.id}`;
    item.appendChild(link);
    item.appendChild(element("span", "scenario-summary", scenario.description.split(". ")[0] + "."));
    list.appendChild(item);
  }
}

// MARK: Session view

function renderInputs(scenario, sessionID) {
  const form = $("inputs");
  form.replaceChildren();
  form.onsubmit = (event) => event.preventDefault();
  for (const input of scenario.inputs) {
    const sender = new InputSender(sessionID, input.name, (error) => notice(explain(error)));
    const field = element("div", `field field-${input.kind}`);
    const id = `input-${input.name}`;
    if (input.kind === "action") {
      const button = element("button", "action", input.name);
      button.type = "button";
      button.id = id;
      button.setAttribute("aria-describedby", `${id}-help`);
      button.addEventListener("click", () => sender.send(null));
      field.appendChild(button);
    } else if (input.kind === "bool") {
      const label = element("label", "switch");
      const box = element("input");
      box.type = "checkbox";
      box.id = id;
      box.setAttribute("role", "switch");
      box.setAttribute("aria-describedby", `${id}-help`);
      box.addEventListener("change", () => sender.send(box.checked));
      label.append(box, ` ${input.name}`);
      field.appendChild(label);
    } else if (input.kind === "choice") {
      const label = element("label", undefined, input.name);
      label.htmlFor = id;
      const select = element("select");
      select.id = id;
      for (const option of input.options ?? []) select.appendChild(element("option", undefined, option));
      select.addEventListener("change", () => sender.send(select.value));
      field.append(label, select);
    } else {
      const label = element("label", undefined, input.name);
      label.htmlFor = id;
      const box = element("input");
      box.id = id;
      box.type = input.kind === "number" ? "number" : "text";
      box.autocomplete = "off";
      box.spellcheck = false;
      box.setAttribute("aria-describedby", `${id}-help`);
      box.addEventListener("input", () => sender.send(input.kind === "number" ? Number(box.value) : box.value));
      field.append(label, box);
    }
    const help = element("p", "help", input.description);
    help.id = `${id}-help`;
    field.appendChild(help);
    form.appendChild(field);
  }
}

/** Streams that no other stream reads: the pipeline's results, announced to screen readers. */
function resultStreams(scenario) {
  const read = new Set(scenario.streams.flatMap((stream) => stream.from));
  return new Set(scenario.streams.filter((stream) => !read.has(stream.name)).map((stream) => stream.name));
}

function renderStreams(scenario) {
  const list = $("streams");
  list.replaceChildren();
  page.streams.clear();
  const filter = $("log-filter");
  filter.replaceChildren(element("option", undefined, "every stream"));
  filter.firstChild.value = "";
  const windowMs = Number($("window").value);
  for (const stream of scenario.streams) {
    const item = element("li", "stream");
    item.dataset.stream = stream.name;
    const head = element("div", "stream-head");
    head.appendChild(element("span", "stream-name", stream.name));
    const origin = stream.from.length ? `${stream.operator}(${stream.from.join(", ")})` : stream.operator;
    head.appendChild(element("code", "stream-operator", origin));
    if (stream.state) head.appendChild(element("span", "badge", "state"));
    const latest = element("output", "latest", "—");
    latest.setAttribute("aria-label", `latest ${stream.name}`);
    const count = element("span", "count", "0 events");
    head.append(latest, count);
    item.appendChild(head);
    item.appendChild(element("p", "stream-description", stream.description));
    const timeline = element("div", "timeline");
    timeline.setAttribute("aria-hidden", "true");
    item.appendChild(timeline);
    list.appendChild(item);
    page.streams.set(stream.name, { timeline: new Timeline(timeline, windowMs), latest, count, events: 0 });
    const option = element("option", undefined, stream.name);
    option.value = stream.name;
    filter.appendChild(option);
  }
  page.results = resultStreams(scenario);
}

function logEvent(event) {
  const item = element("li", "log-entry");
  item.dataset.stream = event.stream;
  const value = event.kind === "completed" ? "" : ` ${describe(event.value)}`;
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
  $("announcer").textContent = `${event.stream}: ${describe(event.value)}`;
}

function receive(event) {
  const stream = page.streams.get(event.stream);
  if (!stream) return;
  page.clockOffset = Math.min(page.clockOffset, performance.now() - event.t);
  page.latestT = Math.max(page.latestT, event.t);
  if (page.virtual) setVirtualTime(Math.max(page.advanced, page.latestT));
  stream.events += 1;
  stream.count.textContent = `${stream.events} event${stream.events === 1 ? "" : "s"}`;
  stream.latest.textContent = event.kind === "next" ? describe(event.value) : event.kind;
  stream.latest.dataset.kind = event.kind;
  stream.timeline.add(event);
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
  $("step-offer").hidden = page.virtual;
  $("step-link").href = `#step=${scenario.id}`;
  page.advanced = 0;
  page.latestT = 0;
  setVirtualTime(0);
  const sender = new InputSender(sessionID, "advance", (error) => notice(explain(error)));
  page.advance = (milliseconds) => sender.send(milliseconds).then(() => {
    page.advanced += milliseconds;
    setVirtualTime(Math.max(page.advanced, page.latestT));
  });
}

function animate() {
  const now = page.follow ? sessionNow() : page.frozenAt;
  for (const stream of page.streams.values()) stream.timeline.render(now);
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
  for (const stream of scenario.streams) {
    source.addEventListener(stream.name, (message) => receive(JSON.parse(message.data)));
  }
  source.addEventListener("reset", () => {
    for (const stream of page.streams.values()) stream.timeline.clear();
    logEvent({ seq: "–", t: "–", stream: "reset", kind: "(some events were missed; showing the current state)" });
  });
}

function showSession(scenario, sessionID, clock = "real") {
  $("intro").hidden = true;
  $("scenario").hidden = false;
  $("scenario-title").textContent = scenario.title;
  $("scenario-description").textContent = scenario.description;
  const link = $("session-link");
  link.href = `#session=${sessionID}`;
  link.textContent = `${location.origin}/#session=${sessionID}`;
  $("log").replaceChildren();
  page.clockOffset = Infinity;
  notice(null);
  renderInputs(scenario, sessionID);
  renderStreams(scenario);
  renderClock(scenario, sessionID, clock);
  connect(sessionID, scenario);
  for (const item of document.querySelectorAll(".scenario-link")) {
    item.toggleAttribute("aria-current", item.id === `pick-${scenario.id}`);
  }
}

async function route() {
  const hash = decodeURIComponent(location.hash.slice(1));
  try {
    if (hash.startsWith("session=")) {
      const sessionID = hash.slice("session=".length);
      const info = await sessionInfo(sessionID);
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
  $("follow").addEventListener("change", (event) => {
    page.follow = event.target.checked;
    page.frozenAt = sessionNow();
  });
  $("window").addEventListener("change", (event) => {
    for (const stream of page.streams.values()) stream.timeline.setWindow(Number(event.target.value));
  });
  $("log-filter").addEventListener("change", (event) => {
    for (const item of $("log").children) item.hidden = Boolean(event.target.value) && item.dataset.stream !== event.target.value;
  });
  window.addEventListener("resize", () => {
    for (const stream of page.streams.values()) stream.timeline.relayout();
  });
  $("scenario-title").tabIndex = -1;
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
  window.addEventListener("hashchange", route);
  requestAnimationFrame(animate);
  await route();
}

start();
