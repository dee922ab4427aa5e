// A run's own actions, on a live session's page and on a kept run's (its /s/ link): keep it by a
// link under the title the learner writes (a live session only: a kept run is kept already), turn
// it into marbles, and compare it with another run — a kept run's link is enough, no live session
// is needed. Titles are shown as text, never as markup.
import { keepRun, sessionRecording } from "../lib/api.js";
import { byId } from "../lib/dom.js";
import { explain, notice } from "../lib/notice.js";
import { rememberLink } from "../lib/links.js";

/** The title a run is kept under unless the learner writes another (the server's default too). */
export const defaultRunTitle = (scenario) => `A run of ${scenario.title}`;

export class RunActions {
  /** Wires the actions' controls to `runRows`, the "This run as marbles" panel. */
  constructor(runRows) {
    this.runRows = runRows;
    this.target = null;
    byId("keep-run-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.keep();
    });
    byId("run-rows-open").addEventListener("click", () => this.open(false));
    byId("run-compare-open").addEventListener("click", () => this.open(true));
  }

  /**
   * The actions for session `sessionID` of `scenario` (a room's: `room`, whose session is its
   * teacher's and has none of them), or for a kept run (`replay`, with its `title`).
   */
  show({ scenario, sessionID, room, replay }) {
    this.target = { scenario, sessionID, room, replay };
    byId("run-actions").hidden = Boolean(room && !replay);
    byId("keep-run-form").hidden = Boolean(replay);
    byId("keep-run-title").value = defaultRunTitle(scenario);
    byId("kept-run").replaceChildren();
  }

  /** Keeps the session's run under the title written (trimmed; empty: the default). */
  async keep() {
    const { sessionID, room } = this.target;
    const status = byId("kept-run");
    const title = byId("keep-run-title").value.trim();
    try {
      const link = await keepRun(sessionID, room, title || undefined);
      rememberLink(link);
      const anchor = document.createElement("a");
      anchor.href = link.url;
      anchor.textContent = `${location.origin}${link.url}`;
      const name = document.createElement("q");
      name.className = "kept-run-title";
      name.textContent = link.title;
      status.replaceChildren("Kept ", name, ": ", anchor);
    } catch (error) {
      status.textContent = `Not kept: ${explain(error)}`;
    }
  }

  /**
   * Opens the run as marbles (a kept run's recording is its own; a live session's is asked for as
   * it is now); with `compare`, the comparison's field is focused for another run's link.
   */
  async open(compare) {
    const { scenario, sessionID, room, replay } = this.target;
    if (compare && this.runRows.showing(replay ?? null, sessionID)) {
      this.runRows.focusCompare();
      return;
    }
    try {
      const recording = replay ?? await sessionRecording(sessionID, room);
      if (!recording.rows) {
        notice("This run was kept before runs had marble rows: keep a new run to turn it into marbles.");
        return;
      }
      this.runRows.open(scenario, recording, { name: replay ? replay.title : null, session: replay ? null : sessionID });
      if (compare) this.runRows.focusCompare();
    } catch (error) {
      notice(explain(error));
    }
  }
}
