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

/**
 * A view's fixed markup, written in its folder as template`<h2 …>…</h2>`: it takes no values
 * (`${…}`), so no data is ever read as markup; what depends on data is built with html(), svg()
 * and prose(), as text.
 */
export function template(strings, ...values) {
  if (values.length) throw new TypeError("a template takes no values: build them with html(), as text");
  return strings[0];
}

/** Puts `markup` (a template) into the element with this id, in place of what it held. */
export function fill(id, markup) {
  const holder = document.createElement("template");
  holder.innerHTML = markup;
  byId(id).replaceChildren(holder.content);
}
