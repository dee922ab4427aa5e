// The program editor: a plain textarea (so every keyboard, screen reader and input method works as
// usual) over a highlighted copy of its text, with line numbers, problems marked at their line and
// column, and a list of the problems that moves the caret to each.
import { docsLink, docsPage } from "../lib/docs-links.js";

const KEYWORDS = new Set(["input", "true", "false", "nil", "null", "in", "text", "number", "bool", "action", "choice"]);
// One token at a time, in this order; a position that matches none is plain text.
const TOKENS = [
  ["comment", /\/\/.*/y],
  ["string", /"(?:[^"\\]|\\.)*"?/y],
  ["duration", /\d+(?:\.\d+)?(?:ms|min|s)\b/y],
  ["number", /\d+(?:\.\d+)?/y],
  ["parameter", /\$\d+/y],
  ["member", /\.[A-Za-z_][A-Za-z0-9_]*/y],
  ["name", /[A-Za-z_][A-Za-z0-9_]*/y],
];

/** The classes of one line's characters: syntax, then the worst problem that covers each. */
function classify(line, problems) {
  const syntax = new Array(line.length).fill("");
  let at = 0;
  while (at < line.length) {
    let matched = false;
    for (const [kind, pattern] of TOKENS) {
      pattern.lastIndex = at;
      const match = pattern.exec(line);
      if (!match || !match[0].length) continue;
      const text = match[0];
      const cls = kind === "name" && KEYWORDS.has(text) ? "keyword" : kind;
      for (let index = at; index < at + text.length; index += 1) syntax[index] = cls;
      at += text.length;
      matched = true;
      break;
    }
    if (!matched) at += 1;
  }
  const marks = new Array(line.length + 1).fill("");
  for (const problem of problems) {
    const start = Math.max(0, problem.column - 1);
    const end = Math.max(start + 1, Math.min(line.length + 1, problem.endColumn - 1));
    for (let index = start; index < end; index += 1) {
      if (marks[index] !== "error") marks[index] = problem.severity;
    }
  }
  return { syntax, marks };
}

/** Renders one line into `target` as runs of same-class characters. */
function renderLine(target, line, problems) {
  const { syntax, marks } = classify(line, problems);
  const text = marks[line.length] ? line + " " : line; // a problem at the end of a line marks a space
  let start = 0;
  for (let index = 1; index <= text.length; index += 1) {
    if (index < text.length && (syntax[index] ?? "") === (syntax[start] ?? "") && marks[index] === marks[start]) continue;
    const span = document.createElement("span");
    if (syntax[start]) span.className = `tok-${syntax[start]}`;
    if (marks[start]) span.classList.add(`problem-${marks[start]}`);
    span.textContent = text.slice(start, index);
    target.appendChild(span);
    start = index;
  }
  target.appendChild(document.createTextNode("\n"));
}

/** A problem's message and hint as one sentence: "unknown operator `filtr`: did you mean `filter`?" */
function sentence(problem) {
  return problem.hint ? `${problem.message}: ${problem.hint}` : problem.message;
}

export class ProgramEditor {
  /** `elements`: the textarea, the highlight and gutter layers, the problem list and its summary. */
  constructor({ textarea, highlight, gutter, problems, summary }, { onChange, onRun }) {
    Object.assign(this, { textarea, highlight, gutter, problems, summary, onChange, onRun });
    this.diagnostics = [];
    textarea.addEventListener("input", () => {
      this.render();
      onChange(this.value);
    });
    textarea.addEventListener("scroll", () => this.syncScroll());
    textarea.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        onRun();
      }
    });
    this.render();
  }

  get value() {
    return this.textarea.value;
  }

  set value(text) {
    this.textarea.value = text;
    this.setDiagnostics([]);
  }

  /** Shows `diagnostics` (from the server's check or a refused run) in the text, gutter and list. */
  setDiagnostics(diagnostics) {
    this.diagnostics = diagnostics;
    this.render();
    this.problems.replaceChildren();
    for (const problem of diagnostics) {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = `problem problem-item-${problem.severity}`;
      button.dataset.line = problem.line;
      button.dataset.column = problem.column;
      button.textContent = `Line ${problem.line}, column ${problem.column} — ${problem.severity}: ${sentence(problem)}`;
      button.addEventListener("click", () => this.reveal(problem.line, problem.column));
      item.appendChild(button);
      this.problems.appendChild(item);
      this.linkDocumentation(problem, item);
    }
    const errors = diagnostics.filter((problem) => problem.severity === "error").length;
    const warnings = diagnostics.length - errors;
    const first = diagnostics[0];
    this.summary.textContent = !diagnostics.length ? "No problems found."
      : `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}. ` +
        `First, line ${first.line}: ${sentence(first)}`;
    this.summary.dataset.state = errors ? "error" : warnings ? "warning" : "ok";
  }

  /**
   * After a problem whose hint names an operator ("did you mean `throttle`?", "here it is
   * `flatMap(.latest)`"), a link to that operator's documentation page.
   */
  async linkDocumentation(problem, item) {
    const named = [...(problem.hint ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    const spelling = named.find((name) => !problem.message.includes(`\`${name}\``)) ?? null;
    const page = spelling && await docsPage(spelling);
    if (!page || !item.isConnected) return;
    item.append(" ", docsLink(page, `${page.label} in the documentation`));
  }

  /** Puts the caret at `line`, `column` (from 1, in UTF-16 code units, as diagnostics count). */
  reveal(line, column) {
    const lines = this.value.split("\n");
    let offset = 0;
    for (let index = 0; index < Math.min(line - 1, lines.length); index += 1) offset += lines[index].length + 1;
    offset += Math.max(0, Math.min(column - 1, (lines[line - 1] ?? "").length));
    this.textarea.focus();
    this.textarea.setSelectionRange(offset, offset);
  }

  render() {
    const lines = this.value.split("\n");
    const byLine = new Map();
    for (const problem of this.diagnostics) {
      if (!byLine.has(problem.line)) byLine.set(problem.line, []);
      byLine.get(problem.line).push(problem);
    }
    const code = document.createElement("code");
    lines.forEach((line, index) => renderLine(code, line, byLine.get(index + 1) ?? []));
    this.highlight.replaceChildren(code);
    this.gutter.replaceChildren();
    lines.forEach((_, index) => {
      const number = document.createElement("span");
      number.textContent = String(index + 1);
      const problems = byLine.get(index + 1);
      if (problems) number.className = problems.some((problem) => problem.severity === "error") ? "gutter-error" : "gutter-warning";
      this.gutter.append(number, "\n");
    });
    this.syncScroll();
  }

  syncScroll() {
    this.highlight.scrollTop = this.textarea.scrollTop;
    this.highlight.scrollLeft = this.textarea.scrollLeft;
    this.gutter.scrollTop = this.textarea.scrollTop;
  }
}

/** A program as the fragment of a share link: base64url of its UTF-8 text. */
export function encodeProgram(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The program of a share link's fragment, or `null` when it is not base64url of UTF-8 text. */
export function decodeProgram(encoded) {
  try {
    const binary = atob(encoded.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
