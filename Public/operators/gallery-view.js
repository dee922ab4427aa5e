// The gallery view: the operator gallery's list, one operator's entry (`#gallery/throttle`), or
// the search by behaviour (`#gallery/find`). An entry's address may carry variants to compare it
// with (`#gallery/throttle/compare=…`).
// Its entries are loaded the first time it is shown.
import { APIError } from "../lib/api.js";
import { byId } from "../lib/dom.js";
import { Finder } from "../find/find.js";
import { decodeProgram } from "../editor/editor.js";
import { Gallery } from "./gallery.js";

/**
 * `throttle` or `throttle/compare=…` (a shared comparison: the variants' expressions, as JSON
 * encoded as a program link is) as the entry's id and its variants; a damaged link, none.
 */
function entryAndVariants(id) {
  const [entry, compare] = id.split("/compare=");
  if (!compare) return [entry, []];
  try {
    const variants = JSON.parse(decodeProgram(compare) ?? "[]");
    return [entry, Array.isArray(variants) ? variants.filter((item) => typeof item === "string") : []];
  } catch {
    return [entry, []];
  }
}

export class GalleryView {
  constructor() {
    this.section = byId("gallery");
    this.gallery = null;
    byId("gallery-entry-title").tabIndex = -1;
    byId("gallery-find-title").tabIndex = -1;
  }

  /** Shows the list, or entry `id` when it names one. */
  async mount({ id }) {
    this.section.hidden = false;
    if (!this.gallery) {
      const response = await fetch("/gallery/entries.json");
      if (!response.ok) throw new APIError(response.status, "gallery_unavailable", "The gallery could not be loaded.");
      this.gallery = new Gallery(await response.json());
      byId("gallery-search").addEventListener("input", () => this.gallery.showList());
      this.finder = new Finder(this.gallery.entries.map((entry) => entry.id));
    }
    byId("gallery-find").hidden = id !== "find";
    if (id === "find") {
      byId("gallery-index").hidden = true;
      byId("gallery-entry").hidden = true;
      byId("gallery-find-title").focus();
    } else if (id && this.gallery.show(...entryAndVariants(id))) byId("gallery-entry-title").focus();
    else this.gallery.showList();
  }

  unmount() {
    this.section.hidden = true;
  }
}
