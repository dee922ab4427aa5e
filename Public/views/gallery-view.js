// The gallery view: the operator gallery's list, one operator's entry (`#gallery/throttle`), or
// the search by behaviour (`#gallery/find`).
// Its entries are loaded the first time it is shown.
import { APIError } from "../api.js";
import { Finder } from "../find.js";
import { Gallery } from "../gallery.js";

const $ = (id) => document.getElementById(id);

export class GalleryView {
  constructor() {
    this.section = $("gallery");
    this.gallery = null;
    $("gallery-entry-title").tabIndex = -1;
    $("gallery-find-title").tabIndex = -1;
  }

  /** Shows the list, or entry `id` when it names one. */
  async mount({ id }) {
    this.section.hidden = false;
    if (!this.gallery) {
      const response = await fetch("/gallery/entries.json");
      if (!response.ok) throw new APIError(response.status, "gallery_unavailable", "The gallery could not be loaded.");
      this.gallery = new Gallery(await response.json());
      $("gallery-search").addEventListener("input", () => this.gallery.showList());
      this.finder = new Finder(this.gallery.entries.map((entry) => entry.id));
    }
    $("gallery-find").hidden = id !== "find";
    if (id === "find") {
      $("gallery-index").hidden = true;
      $("gallery-entry").hidden = true;
      $("gallery-find-title").focus();
    } else if (id && this.gallery.show(id)) $("gallery-entry-title").focus();
    else this.gallery.showList();
  }

  unmount() {
    this.section.hidden = true;
  }
}
