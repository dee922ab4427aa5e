// Marble notation (RxJS's), the page's one reader and writer of it, as the server's MarbleNotation
// module is the server's: a row of values, completion and errors, and a subscription's row.
// Pure functions, no DOM: the gallery, the lessons, the find and the editor all read rows here.

/** What a letter of a row sends when nothing says otherwise: a digit is a number, a letter itself. */
export const letterValue = (symbol) => (/^\d$/.test(symbol) ? Number(symbol) : symbol);

/**
 * A row of RxJS notation as frames: `{values: [{frame, symbol}], end: {frame, kind} | null}`, or
 * a message saying what is wrong. As in RxJS, every character but a space takes a frame.
 */
export function parseRow(text) {
  const values = [];
  let end = null;
  let frame = 0;
  let group = null;
  for (const character of text.replaceAll(" ", "")) {
    if (end && !(character === ")" && group !== null)) return { error: "nothing may follow | or #" };
    const at = group ?? frame;
    if (character === "(") {
      if (group !== null) return { error: "groups do not nest" };
      group = frame;
    } else if (character === ")") {
      if (group === null) return { error: ") without (" };
      group = null;
    } else if (character === "|" || character === "#") {
      end = { frame: at, kind: character };
    } else if (/^[A-Za-z0-9]$/.test(character)) {
      values.push({ frame: at, symbol: character });
    } else if (character !== "-") {
      return { error: `${character} is not marble notation: -, a letter or digit, ( ), | or #` };
    }
    frame += 1;
  }
  if (group !== null) return { error: "a group ( is not closed" };
  return { values, end };
}

/**
 * A row back as notation (`parseRow`'s shape) that `parseRow` reads back to exactly these frames;
 * values in one frame are grouped. A group takes a frame per character, so a row with an event
 * inside a group's span cannot be written at its frame: the answer is then `null`, never a row
 * that puts the event elsewhere.
 */
export function renderRow({ values, end }) {
  const byFrame = new Map();
  for (const value of values) byFrame.set(value.frame, [...(byFrame.get(value.frame) ?? []), value.symbol]);
  if (end) byFrame.set(end.frame, [...(byFrame.get(end.frame) ?? []), end.kind]);
  let text = "";
  let cursor = 0;
  for (const frame of [...byFrame.keys()].sort((a, b) => a - b)) {
    if (frame < cursor) return null; // inside a group drawn before: the notation cannot say it
    text += "-".repeat(frame - cursor);
    const symbols = byFrame.get(frame);
    text += symbols.length > 1 ? `(${symbols.join("")})` : symbols[0];
    cursor = frame + (symbols.length > 1 ? symbols.length + 2 : 1);
  }
  return text;
}

/**
 * A subscription in RxJS's subscription-marble notation (`--^---!`, `(^!)`, no `!` while live) as
 * the frames it began and ended in (`end` null: still live at the end of the drawing).
 */
export function parseSubscription(text) {
  const start = text.indexOf("^") - (text.includes("(^!)") ? 1 : 0);
  if (text.includes("(^!)")) return { start, end: start };
  const bang = text.indexOf("!");
  return { start, end: bang < 0 ? null : bang };
}

/**
 * A drawn stream's notation as a sentence may quote it: its marbles, with the frame they are
 * written at when it is not `frame` (a stream too dense for it), or its note when it has none.
 */
export function writtenAs(drawing, frame) {
  if (typeof drawing.marbles !== "string") return `(no diagram: ${drawing.note ?? "its events are too close to write"})`;
  return drawing.frame && drawing.frame !== frame ? `${drawing.marbles} (one character per ${drawing.frame} ms)` : drawing.marbles;
}
