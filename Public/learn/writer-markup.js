// The lesson writer's markup (#lessons/new): a lesson's fields, its summary and actions. Fixed
// markup only: lesson-writer.js fills in what depends on data, as text (Public/README.md).
import { template } from "../lib/dom.js";

export const writerMarkup = template`
      <h2 id="writer-title" tabindex="-1">Write a lesson</h2>
      <p class="hint">A lesson explains, shows a program on input rows, asks the learner to predict one stream, then sets a challenge. It is checked
        as you type by the course's own rules; "Use what it draws" fills the answers from a real run, for you to confirm. <a href="#learn">Back to the lessons</a>.</p>
      <p id="writer-from" class="hint" hidden></p>
      <form id="writer-form" class="writer-form" novalidate>
        <div class="writer-field"><label for="writer-lesson-title">Title</label><input id="writer-lesson-title" data-field="title" type="text" maxlength="200" autocomplete="off"></div>
        <div class="writer-field"><label for="writer-id">Id (lower-case letters, digits and -)</label>
          <input id="writer-id" data-field="id" type="text" maxlength="60" autocomplete="off" spellcheck="false"></div>
        <div class="writer-field"><label for="writer-rac">RAC 2.x's names for what it teaches</label><input id="writer-rac" data-field="rac" type="text" autocomplete="off" spellcheck="false"></div>
        <div class="writer-field"><label for="writer-explanation">Explanation (a blank line between paragraphs; \`code\` in backticks)</label>
          <textarea id="writer-explanation" data-field="explanation" rows="5"></textarea></div>
        <div class="writer-field"><label for="writer-inputs">Input rows, one a line: <code>a: -a-b-c|</code></label>
          <textarea id="writer-inputs" data-field="inputs" rows="2" spellcheck="false" autocapitalize="off"></textarea></div>
        <div class="writer-field"><label for="writer-values">Letters for values, one a line: <code>A = "Ada"</code> (optional)</label>
          <textarea id="writer-values" data-field="values" rows="2" spellcheck="false" autocapitalize="off"></textarea></div>
        <div class="writer-field"><label for="writer-program">Program (the rows above are its first lines)</label>
          <textarea id="writer-program" data-field="program" class="lesson-program" rows="3" spellcheck="false" autocapitalize="off"></textarea></div>
        <div class="writer-field"><label for="writer-predict">The stream the learner predicts</label><input id="writer-predict" data-field="predict" type="text" autocomplete="off" spellcheck="false"></div>
        <div class="writer-field"><label for="writer-expected">What it sends, one stream a line: <code>out: ---b-c|</code></label>
          <textarea id="writer-expected" data-field="expected" rows="2" spellcheck="false" autocapitalize="off"></textarea></div>
        <div class="writer-field"><label for="writer-subscriptions">Subscriptions to predict too (optional): <code>a: ^---!</code></label>
          <textarea id="writer-subscriptions" data-field="subscriptions" rows="1" spellcheck="false" autocapitalize="off"></textarea></div>
        <div class="writer-field"><label for="writer-result">What the learner reads after running it</label>
          <textarea id="writer-result" data-field="result" rows="3"></textarea></div>
        <fieldset>
          <legend>The challenge</legend>
          <div class="writer-field"><label for="writer-task">What to change</label>
            <textarea id="writer-task" data-field="challenge.task" rows="2"></textarea></div>
          <div class="writer-field"><label for="writer-challenge-inputs">Its own rows, one a line (not shown to the learner)</label>
            <textarea id="writer-challenge-inputs" data-field="challenge.inputs" rows="2" spellcheck="false" autocapitalize="off"></textarea></div>
          <div class="writer-field"><label for="writer-solution">The reference solution</label>
            <textarea id="writer-solution" data-field="challenge.solution" class="lesson-program" rows="2" spellcheck="false" autocapitalize="off"></textarea></div>
          <div class="writer-field"><label for="writer-challenge-expected">What the solution sends on those rows: <code>out: -x-(y|)</code></label>
            <textarea id="writer-challenge-expected" data-field="challenge.expected" rows="2" spellcheck="false" autocapitalize="off"></textarea></div>
          <div class="writer-field"><label for="writer-wrong">Known wrong answers, a blank line between them (each must fail the check)</label>
            <textarea id="writer-wrong" data-field="challenge.wrong" class="lesson-program" rows="3" spellcheck="false" autocapitalize="off"></textarea></div>
        </fieldset>
        <p id="writer-summary" class="hint" role="status" aria-live="polite"></p>
        <div class="writer-actions">
          <button type="button" class="secondary" id="writer-fill">Use what it draws</button>
          <button type="button" class="secondary" id="writer-preview">Preview as a learner</button>
          <button type="submit" class="action" id="writer-keep">Keep as a link</button>
          <button type="button" class="secondary" id="writer-copy">Copy as JSON</button>
          <button type="button" class="secondary" id="writer-clear">Start again</button>
        </div>
        <p id="writer-status" class="hint" role="status" aria-live="polite"></p>
        <textarea id="writer-json" class="lesson-program" rows="8" readonly hidden aria-label="The lesson as JSON"></textarea>
      </form>
    `;
