// The editor's markup (#edit, a program's link): the program, its problems, Run, Compare with…,
// Copy as a test, and keeping it by a link. Fixed markup only: editor-view.js fills in what
// depends on data, as text (Public/README.md).
import { template } from "../lib/dom.js";

export const editorMarkup = template`
      <div class="streams-head">
        <h2 id="editor-title">Program</h2>
        <div class="view-controls">
          <label for="examples">Start from</label>
          <select id="examples"><option value="">an example…</option></select>
          <label for="program-clock">Clock</label>
          <select id="program-clock">
            <option value="real">real time</option>
            <option value="virtual">virtual (you move it)</option>
          </select>
          <button type="button" class="secondary" id="compare" aria-describedby="compare-status">Compare with…</button>
          <button type="button" class="secondary" id="copy-test" aria-describedby="copy-test-status">Copy as a test</button>
          <button type="button" class="action" id="run" aria-keyshortcuts="Control+Enter Meta+Enter">Run</button>
        </div>
      </div>
      <p id="copy-test-status" class="hint" role="status" aria-live="polite"></p>
      <pre id="copy-test-source" class="test-source" tabindex="0" aria-label="The program as a Swift test" hidden></pre>
      <p id="compare-status" class="hint" role="status" aria-live="polite">Compare with… copies the stream where
        the caret is as a variant to change; running it rings the events that are not in both.</p>
      <p class="hint">One input or stream per line, in the pipeline language (<code>input query: text</code>,
        <code>valid = query.filter { $0.count &gt; 2 }</code>); problems show as you type. Ctrl+Enter (⌘+Enter) runs.</p>
      <div class="editor">
        <pre class="editor-gutter" id="editor-gutter" aria-hidden="true"></pre>
        <div class="editor-code">
          <pre class="editor-highlight" id="editor-highlight" aria-hidden="true"></pre>
          <textarea id="program" spellcheck="false" autocapitalize="off" autocomplete="off" wrap="off"
            aria-labelledby="editor-title" aria-describedby="problems-summary"></textarea>
        </div>
      </div>
      <p id="problems-summary" class="problems-summary" role="status" aria-live="polite"></p>
      <ul id="problems" class="problems" aria-label="Problems, each moves the caret to its place"></ul>
      <form id="keep-form" class="keep-form">
        <label for="keep-title">Keep it by a link: title</label>
        <input id="keep-title" type="text" maxlength="120" autocomplete="off" required>
        <button type="submit" class="secondary" id="keep">Keep as a link</button>
        <p id="keep-status" class="hint" role="status" aria-live="polite"></p>
      </form>
    `;
