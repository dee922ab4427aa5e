// The source panel: the scenario's Swift file (or the learner's program) beside its streams, the
// lines that make a named stream marked, opened on the lines that build the pipeline.
import { byId, html } from "../lib/dom.js";

/** The stream a line of a scenario's Swift names: `stream("name", …)` (a stage later stages read)
 * or `watch("name", …)` (one the session watches), or `"name",` alone on the line after
 * `stream(` or `watch(` (as swift-format breaks a long call). */
function streamNamedOn(line, previous = "") {
  const match = line.match(/(?:stream|watch)\("([A-Za-z]+)"/) ?? (/(?:stream|watch)\($/.test(previous) ? line.match(/^\s*"([A-Za-z]+)",/) : null);
  return match?.slice(1);
}

/** The button that shows or hides the `count` folded lines above the pipeline (none: no button). */
function renderUnfold(code, count, folded) {
  byId("source-unfold")?.remove();
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
  code.closest("pre").before(button);
}

/** The stream a line of a program defines: `name = …` (or none). */
function streamDefinedOn(line) {
  return line.match(/^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=/)?.slice(1);
}

/** Draws `lines` into `code`, marking the lines `made(line, index)` names streams of. */
function drawLines(code, lines, made, { foldAbove = 0 } = {}) {
  code.replaceChildren();
  const folded = html("span", "folded");
  folded.hidden = true;
  folded.id = "source-folded";
  renderUnfold(code, foldAbove, folded);
  if (foldAbove > 0) code.appendChild(folded);
  lines.forEach((line, index) => {
    const node = html("span", "line", line || " ");
    const names = made(line, index);
    if (names) {
      node.classList.add("defines");
      node.dataset.stream = names.join(" ");
      node.dataset.line = String(index + 1);
    }
    (index < foldAbove ? folded : code).appendChild(node);
  });
}

/** A scenario's Swift, opened on the lines that build its pipeline (the rest folded above). */
function drawSwift(code, scenario) {
  const lines = scenario.source.swift.split("\n");
  let firstBuilding = lines.findIndex((line, index) => streamNamedOn(line, lines[index - 1]));
  if (firstBuilding > 0 && /stream\($/.test(lines[firstBuilding - 1])) firstBuilding -= 1;
  drawLines(code, lines, (line, index) => streamNamedOn(line, lines[index - 1]), { foldAbove: Math.max(0, firstBuilding) });
}

/** A program: its streams and stages say their line. */
function drawProgram(code, text, streams) {
  const byLine = new Map();
  for (const stream of streams ?? []) {
    if (stream.line) byLine.set(stream.line, [...(byLine.get(stream.line) ?? []), stream.name]);
  }
  drawLines(code, text.split("\n"), (line, index) => (streams ? byLine.get(index + 1) : streamDefinedOn(line)));
}

/** "Swift" and "As a program": the two texts of a scenario that has a program too. */
function renderChoice(choice, scenario, path, code) {
  choice.replaceChildren();
  choice.hidden = !scenario.pipeline || Boolean(scenario.program);
  if (choice.hidden) return;
  const options = [["swift", "Swift"], ["program", "As a program"]];
  const buttons = options.map(([kind, text]) => {
    const button = html("button", "secondary", text);
    button.type = "button";
    button.dataset.kind = kind;
    button.addEventListener("click", () => show(kind));
    return button;
  });
  const show = (kind) => {
    for (const button of buttons) button.setAttribute("aria-pressed", String(button.dataset.kind === kind));
    path.textContent = kind === "swift" ? scenario.source.path : "the scenario as a program (Edit this pipeline opens it)";
    if (kind === "swift") drawSwift(code, scenario);
    else drawProgram(code, scenario.pipeline);
  };
  choice.append(...buttons);
}

/**
 * Shows `scenario`'s source: `path` names it, `code` holds its lines, `choice` offers the program
 * text of a scenario that has one.
 */
export function renderSource({ path, code, choice }, scenario) {
  path.textContent = scenario.source.path;
  renderChoice(choice, scenario, path, code);
  if (scenario.program) drawProgram(code, scenario.source.swift, scenario.streams);
  else drawSwift(code, scenario);
  choice.querySelector('[data-kind="swift"]')?.setAttribute("aria-pressed", "true");
  choice.querySelector('[data-kind="program"]')?.setAttribute("aria-pressed", "false");
}
