// The page's notice line: what went wrong, in words a learner can act on. Every view reports here.
import { APIError } from "./api.js";
import { byId } from "./dom.js";

/** Shows `message` in the notice line, or hides the line (null). */
export function notice(message) {
  const line = byId("notice");
  line.textContent = message ?? "";
  line.hidden = !message;
}

/** An error as a sentence for the notice line. */
export function explain(error) {
  if (error instanceof APIError) {
    if (error.status === 429) return `Slow down: ${error.message}`;
    if (error.status === 503) return `The server is busy: ${error.message}`;
    return error.message;
  }
  return String(error);
}

/** The notice for a session that is gone (expired, deleted) or for any other error. */
export function explainSessionError(error) {
  return error instanceof APIError && error.code === "unknown_session"
    ? "This session has ended (it expired or was deleted). Pick a scenario to start a new one."
    : explain(error);
}
