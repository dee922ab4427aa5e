// The operator gallery: each operator as RxMarbles draws it — input rows above, the output below —
// computed by the real Swift operator on the server (POST /api/marbles). Input marbles are
// dragged, added, removed and edited as notation; the output is drawn again after each change.
import { describeProblems, drawMarbles } from "../lib/api.js";
import { copyAsTest } from "../lib/copy-test.js";
import { docsLink, docsPage } from "../lib/docs-links.js";
import { downloadPicture, rowsSVG } from "../diagram/diagram-export.js";
import { byId, html, prose, svg } from "../lib/dom.js";
import { encodeProgram } from "../editor/editor.js";
import { parseRow, renderRow, writtenAs } from "../lib/marble-notation.js";
import { FRAME_WIDTH, MarbleRowEditor, ROW_HEIGHT, drawSubscriptions, meaningfulDifferences, notationEditor, outputLane } from "../lib/marble-row.js";

/** The most variants an entry is compared with at once. */
const MAX_VARIANTS = 3;
/** A variant's stream name in the program: `variant1`, `variant2`… */
const variantName = (index) => `variant${index + 1}`;

/**
 * What a reader calls each variant: the last operator its expression calls (`a.rateLimit(0.2s)`:
 * "rateLimit"), else its stream's name; one called like another gets its number too. Its stream
 * keeps `variantN`: an operator's name is reserved as a stream's.
 */
