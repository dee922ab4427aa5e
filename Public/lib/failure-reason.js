// Why a stream failed, in words under its `#`: an error event's value is `{code, message}` (the
// server's `closure_failed`, `timeout`, a diagram's `failure`…), and its message is the reason.
// The lessons' rows and the session's diagram both write it with these.
import { html, prose } from "./dom.js";

let notes = 0;

/**
 * The reason of an error whose value is `value`: its message (else its code). A place the
 * message starts with ("line 3, column 12: ") is counted in the learner's own lines when
 * `linesBefore` lines of the run's program came before them (a lesson's rows); a place in those
 * lines is left out, since the learner never wrote them.
 */
export function failureReason(value, linesBefore = 0) {
  const message = typeof value?.message === "string" && value.message ? value.message : String(value?.code ?? "an error");
  const place = /^line (\d+), column (\d+): /.exec(message);
  if (!place || !linesBefore) return message;
  const line = Number(place[1]) - linesBefore;
  const rest = message.slice(place[0].length);
  return line >= 1 ? `line ${line}, column ${place[2]}: ${rest}` : rest;
}

/**
 * A visible line that says why `subject` failed and when (`at`, words such as "100 ms"): a red
 * cross as its marble has, then the reason, code as code. It has an id, so that the lane it
 * explains can point at it (`aria-describedby`) and a screen reader says it with the lane.
 */
export function reasonNote(subject, at, reason, className = "failure-reason") {
  const note = html("p", className);
  notes += 1;
  note.id = `failure-reason-${notes}`;
  const cross = html("span", "failure-cross", "✕ ");
  cross.setAttribute("aria-hidden", "true");
  note.append(cross, ...prose("span", `${subject} fails at ${at}: ${reason}`).childNodes);
  return note;
}
