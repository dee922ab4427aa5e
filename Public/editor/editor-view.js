// The editor view: the learner's program, checked by the server as they type, run as a session of
// its own. It keeps the last program in local storage, so the editor opens on it next time.
import { APIError, checkProgram, describeProblems, keepLink, runProgram } from "../lib/api.js";
import { addVariant } from "./compare-lines.js";
import { copyAsTest } from "../lib/copy-test.js";
import { byId, html, prose } from "../lib/dom.js";
import { rememberLink, versionOf } from "../lib/links.js";
import { ProgramEditor } from "./editor.js";
import { explain, notice } from "../lib/notice.js";

/** How long the editor waits after a keystroke before it asks the server to check the program. */
const CHECK_DELAY_MS = 300;
/** Where the editor keeps the learner's last program, so that it opens on it next time. */
const LAST_PROGRAM_KEY = "playground.lastProgram";

/** The program the learner last wrote here, or null (none, or storage unavailable). */
export function lastProgram() {
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

export class EditorView {
  /**
   * `scenarios` and `examples` fill the "Start from" menu; `onSession({created, text, clock})` is
   * called when a program runs as a new session.
   */
  constructor({ scenarios, examples, onSession }) {
    this.panel = byId("editor-panel");
    this.onSession = onSession;
    this.checkTimer = null;
    this.checkNumber = 0;
    this.editor = new ProgramEditor({
      textarea: byId("program"), highlight: byId("editor-highlight"), gutter: byId("editor-gutter"),
      problems: byId("problems"), summary: byId("problems-summary"),
    }, { onChange: () => this.scheduleCheck(), onRun: () => this.run() });
    byId("run").addEventListener("click", () => this.run());
    byId("compare").addEventListener("click", () => this.compare());
    byId("copy-test").addEventListener("click", () => copyAsTest(this.editor.value, { name: "program", title: "A program from the editor" },
      { status: byId("copy-test-status"), output: byId("copy-test-source") }));
    byId("keep-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.keep();
    });
    this.renderExamples(scenarios, examples);
  }

  /**
   * Shows the editor, with `text` in it when given (else what it holds); `kept` is the link it
   * was opened from, whose new version a keep makes.
   */
  mount({ text, focus = false, kept }) {
    this.panel.hidden = false;
    if (kept !== undefined) this.opened(kept);
    if (text !== undefined && text !== this.editor.value) {
      this.editor.value = text;
      this.scheduleCheck();
    }
    if (focus) byId("program").focus();
  }

  unmount() {
    this.panel.hidden = true;
  }

  /** Asks the server to check the program once typing pauses; only the latest answer is shown. */
  scheduleCheck() {
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(async () => {
      const number = ++this.checkNumber;
      const text = this.editor.value;
      rememberProgram(text);
      if (!text.trim()) {
        this.editor.setDiagnostics([]);
        return;
      }
      try {
        const diagnostics = await checkProgram(text);
        if (number === this.checkNumber) this.editor.setDiagnostics(diagnostics);
      } catch (error) {
        if (number !== this.checkNumber) return;
        if (error instanceof APIError && error.status === 429) this.scheduleCheck(); // checked again after the pause
        else byId("problems-summary").textContent = `Not checked: ${explain(error)}`;
      }
    }, CHECK_DELAY_MS);
  }

  /**
   * "Compare with…": a copy of the stream where the caret is (else the last), under a new name,
   * its expression selected for the learner to change; the `// compare:` line it adds makes the
   * session's diagram ring the events that are not in both.
   */
  compare() {
    const textarea = byId("program");
    const added = addVariant(this.editor.value, textarea.selectionStart);
    if (added.problem) {
      byId("compare-status").textContent = added.problem;
      return;
    }
    this.editor.value = added.text;
    textarea.focus();
    textarea.setSelectionRange(...added.selection);
    byId("compare-status").textContent =
      `${added.variant} is a copy of ${added.name}, selected: change it, then Run — the events not in both are ringed.`;
    this.scheduleCheck();
  }

  /** The editor holds link `kept` (or no link): its title offered, a keep makes a new version of it. */
  opened(kept) {
    this.kept = kept;
    byId("keep-title").value = kept?.title ?? byId("keep-title").value;
    byId("keep-status").replaceChildren(...(kept
      ? [prose("span", `Opened from the link \`/s/${kept.id}\` (“${kept.title}”). `), ...versionOf(kept),
        "Keeping it again makes a new version; this link never changes."]
      : []));
  }

  /** Keeps the program by a link (POST /api/links), a new version of the link it was opened from. */
  async keep() {
    const status = byId("keep-status");
    const content = this.editor.value;
    const title = byId("keep-title").value.trim();
    if (this.kept && this.kept.content === content && this.kept.title === title) {
      status.replaceChildren(this.linkLine("Already kept as", this.kept));
      return;
    }
    status.textContent = "Keeping…";
    try {
      const link = await keepLink({ kind: "program", title, content, ...(this.kept ? { from: this.kept.id } : {}) });
      rememberLink(link);
      this.kept = { ...link, content };
      status.replaceChildren(this.linkLine(link.from ? `Kept, a new version of /s/${link.from}, as` : "Kept as", link));
    } catch (error) {
      if (error instanceof APIError && error.code === "program_invalid") {
        this.editor.setDiagnostics(error.details.diagnostics ?? []);
        status.replaceChildren(prose("span", `Not kept: ${describeProblems(error)}.`));
      } else {
        status.textContent = `Not kept: ${error.message}`;
      }
    }
  }

  /** "`words` <the link's address>", the address a link of its own. */
  linkLine(words, link) {
    const line = html("span");
    const anchor = html("a", undefined, `${location.origin}/s/${link.id}`);
    anchor.href = `/s/${link.id}`;
    line.append(`${words} `, anchor, ". It never changes; an edit kept is a new link.");
    return line;
  }

  /** Runs the editor's program as a new session, or shows why it cannot run (then the diagram is scrolled into view). */
  async run() {
    const text = this.editor.value;
    const clock = byId("program-clock").value;
    byId("run").disabled = true;
    try {
      const created = await runProgram(text, clock);
      this.editor.setDiagnostics(created.pipeline?.diagnostics ?? []);
      await this.onSession({ created, text, clock });
      revealDiagram();
    } catch (error) {
      if (error instanceof APIError && error.code === "pipeline_invalid") {
        this.editor.setDiagnostics(error.details.diagnostics ?? []);
        notice(null);
        byId("problems-summary").focus();
      } else {
        notice(explain(error));
      }
    } finally {
      byId("run").disabled = false;
    }
  }

  /** The examples menu: the scenarios' programs, then the server's examples. */
  renderExamples(scenarios, examples) {
    const menu = byId("examples");
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
    group("The scenarios, as programs", scenarios.filter((item) => item.pipeline).map((item) => [`scenario:${item.id}`, item.title]));
    group("Examples", examples.map((item) => [`example:${item.id}`, item.title]));
    menu.addEventListener("change", () => {
      const [kind, id] = menu.value.split(":");
      const chosen = kind === "scenario" ? scenarios.find((item) => item.id === id)?.pipeline
        : examples.find((item) => item.id === id)?.program;
      if (chosen !== undefined) this.mount({ text: chosen });
      menu.value = "";
    });
  }
}

/**
 * The room kept under the diagram when it is scrolled into view, in pixels: a lane or two more as
 * its subscriptions come in, and the detail line.
 */
const ROOM_TO_GROW = 160;

/**
 * After Run, the new session's diagram is in the first screen: the page scrolls the least that
 * shows it with room to grow, at most to its panel's top (its controls), so that as much of the
 * program as fits stays above it. Focus stays on the session's title while that is on screen, else
 * moves to the diagram, which says what it is ("Marble diagram"): focus is never left out of sight.
 */
function revealDiagram() {
  const diagram = byId("diagram");
  const panel = diagram.closest(".diagram-panel") ?? diagram;
  const below = diagram.getBoundingClientRect().bottom + ROOM_TO_GROW - innerHeight;
  if (below > 0) scrollBy({ top: Math.min(below, panel.getBoundingClientRect().top), behavior: "instant" });
  const title = byId("scenario-title").getBoundingClientRect();
  if (document.activeElement?.id === "scenario-title" && title.top < 0) diagram.focus({ preventScroll: true });
}
