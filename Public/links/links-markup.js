// My links' markup (#links): the list, and what it says when it is empty. Fixed markup only:
// links-view.js fills in what depends on data, as text (Public/README.md).
import { template } from "../lib/dom.js";

export const linksMarkup = template`
      <h2 id="my-links-title" tabindex="-1">My links</h2>
      <p class="hint">The links this browser kept or opened, newest first; they are listed here only (in this
        browser's storage). Removing one takes it off this list: the link itself never changes and goes on working.</p>
      <ul id="my-links-list" class="my-links"></ul>
      <p id="my-links-empty" class="hint" hidden>None yet: keep a program by a link in the editor, or open a link.</p>
    `;
