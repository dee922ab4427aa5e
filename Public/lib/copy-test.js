// "Copy as a test": a program and its run on the virtual clock written by the server as a Swift
// Testing test (POST /api/marbles/test), shown under the button and put on the clipboard when the
// browser allows it. One helper for the gallery's entries and comparisons and the editor's programs.
import { writeMarbleTest } from "./api.js";

/**
 * Writes the test of `program` into `output` (a <pre> kept hidden until there is a test) and says
 * in `status` what happened. `options` as `writeMarbleTest` takes them.
 */
export async function copyAsTest(program, options, { status, output }) {
  status.textContent = "Writing the test…";
  let source;
  try {
    source = await writeMarbleTest(program, options);
  } catch (error) {
    output.hidden = true;
    status.textContent = error.code === "pipeline_invalid"
      ? "This program cannot run, so it has no test yet: see its problems."
      : `No test: ${error.message}`;
    return null;
  }
  output.textContent = source;
  output.hidden = false;
  try {
    await navigator.clipboard.writeText(source);
    status.textContent = "The test is on the clipboard, and shown below: a Swift Testing test using the Pipelines and ReactiveTesting libraries.";
  } catch {
    status.textContent = "The test is shown below, to select and copy (this browser did not let the page use the clipboard).";
  }
  return source;
}
