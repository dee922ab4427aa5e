// A row of marbles drawn and edited as the gallery's input rows are — click to add a marble, drag
// or arrow keys to move it, Delete to remove it, a letter key to change its value, E to turn a
// completion into an error — and kept in step with a field of its notation, for the forms that
// ask for a row (a lesson's prediction, the find's rows). It borrows the gallery's own row editing, which needs only `rows`, a frame
// count and a redraw, rather than being a second one.
import { Gallery, parseRow } from "./gallery.js";

/**
 * Makes `lane` (an SVG) the drawing of the notation in `field`, both ways. `endChoice` is a select
 * of how the row ends (`|`, `#`, ``), if the form has one; `letters()` the letters a new marble
 * takes in turn; `minFrames()` the row's least length; `onChange` runs after each edit.
 */
export function editableRow({ name, field, lane, endChoice = { value: "" }, letters = () => [], minFrames = () => 16, onChange = () => {} }) {
  const row = { name, letters: {}, nested: {}, values: [], end: null, field, endChoice };
  const editor = Object.assign(Object.create(Gallery.prototype), {
    row,
    rows: [row],
    scheduleDraw: onChange,
    nextSymbol: (target) => {
      const choices = letters();
      return choices.find((letter) => !target.values.some((value) => value.symbol === letter)) ?? choices[0] ?? "a";
    },
    /** Reads the field's notation into the row and draws it (nothing when it does not parse). */
    read() {
      const text = field.value.trim();
      const parsed = text ? parseRow(text) : { values: [], end: null };
      if (parsed.error) return parsed;
      Object.assign(row, { values: parsed.values, end: parsed.end });
      endChoice.value = parsed.end?.kind ?? "";
      editor.drawInput(row, lane);
      return parsed;
    },
  });
  Object.defineProperty(editor, "frames", {
    get: () => Math.max(minFrames(), ...row.values.map((value) => value.frame + 4), (row.end?.frame ?? 0) + 4),
  });
  field.addEventListener("input", () => editor.read());
  endChoice.addEventListener?.("change", () => editor.endChosen(row, lane));
  lane.addEventListener("click", (event) => editor.addMarble(row, lane, event));
  editor.read();
  return editor;
}
