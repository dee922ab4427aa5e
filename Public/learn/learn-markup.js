// The course's markup (#learn): the lessons and Make a course, and one lesson (its rows, the
// prediction, the run, the challenge). Fixed markup only: learn-view.js and course-maker.js fill
// in what depends on data, as text (Public/README.md).
import { template } from "../lib/dom.js";

export const learnMarkup = template`
      <h2 id="learn-title">Learn ReactiveCocoa, a lesson at a time</h2>
      <div id="learn-path">
        <p class="hint">Each lesson shows a small program or a built-in scenario, asks what one of its streams sends before you run it,
          draws what it really sends beside your prediction, then sets a challenge. Your progress stays in this
          browser.</p>
        <p id="learn-course" class="hint" hidden>A course kept by a link: these lessons, in this order. <span id="learn-course-from"></span>
          <a href="#learn">All the lessons</a>.</p>
        <ol id="learn-list" class="learn-list"></ol>
        <p><a id="learn-next" href="#learn">Continue</a> · <a href="#lessons/new">Write a lesson of your own</a></p>
        <details id="course-maker" class="course-maker">
          <summary id="course-maker-summary">Make a course: lessons of your choice, in your order, kept by a link</summary>
          <fieldset>
            <legend>Lessons to include</legend>
            <ul id="course-choices" class="course-choices"></ul>
          </fieldset>
          <p id="course-order-title">In this order:</p>
          <ol id="course-order" class="course-order" aria-labelledby="course-order-title"></ol>
          <form id="course-form" class="keep-form">
            <label for="course-title">Title</label>
            <input id="course-title" type="text" maxlength="200" autocomplete="off" required>
            <button type="submit" class="secondary" id="course-keep">Keep the course as a link</button>
            <p id="course-status" class="hint" role="status" aria-live="polite"></p>
          </form>
        </details>
      </div>
      <article id="lesson" aria-labelledby="lesson-title" hidden>
        <p id="lesson-preview" class="hint" hidden>A preview of the lesson you are writing, as a learner sees it (nothing
          is kept). <a href="#lessons/new">Back to writing it</a>.</p>
        <p><a href="#learn">All lessons</a> · <a id="lesson-edit" href="#lessons/new">Edit a copy</a> ·
          <span id="lesson-rac" class="hint"></span> <span id="lesson-from" class="hint"></span></p>
        <h3 id="lesson-title"></h3>
        <div id="lesson-explanation"></div>
        <div id="lesson-inputs"></div>
        <p id="lesson-code-caption" class="hint" hidden>Swift, shortened from the scenario's source (the library's API;
          a program writes the same operators):</p>
        <pre class="gallery-program"><code id="lesson-program"></code></pre>
        <p id="lesson-scenario" class="hint" hidden>This lesson runs a built-in scenario on a virtual clock, with the rows
          above as its inputs. Try <a id="lesson-scenario-link" href="#learn">it</a> live, and read its source there.</p>
        <p id="lesson-docs" class="hint" hidden></p>
        <form id="predict-form" class="lesson-form">
          <label for="prediction" id="prediction-label"></label>
          <div id="prediction-legend" class="hint" hidden></div>
          <div class="gallery-row-controls">
            <input id="prediction" class="gallery-notation" type="text" spellcheck="false" autocomplete="off"
              aria-describedby="prediction-problem prediction-legend prediction-keys">
            <select id="prediction-end" class="gallery-end" aria-label="How your prediction ends">
              <option value="|">completes</option><option value="#">fails</option><option value="">never ends</option>
            </select>
          </div>
          <p id="prediction-keys" class="hint">Or draw it: click the row below to add a marble, drag it along; Tab to a
            marble, then the arrow keys move it, Delete removes it, a letter key gives it that letter, E turns a completion into an error.</p>
          <div class="gallery-scroll"><svg id="prediction-lane" class="gallery-lane" role="group"
            aria-label="Your prediction: click to add a marble" height="44" width="480"></svg></div>
          <span id="prediction-problem" class="gallery-problem" role="status"></span>
          <div id="subscriptions-field" class="lesson-form" hidden>
            <label for="subscriptions-prediction" id="subscriptions-label"></label>
            <textarea id="subscriptions-prediction" class="lesson-program" rows="2" spellcheck="false"
              autocapitalize="off" autocomplete="off"></textarea>
          </div>
          <button type="submit" class="action" id="predict-run">Run and compare</button>
        </form>
        <div id="lesson-result" aria-live="polite"></div>
        <div id="lesson-after" hidden></div>
        <section id="machine" class="lesson-machine" aria-labelledby="machine-title" hidden>
          <h4 id="machine-title">Inside the machine</h4>
          <p class="hint">How many objects does RAC build, hold, dispose of? Predict a number; it is counted from the
            objects of a real run at that instant, the playground's own probes aside.</p>
          <div id="machine-questions"></div>
        </section>
        <h4>Challenge</h4>
        <div id="challenge-task"></div>
        <form id="challenge-form" class="lesson-form">
          <label for="challenge-program">Your program</label>
          <p id="challenge-rows" class="hint"></p>
          <textarea id="challenge-program" class="lesson-program" rows="3" spellcheck="false" aria-describedby="challenge-rows"
            autocapitalize="off" autocomplete="off"></textarea>
          <button type="submit" class="action" id="challenge-check">Check my program</button>
        </form>
        <p id="challenge-status" role="status" aria-live="polite"></p>
        <div id="challenge-result"></div>
        <p><button type="button" class="secondary" id="lesson-restart">Restart this lesson</button>
          <a id="lesson-next" href="#learn">Next lesson</a></p>
      </article>
    `;
