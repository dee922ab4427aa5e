// The source panel: the scenario's Swift file (or the learner's program) beside its streams, the
// lines that make a named stream marked, opened on the lines that build the pipeline.
import { html } from "../dom.js";

/** The stream a line of a scenario's Swift names: `stream("name", …)`, or `"name",` alone on the
 * line after `stream(` (as swift-format breaks a long call). */
function streamNamedOn(line, previous = "") {
  const match = line.match(/stream\("([A-Za-z]+)"/) ?? (/stream\($/.test(previous) ? line.match(/^\s*"([A-Za-z]+)",/) : null);
  return match?.slice(1);
}

/** The button that shows or hides the `count` folded lines above the pipeline (none: no button). */
function renderUnfold(code, count, folded) {
  document.getElementById("source-unfold")?.remove();
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

/** Shows `scenario`'s source in `path` (its file name) and `code` (its lines). */
export function renderSource({ path, code }, scenario) {
  path.textContent = scenario.source.path;
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
  renderUnfold(code, firstBuilding > 0 ? firstBuilding : 0, folded);
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
