// The operator gallery's markup: the list and its search, and one entry (its rows, variants,
// outputs and exports). The search by behaviour's article is filled from find/. Fixed markup only:
// gallery-view.js and gallery.js fill in what depends on data, as text (Public/README.md).
import { template } from "../lib/dom.js";

export const galleryMarkup = template`
      <h2 id="gallery-title">Operator gallery</h2>
      <div id="gallery-index">
        <p class="hint">Every operator as a marble diagram, computed by the real Swift operator on the server
          (<code>POST /api/marbles</code>); each expected output is written by hand from ReactiveCocoa 2.x. Subject,
          Command and Channel are not operators: the scenarios and the editor's examples show them (a Subject here
          remembers its end, which RAC's forgets). publish and autoconnect have an entry, and the multicast scenario
          shows them live (its autoconnect, as RAC's, never connects again).</p>
        <label for="gallery-search">Find an operator by its name in Reactive, RAC 2.x, ReactiveSwift, RxSwift, RxJS
          or Combine</label>
        <input id="gallery-search" type="search" autocomplete="off" spellcheck="false">
        <p>Or the other way round: <a href="#gallery/find" id="find-link">which operator gives this output?</a></p>
        <p id="gallery-count" role="status" aria-live="polite"></p>
        <div id="gallery-list"></div>
      </div>
      <article id="gallery-entry" aria-labelledby="gallery-entry-title" hidden>
        <p><a href="#gallery">All operators</a> · <span id="gallery-group"></span></p>
        <h3 id="gallery-entry-title"></h3>
        <p id="gallery-explanation"></p>
        <p id="gallery-note" class="gallery-note" hidden></p>
        <p id="gallery-entry-names" class="hint"></p>
        <p id="gallery-docs" class="hint" hidden></p>
        <p id="gallery-keys" class="hint">Drag a marble along its row, click a row to add one; or Tab to a marble: the
          arrow keys move it, Delete removes it, a letter or digit key changes its value, E turns a completion into an error and back. Each row can also be
          edited as notation.</p>
        <div id="gallery-inputs"></div>
        <pre class="gallery-program"><code id="gallery-program"></code></pre>
        <div id="gallery-variants" role="group" aria-label="Variants compared with this entry"></div>
        <p><button type="button" class="secondary" id="gallery-compare">Compare with…</button>
          <span class="hint">another operator or other arguments on the same inputs, drawn below, the differences
            ringed</span></p>
        <div id="gallery-outputs" aria-live="polite"></div>
        <p id="gallery-status" class="hint" role="status"></p>
        <div class="export-row" role="group" aria-label="Take this entry's diagram away">
          <span>Download the diagram as drawn:</span>
          <button type="button" class="secondary" id="gallery-export-svg">SVG</button>
          <button type="button" class="secondary" id="gallery-export-png">PNG</button>
          <button type="button" class="secondary" id="gallery-copy-test" aria-describedby="gallery-test-status">Copy as a test</button>
        </div>
        <p id="gallery-test-status" class="hint" role="status" aria-live="polite"></p>
        <pre id="gallery-test" class="test-source" tabindex="0" aria-label="The entry as a Swift test" hidden></pre>
        <p><a id="gallery-open" href="#">Open in the editor</a> (runs it as a live pipeline)</p>
      </article>
      <article id="gallery-find" aria-labelledby="gallery-find-title" hidden></article>
    `;
