// The search by behaviour's markup (#gallery/find): the rows to type or draw, and the operators
// found. Fixed markup only: find.js fills in what depends on data, as text (Public/README.md).
import { template } from "../lib/dom.js";

export const findMarkup = template`
        <p><a href="#gallery">All operators</a></p>
        <h3 id="gallery-find-title">Which operator gives this output?</h3>
        <p class="hint">Type or draw one or two input rows and the output you want, in RxJS marble notation: <code>-</code> is
          100 ms, a letter or digit a value (a digit is a number, a letter itself as text), <code>(ab)</code> values
          at one time, <code>|</code> completion, <code>#</code> an error. Every operator of the gallery is run on
          them on the server (<code>POST /api/marbles/find</code>), with arguments taken from your rows.</p>
        <form id="find-form" class="find-form">
          <div class="gallery-row-controls">
            <label for="find-a" class="gallery-row-name">a</label>
            <input id="find-a" class="gallery-notation" type="text" spellcheck="false" autocomplete="off"
              value="-1-2-3-4-|" aria-describedby="find-a-problem">
            <span id="find-a-problem" class="gallery-problem" role="status"></span>
          </div>
          <div class="gallery-scroll"><svg id="find-a-lane" class="gallery-lane" role="group" height="44" width="480"
            aria-label="Input a: click to add a marble; Tab to a marble, then the arrow keys move it"></svg></div>
          <div class="gallery-row-controls">
            <label for="find-b" class="gallery-row-name">b</label>
            <input id="find-b" class="gallery-notation" type="text" spellcheck="false" autocomplete="off"
              placeholder="optional second input" aria-describedby="find-b-problem">
            <span id="find-b-problem" class="gallery-problem" role="status"></span>
          </div>
          <div class="gallery-scroll"><svg id="find-b-lane" class="gallery-lane" role="group" height="44" width="480"
            aria-label="Input b: click to add a marble; Tab to a marble, then the arrow keys move it"></svg></div>
          <div class="gallery-row-controls">
            <label for="find-output" class="gallery-row-name">output</label>
            <input id="find-output" class="gallery-notation" type="text" spellcheck="false" autocomplete="off"
              value="---2---4-|" aria-describedby="find-output-problem">
            <span id="find-output-problem" class="gallery-problem" role="status"></span>
          </div>
          <div class="gallery-scroll"><svg id="find-output-lane" class="gallery-lane" role="group" height="44" width="480"
            aria-label="The output wanted: click to add a marble; Tab to a marble, then the arrow keys move it"></svg></div>
          <div class="gallery-row-controls">
            <label for="find-values" class="gallery-row-name">values</label>
            <input id="find-values" class="gallery-notation" type="text" spellcheck="false" autocomplete="off"
              placeholder='optional, JSON: {"t": true, "f": false}'>
          </div>
          <button type="submit" class="action" id="find-submit">Find operators</button>
        </form>
        <p id="find-status" role="status" aria-live="polite"></p>
        <div id="find-results"></div>
      `;
