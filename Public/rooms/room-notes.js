// The teacher's notes to the students whose wrong answer missed one thing (docs/ROOMS.md, "Notes"):
// a small form under each group of the class's answers by what they missed; each student whose
// answer is in the group reads the note at the reveal. The room's view is drawn again with every
// snapshot, so what the teacher is typing is kept in `drafts` until it is saved.
import { html } from "../lib/dom.js";

/** The note forms of `view`'s groups; `save(group, note)` sends one (null: taken back). */
export function noteForms(view, { drafts, save }) {
  const groups = Array.isArray(view.class?.missed) ? view.class.missed : [];
  return groups.map(({ group, sentence, note }) => {
    const form = html("form", "room-note");
    const id = `room-note-${group}`;
    const label = html("label", undefined, `Note to those who: ${String(sentence ?? "").replace(/\.$/, "").toLowerCase()} (they read it at the reveal)`);
    label.htmlFor = id;
    const field = html("input");
    Object.assign(field, { id, maxLength: 200, autocomplete: "off", value: drafts.get(group) ?? note ?? "" });
    field.addEventListener("input", () => drafts.set(group, field.value));
    const button = html("button", "secondary", note ? "Change the note" : "Save the note");
    button.type = "submit";
    form.append(label, field, button);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      drafts.delete(group);
      save(group, field.value.trim() || null);
    });
    return form;
  });
}
