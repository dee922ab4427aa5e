// Finding and building elements: HTML and SVG, text always as text, never as markup.

const SVG = "http://www.w3.org/2000/svg";

/** The page's element with this id (null when there is none). */
export const byId = (id) => document.getElementById(id);

/** An HTML element with an optional class and text. */
export function html(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An SVG element with its attributes and optional text. */
export function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Text with `code` spans as <code>, in an element `tag`, as text nodes (never markup). */
export function prose(tag, text) {
  const node = html(tag);
  text.split(/(`[^`]+`)/).forEach((part) => node.append(part.startsWith("`") ? html("code", undefined, part.slice(1, -1)) : part));
  return node;
}
