// A diagram taken away: a standalone SVG (the rows' names, the axis, every lane as drawn, a
// legend) readable without the page's CSS, and the same as a PNG. What is exported is what is on
// screen: for a session, the same time window and the same lanes folded or not; for a gallery
// entry, its rows as drawn.
import { svg } from "../lib/dom.js";

const NAMESPACE = "http://www.w3.org/2000/svg";
/** Width of the names' column, the legend's height, and the margin around the whole. */
const NAMES = 180;
const LEGEND = 46;
/** The least width, so that the legend is never cut off. */
const LEGEND_WIDTH = 700;
const MARGIN = 8;
/** The properties that carry the diagram's look, copied from the page's styles onto each element. */
const STYLED = ["fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap", "stroke-linejoin",
  "font-family", "font-size", "font-weight", "opacity", "visibility", "paint-order"];
const LEGEND_LINES = [
  "A marble is a value (its colour: the input event that caused it; grey: none), a bar completion, × an error,",
  "a number a stack of events; ^ a subscription began, ! it was disposed; a thick lane: lanes folded.",
];

/** The diagram `diagram` (a `Diagram`) as the text of a standalone SVG document, titled `title`. */
export function diagramSVG(diagram, title) {
  const lanes = diagram.svg;
  const width = Math.max(MARGIN * 2 + NAMES + diagram.width, LEGEND_WIDTH);  // a phone's diagram too
  const height = MARGIN * 2 + diagram.height + LEGEND;
  const picture = svg("svg", { xmlns: NAMESPACE, width, height, viewBox: `0 0 ${width} ${height}`,
    "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif", "font-size": "14" });
  picture.appendChild(svg("title", {}, title));
  picture.appendChild(svg("rect", { x: 0, y: 0, width, height, fill: "#ffffff" }));
  const names = svg("g", { transform: `translate(${MARGIN} ${MARGIN})` });
  for (const row of diagram.rows) {
    names.appendChild(svg("text", { x: 4, y: row.top + 20, "font-weight": "700", fill: "#1f2328" }, row.title));
    names.appendChild(svg("text", { x: 4, y: row.top + 40, fill: "#57606a", "font-size": "13" }, shortened(row.operator, 24)));
  }
  picture.appendChild(names);
  // The lanes as drawn, cut to the lane area, with every element's look written on it.
  const clip = svg("clipPath", { id: "lane-area" });
  clip.appendChild(svg("rect", { x: 0, y: 0, width: diagram.width, height: diagram.height }));
  const definitions = svg("defs");
  definitions.appendChild(clip);
  picture.appendChild(definitions);
  const copy = lanes.cloneNode(true);
  inlineStyles(lanes, copy);
  const area = svg("g", { transform: `translate(${MARGIN + NAMES} ${MARGIN})`, "clip-path": "url(#lane-area)" });
  for (const child of [...copy.childNodes]) area.appendChild(child);
  picture.appendChild(area);
  LEGEND_LINES.forEach((line, index) => picture.appendChild(
    svg("text", { x: MARGIN, y: MARGIN + diagram.height + 18 + index * 17, fill: "#1f2328", "font-size": "13" }, line)));
  return new XMLSerializer().serializeToString(picture);
}

/** `text`, cut to `length` characters with "…". */
function shortened(text, length) {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/**
 * A gallery entry's rows (each `.gallery-row` under `root`: its name, then its drawings, the
 * marbles over the subscriptions under them) stacked into one standalone SVG document, titled
 * `title`, with `legend` (lines of text) below.
 */
export function rowsSVG(root, title, legend) {
  const rows = [...root.querySelectorAll(".gallery-row")].map((row) => ({
    name: row.querySelector(".gallery-row-name")?.textContent ?? "",
    drawings: [...row.querySelectorAll(".gallery-scroll > svg")].filter((node) => node.getBoundingClientRect().height > 0),
  }));
  const widthOf = (node) => Math.ceil(node.getBoundingClientRect().width);
  const heightOf = (node) => Math.ceil(node.getBoundingClientRect().height);
  const drawn = Math.max(0, ...rows.flatMap((row) => row.drawings.map(widthOf)));
  const rowsHeight = rows.reduce((sum, row) => sum + Math.max(24, row.drawings.reduce((total, node) => total + heightOf(node), 0)) + 8, 0);
  const width = Math.max(MARGIN * 2 + NAMES + drawn, LEGEND_WIDTH);
  const height = MARGIN * 2 + 30 + rowsHeight + 18 * legend.length + 8;
  const picture = svg("svg", { xmlns: NAMESPACE, width, height, viewBox: `0 0 ${width} ${height}`,
    "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif", "font-size": "14" });
  picture.appendChild(svg("title", {}, title));
  picture.appendChild(svg("rect", { x: 0, y: 0, width, height, fill: "#ffffff" }));
  picture.appendChild(svg("text", { x: MARGIN, y: MARGIN + 16, "font-weight": "700", fill: "#1f2328" }, title));
  let top = MARGIN + 30;
  for (const row of rows) {
    picture.appendChild(svg("text", { x: MARGIN + 4, y: top + 22, "font-weight": "700", fill: "#1f2328" }, shortened(row.name, 22)));
    let y = top;
    for (const node of row.drawings) {
      const copy = node.cloneNode(true);
      inlineStyles(node, copy);
      const placed = svg("g", { transform: `translate(${MARGIN + NAMES} ${y})` });
      for (const child of [...copy.childNodes]) placed.appendChild(child);
      picture.appendChild(placed);
      y += heightOf(node);
    }
    top += Math.max(24, y - top) + 8;
  }
  legend.forEach((line, index) => picture.appendChild(
    svg("text", { x: MARGIN, y: top + 14 + index * 18, fill: "#1f2328", "font-size": "13" }, line)));
  return new XMLSerializer().serializeToString(picture);
}

/** An SVG document's text drawn onto a canvas at twice its size, as a PNG blob. */
async function pngOf(text) {
  const image = new Image();
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  try {
    image.src = url;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth * 2;
    canvas.height = image.naturalHeight * 2;
    const context = canvas.getContext("2d");
    context.scale(2, 2);
    context.drawImage(image, 0, 0);
    return await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Downloads an SVG document's text as `NAME.svg`, or drawn as `NAME.png`. */
export async function downloadPicture(text, name, format) {
  if (format === "svg") {
    download(new Blob([text], { type: "image/svg+xml" }), `${name}.svg`);
    return;
  }
  const blob = await pngOf(text);
  if (!blob) throw new Error("no PNG");
  download(blob, `${name}.png`);
}

/** Writes the look the page's CSS gives each element of `original` onto its copy in `copy`. */
function inlineStyles(original, copy) {
  const originals = [original, ...original.querySelectorAll("*")];
  const copies = [copy, ...copy.querySelectorAll("*")];
  originals.forEach((node, index) => {
    const target = copies[index];
    target.removeAttribute("class");
    target.removeAttribute("tabindex");
    const style = getComputedStyle(node);
    if (style.display === "none") {
      target.setAttribute("display", "none");
      return;
    }
    for (const property of STYLED) target.style.setProperty(property, style.getPropertyValue(property));
  });
}

/** Offers `blob` as a download named `name`. */
function download(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** Downloads the diagram as `NAME.svg`. */
export function downloadSVG(diagram, title, name) {
  downloadPicture(diagramSVG(diagram, title), name, "svg");
}

/** Downloads the diagram as `NAME.png`. */
export async function downloadPNG(diagram, title, name) {
  await downloadPicture(diagramSVG(diagram, title), name, "png");
}