function variantLabels(expressions) {
  const operators = expressions.map((expression) => [...expression.matchAll(/\.([A-Za-z][A-Za-z0-9]*)\s*\(/g)].at(-1)?.[1]);
  return operators.map((operator, index) =>
    !operator ? variantName(index) : operators.filter((other) => other === operator).length > 1 ? `${operator} ${index + 1}` : operator);
}

/** How long the gallery waits after a change before it asks the server to draw again. */
const DRAW_DELAY_MS = 120;

export class Gallery {
  constructor(entries) {
    this.groups = entries.groups;
    this.entries = entries.groups.flatMap((group) => group.entries.map((entry) => ({ ...entry, group: group.title })));
    this.timer = null;
    this.drawNumber = 0;
    this.variants = [];
    this.editor = new MarbleRowEditor({
      frames: () => this.frames,
      nextSymbol: (row) => this.nextSymbol(row),
      onChange: () => this.scheduleDraw(),
    });
    byId("gallery-compare").addEventListener("click", () => this.addVariant());
    // The embed page (Public/embed.html) shows the diagram alone: no "Copy as a test" there.
    byId("gallery-copy-test")?.addEventListener("click", () => copyAsTest(this.program(), {
      name: this.entry.id,
      title: `The gallery's ${this.entry.name}`,
      streams: [...Object.keys(this.entry.expected), ...this.variants.map((_, index) => variantName(index))],
    }, { status: byId("gallery-test-status"), output: byId("gallery-test") }));
    for (const format of ["svg", "png"]) {
      byId(`gallery-export-${format}`).addEventListener("click", () => this.export(format)
        .catch(() => { byId("gallery-status").textContent = "The PNG could not be made in this browser; the SVG can."; }));
    }
  }

  /** Downloads the entry's rows as drawn, with its program and values, as an SVG or a PNG. */
  export(format) {
    const legend = [`${this.entry.name} — ${byId("gallery-program").textContent.split("\n").filter(Boolean).join("; ")}`,
      ...[...document.querySelectorAll("#gallery-outputs .gallery-differs-legend, #gallery-outputs .gallery-legend")].map((node) => node.textContent).filter(Boolean),
      "^ a subscription began, ! it was disposed (RxJS subscription marbles)."];
    const text = rowsSVG(byId("gallery-entry"), `${this.entry.name} (Reactive Playground operator gallery)`, legend);
    return downloadPicture(text, `gallery-${this.entry.id}`, format);
  }

  // MARK: The list

  /** Shows the list, filtered by what the search box says (any of the entry's names). */
  showList() {
    byId("gallery-entry").hidden = true;
    byId("gallery-index").hidden = false;
    const query = byId("gallery-search").value.trim().toLowerCase();
    const list = byId("gallery-list");
    list.replaceChildren();
    let shown = 0;
    for (const group of this.groups) {
      const matches = group.entries.filter((entry) => !query || [entry.name, entry.rac, entry.reactiveSwift, entry.rxSwift,
        entry.rxjs, entry.combine, entry.id].some((name) => name.toLowerCase().includes(query)));
      if (!matches.length) continue;
      const section = html("section", "gallery-group");
      section.appendChild(html("h3", undefined, group.title));
      const items = html("ul", "gallery-items");
      for (const entry of matches) {
        const item = html("li");
        const link = html("a", undefined, entry.name);
        link.href = `#gallery/${entry.id}`;
        const names = html("span", "gallery-names", ` — RAC ${entry.rac}; RxSwift ${entry.rxSwift}; RxJS ${entry.rxjs}; Combine ${entry.combine}`);
        item.append(link, names);
        items.appendChild(item);
        shown += 1;
      }
      section.appendChild(items);
      list.appendChild(section);
    }
    byId("gallery-count").textContent = `${shown} operator${shown === 1 ? "" : "s"}${query ? ` match “${query}”` : ""}.`;
  }

  // MARK: One entry

  /** Shows entry `id`, with the variants a comparison link carries (expressions). */
  show(id, variants = []) {
    const entry = this.entries.find((item) => item.id === id);
    if (!entry) {
      this.showList();
      return false;
    }
    this.entry = entry;
    this.variants = variants.slice(0, MAX_VARIANTS);
    this.rows = entry.inputs.map((row) => ({
      name: row.name, letters: { ...(row.values ?? {}) }, nested: { ...(row.nested ?? {}) }, ...parseRow(row.marbles),
    }));
    byId("gallery-index").hidden = true;
    byId("gallery-entry").hidden = false;
    if (byId("gallery-test")) { // a test written for the entry shown before
      byId("gallery-test").hidden = true;
      byId("gallery-test-status").textContent = "";
    }
    byId("gallery-entry-title").textContent = entry.name;
    byId("gallery-group").textContent = entry.group;
    byId("gallery-explanation").textContent = entry.explanation;
    byId("gallery-note").hidden = !entry.note;
    byId("gallery-note").textContent = entry.note ?? "";
    byId("gallery-entry-names").textContent =
      `RAC 2.x ${entry.rac} · ReactiveSwift ${entry.reactiveSwift} · RxSwift ${entry.rxSwift} · RxJS ${entry.rxjs} · Combine ${entry.combine}`;
    this.renderInputs();
    this.linkDocumentation(entry);
    byId("gallery-outputs").replaceChildren(); // the last entry's output goes at once, not when this one's comes
    this.scheduleDraw(0);
    return true;
  }

  /**
   * The program as posted: each input a named stream of its row's notation (`a = marbles("…")`,
   * with the values its letters stand for and its letters that stand for streams as nested
   * diagrams), so that the answer says how the operator subscribed to it and let go; then the
   * entry's lines, then a line per variant the learner compares with (`variant1 = …`).
   */
  program() {
    let text = [this.entry.program, ...this.variants.map((expression, index) => `${variantName(index)} = ${expression}`)]
      .join("\n");
    const inputs = [];
    for (const row of this.rows) {
      const values = Object.entries(row.letters).map(([letter, value]) => `, ${letter}: ${JSON.stringify(value)}`).join("");
      const nested = Object.entries(row.nested).map(([letter, inner]) => `, ${letter}: marbles("${inner}")`).join("");
      inputs.push(`${row.name} = marbles("${renderRow(row)}"${values}${nested})`);
      text = text.replaceAll(`@${row.name}`, row.name);
    }
    return [...inputs, text].join("\n");
  }

  get frames() {
    const last = Math.max(...this.rows.flatMap((row) => [...row.values.map((value) => value.frame), row.end?.frame ?? 0]));
    return Math.max(16, last + 4);
  }

  renderInputs() {
    const container = byId("gallery-inputs");
    container.replaceChildren();
    for (const row of this.rows) {
      const block = html("div", "gallery-row");
      const { label, field, problem } = notationEditor(`gallery-notation-${row.name}`, row.name, renderRow(row), (parsed) => {
        row.values = parsed.values;
        row.end = parsed.end;
        this.editor.draw(row, lane);
        this.scheduleDraw();
      });
      label.className = "gallery-row-name";
      field.setAttribute("aria-describedby", "gallery-keys");
      const endChoice = html("select", "gallery-end");
      endChoice.id = `gallery-end-${row.name}`;
      endChoice.setAttribute("aria-label", `How ${row.name} ends`);
      for (const [value, text] of [["|", "completes"], ["#", "fails"], ["", "never ends"]]) {
        const option = html("option", undefined, text);
        option.value = value;
        endChoice.appendChild(option);
      }
      endChoice.value = row.end?.kind ?? "";
      const lane = svg("svg", { class: "gallery-lane", height: ROW_HEIGHT, role: "group", "aria-label": `Row ${row.name}: click to add a marble` });
      row.field = field;
      row.endChoice = endChoice;
      const controls = html("div", "gallery-row-controls");
      controls.append(label, field, endChoice, problem);
      const scroll = html("div", "gallery-scroll");
      row.subscriptions = svg("svg", { class: "gallery-subscriptions", height: 0, width: 0 });
      scroll.append(lane, row.subscriptions);
      block.append(controls, scroll);
      if (Object.keys(row.letters).length) {
        block.appendChild(html("p", "gallery-legend",
          Object.entries(row.letters).map(([letter, value]) => `${letter} = ${JSON.stringify(value)}`).join(", ")));
      }
      // Letters that stand for streams: each an inner diagram of its own, edited as notation.
      for (const letter of Object.keys(row.nested)) {
        const inner = html("div", "gallery-row-controls gallery-nested");
        const editor = notationEditor(`gallery-nested-${row.name}-${letter}`, `${letter} is the stream`, row.nested[letter],
          () => {
            row.nested[letter] = editor.field.value.replaceAll(" ", "");
            this.scheduleDraw();
          });
        inner.append(editor.label, editor.field, editor.problem);
        block.appendChild(inner);
      }
      container.appendChild(block);
      this.editor.attach(row, lane);
    }
    byId("gallery-program").textContent = this.entry.program.replaceAll("@", "");
    this.renderVariants();
  }

  /** Links each operator the entry names (a comparison names several) to its documentation page. */
  async linkDocumentation(entry) {
    const line = byId("gallery-docs");
    if (!line) return;
    line.replaceChildren();
    line.hidden = true;
    const pages = (await Promise.all(entry.name.split(" / ").map((name) => docsPage(name)))).filter(Boolean);
    if (this.entry !== entry || !pages.length) return;
    line.append("Reactive's documentation: ");
    pages.forEach((page, index) => line.append(...(index ? [", "] : []), docsLink(page)));
    line.hidden = false;
  }

  // MARK: Compare with…

  /** The entry's first output line's expression, inputs by name: what a new variant starts from. */
  get firstExpression() {
    const line = this.entry.program.split("\n").find((text) => text.includes(" = ")) ?? "";
    return line.slice(line.indexOf(" = ") + 3).replaceAll("@", "");
  }

  /** Each variant's label and Remove button named after what it runs now. */
  relabelVariants() {
    const labels = variantLabels(this.variants);
    byId("gallery-variants").querySelectorAll(".gallery-variant").forEach((row, index) => {
      row.querySelector("label").textContent = labels[index];
      row.querySelector("button").setAttribute("aria-label", `Remove the variant ${labels[index]}`);
    });
  }

  /** A text field per variant, and the button that adds one (at most MAX_VARIANTS). */
  renderVariants() {
    const container = byId("gallery-variants");
    container.replaceChildren();
    this.variants.forEach((expression, index) => {
      const row = html("div", "gallery-row-controls gallery-variant");
      const label = html("label", "gallery-row-name");
      const field = html("input", "gallery-notation gallery-variant-field");
      field.id = `gallery-variant-${index}`;
      field.type = "text";
      field.spellcheck = false;
      field.value = expression;
      label.htmlFor = field.id;
      field.addEventListener("input", () => {
        this.variants[index] = field.value;
        this.relabelVariants();
        this.variantsChanged();
      });
      const remove = html("button", "secondary", "Remove");
      remove.type = "button";
      remove.addEventListener("click", () => {
        this.variants.splice(index, 1);
        this.renderVariants();
        this.variantsChanged();
        byId("gallery-compare").focus();
      });
      row.append(label, field, remove);
      container.appendChild(row);
    });
    this.relabelVariants();
    byId("gallery-compare").disabled = this.variants.length >= MAX_VARIANTS;
  }

  addVariant() {
    this.variants.push(this.firstExpression);
    this.renderVariants();
    this.variantsChanged();
    byId(`gallery-variant-${this.variants.length - 1}`).focus();
  }

  /** The address says the variants, so the comparison can be shared; the output is drawn again. */
  variantsChanged() {
    const suffix = this.variants.length ? `/compare=${encodeProgram(JSON.stringify(this.variants))}` : "";
    history.replaceState(null, "", `#gallery/${this.entry.id}${suffix}`);
    this.scheduleDraw();
  }

  /** The letter a new marble of `row` takes: one of its declared values, else a letter no row uses. */
  nextSymbol(row) {
    const [declared] = Object.keys(row.letters); // a row of declared values gets one of them
    if (declared) return declared;
    const used = new Set(this.rows.flatMap((item) => item.values.map((value) => value.symbol)));
    return [..."abcdefghijklmnopqrstuvwxyz"].find((letter) => !used.has(letter)) ?? "z";
  }

  // MARK: The output

  scheduleDraw(delay = DRAW_DELAY_MS) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.draw(), delay);
  }

  async draw() {
    const number = ++this.drawNumber;
    const program = this.program();
    byId("gallery-open").href = `#program=${encodeProgram(program)}`;
    const status = byId("gallery-status");
    try {
      const answer = await drawMarbles(program);
      if (number !== this.drawNumber) return;
      status.textContent = answer.truncated ? `Drawn to ${answer.until} ms (cut short).` : "";
      this.drawOutputs(answer);
    } catch (error) {
      if (number !== this.drawNumber) return;
      // The problems themselves, not a pointer to them; the last drawing goes, so that nothing
      // drawn (nor ringed) belongs to another program.
      const problems = describeProblems(error);
      status.replaceChildren(prose("span", `Not drawn: ${problems ? `${problems}.` : error.message}`));
      byId("gallery-outputs").replaceChildren();
    }
  }

  drawOutputs(answer) {
    const container = byId("gallery-outputs");
    container.replaceChildren();
    const shown = [...Object.keys(this.entry.expected), ...this.variants.map((_, index) => variantName(index))];
    const labelOf = Object.fromEntries(variantLabels(this.variants).map((label, index) => [variantName(index), label]));
    const names = shown.filter((name) => answer.streams[name]);
    const comparing = this.entry.comparison || this.variants.length > 0;
    const { differs, unringed } = comparing ? meaningfulDifferences(Object.fromEntries(names.map((name) => [name, answer.streams[name]])))
      : { differs: {}, unringed: [] };
    if (comparing) {
      const count = Object.values(differs).reduce((total, set) => total + set.size, 0);
      const apart = unringed.map((name) => `\`${labelOf[name] ?? name}\``).join(", ");
      const words = [
        count ? `Ringed: the ${count} events that are not in every output row (the same value at the same time).`
          : unringed.length ? "" : "Every output row has the same events.",
        unringed.length ? `Not ringed: ${apart}: not one of ${unringed.length === 1 ? "its" : "their"} values comes in every other row at the same time — ringing every one would say nothing.` : "",
      ].filter(Boolean).join(" ");
      const legend = prose("p", words);
      legend.className = "hint gallery-differs-legend";
      container.appendChild(legend);
    }
    for (const name of shown) {
      const drawing = answer.streams[name];
      if (!drawing) continue;
      const block = html("div", "gallery-row gallery-output");
      const label = html("span", "gallery-row-name", labelOf[name] ?? name);
      const text = html("code", "gallery-output-notation", writtenAs(drawing, answer.frame));
      text.dataset.stream = name;
      const width = this.frames * FRAME_WIDTH;
      const lane = outputLane(name, drawing, answer.frame, width, differs[name]);
      const legend = html("p", "gallery-legend",
        Object.entries(drawing.values).map(([letter, value]) => `${letter} = ${JSON.stringify(value)}`).join(", "));
      const controls = html("div", "gallery-row-controls");
      controls.append(label, text);
      const scroll = html("div", "gallery-scroll");
      const subscriptions = svg("svg", { class: "gallery-subscriptions" });
      drawSubscriptions(subscriptions, name, drawing.subscriptions ?? [], width);
      scroll.append(lane, subscriptions);
      // The inner signals a flattening subscribed to, nested under the row that started them.
      for (const [source, spans] of Object.entries(drawing.sources ?? {})) {
        const inner = svg("svg", { class: "gallery-subscriptions gallery-inner", "data-source": source });
        drawSubscriptions(inner, `${source} (inside ${name})`, spans, width);
        scroll.appendChild(inner);
      }
      block.append(controls, scroll, legend);
      container.appendChild(block);
    }
    // What the program did to the inputs: each subscription to them, where it began and ended.
    for (const row of this.rows) {
      drawSubscriptions(row.subscriptions, row.name, answer.streams[row.name]?.subscriptions ?? [], this.frames * FRAME_WIDTH);
    }
  }
}
