// The embed page (`/embed/gallery/ID`, `/embed/gallery/ID?compare=…`, `/embed/program?p=…`): one
// gallery entry or one program, drawn alone for an iframe on another site, with a link back to
// the full playground. A gallery entry is the gallery's own view, so its rows stay draggable.
import { drawMarbles } from "./lib/api.js";
import { byId, html } from "./lib/dom.js";
import { decodeProgram } from "./editor/editor.js";
import { Gallery } from "./operators/gallery.js";
import { FRAME_WIDTH, outputLane } from "./lib/marble-row.js";
import { writtenAs } from "./lib/marble-notation.js";

function problem(text) {
  byId("embed-problem").hidden = false;
  byId("embed-problem").textContent = text;
}

/** The variants of a comparison link (`compare=` base64url of a JSON array of expressions). */
function variantsOf(encoded) {
  if (!encoded) return [];
  try {
    const variants = JSON.parse(decodeProgram(encoded) ?? "[]");
    return Array.isArray(variants) ? variants.filter((item) => typeof item === "string") : [];
  } catch {
    return [];
  }
}

async function showEntry(id, compare) {
  const response = await fetch("/gallery/entries.json");
  if (!response.ok) return problem("The gallery could not be loaded.");
  const gallery = new Gallery(await response.json());
  // Checked first: the gallery answers an unknown id with its list, which this page has not.
  if (!gallery.entries.some((entry) => entry.id === id)) return problem(`The gallery has no entry “${id}”.`);
  gallery.show(id, variantsOf(compare));
  byId("embed-back").href = `/#gallery/${encodeURIComponent(id)}${compare ? `/compare=${compare}` : ""}`;
}

async function showProgram(encoded) {
  const text = encoded ? decodeProgram(encoded) : null;
  if (text === null) return problem("This program link is damaged: its text could not be read.");
  byId("embed-program").hidden = false;
  byId("embed-program-text").textContent = text;
  byId("embed-back").href = `/#program=${encoded}`;
  try {
    const answer = await drawMarbles(text);
    const frames = Math.max(16, ...Object.values(answer.streams).flatMap((drawing) => drawing.events.map((event) => Math.ceil(event.time / answer.frame) + 2)));
    const rows = byId("embed-program-rows");
    for (const name of answer.order) {
      const drawing = answer.streams[name];
      const row = html("div", "gallery-row gallery-output");
      const label = html("p", "gallery-row-controls");
      label.append(html("span", "gallery-row-name", name), html("code", "gallery-output-notation", writtenAs(drawing, answer.frame)));
      label.lastChild.dataset.stream = name;
      const scroll = html("div", "gallery-scroll");
      scroll.appendChild(outputLane(name, drawing, answer.frame, frames * FRAME_WIDTH));
      row.append(label, scroll);
      rows.appendChild(row);
    }
    byId("embed-program-status").textContent = answer.truncated ? answer.truncation.message : "";
  } catch (error) {
    byId("embed-program-status").textContent = `Not drawn: ${error.message}`;
  }
}

/** A path segment decoded, or null when its escapes are not UTF-8 (`%E0%A4%A`). */
function decoded(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const path = location.pathname;
const query = new URLSearchParams(location.search);
const entry = path.startsWith("/embed/gallery/") ? decoded(path.slice("/embed/gallery/".length)) : null;
if (entry) showEntry(entry, query.get("compare"));
else if (path === "/embed/program") showProgram(query.get("p"));
else problem("This address names nothing to embed.");
