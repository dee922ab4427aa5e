// The session's diagram taken away: a standalone SVG (the rows' names, the axis, every lane as
// drawn, a legend) readable without the page's CSS, and the same as a PNG. What is exported is
// what is on screen: the same time window, the same lanes folded or not.
import { svg } from "./dom.js";

const NAMESPACE = "http://www.w3.org/2000/svg";
/** Width of the names' column, the legend's height, and the margin around the whole. */
const NAMES = 180;
const LEGEND = 46;
/** The least width, so that the legend is never cut off. */
const LEGEND_WIDTH = 700;
const MARGIN = 8;
/** The properties that carry the diagram's look, copied from the page's styles onto each element. */
const STYLED = ["fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap", "stroke-linejoin",
  "font-family", "font-size", "font-weight", "opacity", "visibility"];
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
  download(new Blob([diagramSVG(diagram, title)], { type: "image/svg+xml" }), `${name}.svg`);
}

/** The diagram drawn onto a canvas at twice its size, as a PNG blob. */
export async function diagramPNG(diagram, title) {
  const text = diagramSVG(diagram, title);
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

/** Downloads the diagram as `NAME.png`. */
export async function downloadPNG(diagram, title, name) {
  const blob = await diagramPNG(diagram, title);
  if (blob) download(blob, `${name}.png`);
}
