// The links this browser made or opened ("My links"): id, kind, title and date, newest first, in
// local storage. Removing one forgets it here only; the link itself never changes or goes.
import { html } from "./dom.js";

const KEY = "playground.links";
/** The most links remembered; the oldest go first. */
const MAX_REMEMBERED = 500;
/** A link's address: `/s/` then 16 characters without look-alikes. */
export const LINK_PATH = /^\/s\/([2-9a-hjkmnp-z]{16})$/;

/** The links remembered, newest first. */
export function myLinks() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** Remembers `link` (an answer of POST or GET /api/links) at the top of the list. */
export function rememberLink(link) {
  const entry = { id: link.id, kind: link.kind, title: link.title, created: link.created };
  const list = [entry, ...myLinks().filter((item) => item.id !== link.id)].slice(0, MAX_REMEMBERED);
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    // Storage may be off (private windows): the link still works, it is only not listed.
  }
}

/** Forgets link `id` in this browser (the link itself stays). */
export function forgetLink(id) {
  try {
    localStorage.setItem(KEY, JSON.stringify(myLinks().filter((item) => item.id !== id)));
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/** Words for a link that is a new version of another (`from`), with a link to that one; none for a first version. */
export function versionOf(link) {
  if (!link?.from) return [];
  const anchor = html("a", undefined, `/s/${link.from}`);
  anchor.href = `/s/${link.from}`;
  return ["A new version of ", anchor, ". "];
}
