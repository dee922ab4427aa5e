// The first page: connects to the ticker's event stream and shows every stream's values live.
// Values are always rendered as text (textContent), never as HTML.

const scenarioID = "ticker";
const maxLogEntries = 50;

const rows = new Map();
const tbody = document.querySelector("#streams tbody");
const log = document.getElementById("log");
const connection = document.getElementById("connection");

function rowFor(stream, operator = "") {
  let row = rows.get(stream);
  if (!row) {
    const tr = document.createElement("tr");
    tr.dataset.stream = stream;
    const cells = [stream, operator, "—", "0"].map((text, index) => {
      const cell = document.createElement(index === 0 ? "th" : "td");
      if (index === 0) cell.scope = "row";
      cell.textContent = text;
      tr.appendChild(cell);
      return cell;
    });
    tbody.appendChild(tr);
    row = { value: cells[2], count: cells[3], events: 0 };
    rows.set(stream, row);
  }
  return row;
}

function show(event) {
  const row = rowFor(event.stream);
  row.events += 1;
  row.count.textContent = String(row.events);
  row.value.textContent = event.kind === "next" ? JSON.stringify(event.value) : event.kind;
  row.value.classList.add("value");

  const item = document.createElement("li");
  item.textContent = `#${event.seq} ${event.stream} ${event.kind}${event.kind === "next" ? " " + JSON.stringify(event.value) : ""} at ${event.t} ms`;
  log.prepend(item);
  while (log.children.length > maxLogEntries) log.lastElementChild.remove();
}

async function loadCatalogue() {
  const response = await fetch(`/api/scenarios/${scenarioID}`);
  if (!response.ok) return;
  const scenario = await response.json();
  document.getElementById("scenario-title").textContent = scenario.title;
  document.getElementById("scenario-description").textContent = scenario.description;
  for (const stream of scenario.streams) rowFor(stream.name, stream.operator);
}

function connect(streamNames) {
  const source = new EventSource(`/api/scenarios/${scenarioID}/events`);
  source.onopen = () => { connection.textContent = "live"; };
  source.onerror = () => {
    connection.textContent = source.readyState === EventSource.CLOSED ? "disconnected" : "reconnecting…";
  };
  for (const name of streamNames) {
    source.addEventListener(name, (message) => show(JSON.parse(message.data)));
  }
}

loadCatalogue()
  .catch(() => {})
  .finally(() => connect([...rows.keys()]));
