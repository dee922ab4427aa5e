// A session's inputs: one control per input of the scenario (text, number, switch, choice, action),
// each posting what the learner does to the session, with buttons that complete or fail it.
import { APIError, InputSender } from "../lib/api.js";
import { html } from "../lib/dom.js";
import { explain, notice } from "../lib/notice.js";

/**
 * A text field bound to the stream of the same name (the binding scenario's fields): it shows what
 * the stream says, except the stream's echoes of what this page typed, which would otherwise
 * overwrite newer keystrokes with older text.
 */
class BoundField {
  constructor(box) {
    this.box = box;
    this.typed = []; // values sent from this page whose events have not come back yet
  }

  sent(value) {
    this.typed.push(value);
  }

  received(event) {
    if (event.kind !== "next") return;
    const value = String(event.value);
    // Events come back in the order they were typed; one that never comes back (its post was
    // refused) is dropped with the older ones when a later echo arrives.
    const echo = this.typed.indexOf(value);
    if (echo >= 0) {
      this.typed.splice(0, echo + 1);
      return;
    }
    if (this.box.value !== value) this.box.value = value;
  }
}

/** The radio group that lets a person take one of several bound fields, the others read-only. */
function renderFieldChoice(form, fields) {
  const group = html("fieldset", "field-owner");
  group.appendChild(html("legend", undefined, "Your field"));
  const take = (name) => {
    for (const [other, field] of fields) {
      field.box.readOnly = other !== name;
      field.box.closest(".field").classList.toggle("field-taken", other === name);
    }
  };
  for (const [name] of fields) {
    const label = html("label", "switch");
    const radio = html("input");
    radio.type = "radio";
    radio.name = "take-field";
    radio.value = name;
    radio.id = `take-${name}`;
    radio.addEventListener("change", () => take(name));
    label.append(radio, ` type into ${name}`);
    group.appendChild(label);
  }
  group.appendChild(html("p", "help",
    "Each person takes one field; the others follow the model. Open the session link in a second browser to try it."));
  form.prepend(group);
  const [first] = fields.keys();
  group.querySelector("input").checked = true;
  take(first);
}

/**
 * Buttons that complete or fail an input's signal (`?event=completed|error`). Returns a function
 * that shows the input as ended (also when another window ended it and a post here found out).
 */
function renderEndControls(field, input, sender, controls) {
  const group = html("div", "input-end");
  group.setAttribute("role", "group");
  group.setAttribute("aria-label", `End ${input.name}`);
  const status = html("span", "input-ended");
  status.setAttribute("aria-live", "polite");
  const buttons = [];
  const showEnded = (how) => {
    for (const control of [...controls, ...buttons]) control.disabled = true;
    status.textContent = how;
  };
  for (const [kind, text, title] of [["completed", "Complete", "sendCompleted: | travels down the pipeline"],
    ["error", "Fail", "sendError: # travels down the pipeline"]]) {
    const button = html("button", "secondary", text);
    button.type = "button";
    button.id = `${kind === "error" ? "fail" : "complete"}-${input.name}`;
    button.title = title;
    button.setAttribute("aria-label", `${text} ${input.name}`);
    button.addEventListener("click", async () => {
      if (await sender.end(kind)) showEnded(kind === "error" ? "failed" : "completed");
    });
    buttons.push(button);
  }
  group.append(...buttons, status);
  field.appendChild(group);
  return showEnded;
}

/**
 * The scenario's inputs as controls in `form`, each posting to the session (through its room, for
 * a room's teacher: `room` is `{id, key, role}`; a student drives nothing). Returns the bound text
 * fields by name (their streams' events go to `received`).
 */
export function renderInputs(form, scenario, sessionID, room = null) {
  form.replaceChildren();
  form.closest(".panel").hidden = scenario.inputs.length === 0 || (room && room.role !== "teacher"); // the ticker has none; a room is driven by its teacher alone
  form.onsubmit = (event) => event.preventDefault();
  const streamNames = new Set(scenario.streams.map((stream) => stream.name));
  const boundFields = new Map();
  for (const input of scenario.inputs) {
    let showEnded = () => {};
    const sender = new InputSender(sessionID, input.name, (error) => {
      if (error instanceof APIError && error.code === "input_ended") showEnded("ended");
      notice(explain(error));
    }, room);
    const field = html("div", `field field-${input.kind}`);
    const id = `input-${input.name}`;
    let control;
    if (input.kind === "action") {
      control = html("button", "action", input.name);
      control.type = "button";
      control.addEventListener("click", () => sender.send(null));
      field.appendChild(control);
    } else if (input.kind === "bool") {
      const label = html("label", "switch");
      control = html("input");
      control.type = "checkbox";
      control.setAttribute("role", "switch");
      control.addEventListener("change", () => sender.send(control.checked));
      label.append(control, ` ${input.name}`);
      field.appendChild(label);
    } else if (input.kind === "choice") {
      const label = html("label", undefined, input.name);
      label.htmlFor = id;
      control = html("select");
      for (const option of input.options ?? []) control.appendChild(html("option", undefined, option));
      control.addEventListener("change", () => sender.send(control.value));
      field.append(label, control);
    } else {
      const label = html("label", undefined, input.name);
      label.htmlFor = id;
      const box = html("input");
      control = box;
      box.type = input.kind === "number" ? "number" : "text";
      box.autocomplete = "off";
      box.spellcheck = false;
      const bound = input.kind === "text" && streamNames.has(input.name) ? new BoundField(box) : null;
      if (bound) boundFields.set(input.name, bound);
      box.addEventListener("input", () => {
        const value = input.kind === "number" ? Number(box.value) : box.value;
        bound?.sent(value);
        sender.send(value);
      });
      field.append(label, box);
    }
    control.id = id;
    control.setAttribute("aria-describedby", `${id}-help`);
    const help = html("p", "help", input.description);
    help.id = `${id}-help`;
    field.appendChild(help);
    showEnded = renderEndControls(field, input, sender, [control]);
    form.appendChild(field);
  }
  if (boundFields.size > 1) renderFieldChoice(form, boundFields);
  return boundFields;
}
