// A session's markup: its header and links, the inputs, the diagram with its controls and clock,
// the source and the event log. Fixed markup only: session-view.js and its parts fill in what
// depends on data, as text (Public/README.md).
import { template } from "../lib/dom.js";

export const sessionMarkup = template`
      <div class="scenario-head">
        <h2 id="scenario-title"></h2>
        <p id="connection" class="connection" role="status" aria-live="polite">Not connected.</p>
      </div>
      <details id="about" class="description about">
        <summary id="scenario-summary"></summary>
        <p id="scenario-description"></p>
      </details>
      <p class="share" id="session-share">Session link<span class="share-why"> (another tab or browser watches and drives the same session)</span>:
        <a id="session-link" href="#"></a> · <a id="marbles-link" href="#">marble diagrams as text</a> (RxJS
        notation)<span id="step-offer"> · <a id="step-link" href="#">step through it on a virtual clock</a></span><span
        id="edit-offer"> · <a id="edit-link" href="#">Edit this pipeline</a></span></p>
      <p id="program-share" class="share" hidden>Program link (opens a new session that runs this program; the
        session link above joins this one): <a id="program-link" href="#">copy this link</a></p>

      <section aria-labelledby="inputs-title" class="panel">
        <h3 id="inputs-title" class="visually-hidden">Inputs</h3>
        <form id="inputs" class="inputs" novalidate></form>
      </section>

      <div id="pipeline-layout" class="pipeline-layout">
        <section aria-labelledby="streams-title" class="panel diagram-panel">
          <div class="streams-head">
            <h3 id="streams-title">Pipeline</h3>
            <div class="view-controls" role="group" aria-label="Time axis">
              <label class="switch"><input type="checkbox" id="follow" role="switch" checked> Follow time</label>
              <label class="switch" title="A badge on each marble names the thread that delivered it: S session, B background, Q queue, R run loop"><input type="checkbox" id="show-threads" role="switch"> Threads</label>
              <button type="button" class="secondary" id="earlier">◀ Earlier</button>
              <button type="button" class="secondary" id="later">Later ▶</button>
              <button type="button" class="secondary" id="zoom-out" aria-label="Zoom out">−</button>
              <output id="window-size" aria-label="Time window shown">10 s</output>
              <button type="button" class="secondary" id="zoom-in" aria-label="Zoom in">+</button>
              <button type="button" class="secondary" id="toggle-source" aria-expanded="true"
                aria-controls="source-panel">Hide source</button>
            </div>
          </div>
          <div id="clock" class="clock-bar" role="group" aria-labelledby="clock-title" hidden>
            <span id="clock-title" class="clock-title">Virtual clock</span>
            <output id="virtual-time" aria-label="Virtual time">0 ms</output>
            <button type="button" class="action" id="play" aria-pressed="false">Play</button>
            <label for="speed">Speed</label>
            <select id="speed">
              <option value="0.25">¼×</option>
              <option value="0.5">½×</option>
              <option value="1" selected>1×</option>
              <option value="2">2×</option>
            </select>
            <button type="button" class="secondary" id="advance-100">+100 ms</button>
            <button type="button" class="secondary" id="advance-500">+500 ms</button>
          </div>
          <div id="diagram" class="diagram" role="region" aria-label="Marble diagram" tabindex="0"></div>
          <div class="detail-slot"><p id="marble-detail" class="marble-detail" aria-live="polite">Point at a marble, or Tab to the
            marbles and use the arrow keys: its value, time and causes show here, and everything with the same
            root cause lights up.</p></div>
          <p class="hint">Rows: the inputs (what was done), then each stage in pipeline order, with the lines on
            the left from each row it reads (point at a row to light its lines). A marble is a value, in the colour of
            the input event that caused it (grey: no input did), a bar completion, <span aria-hidden="true">×</span>
            an error, with why it failed beside it and under the lanes; true/false streams are a step line (high is true); a number in a marble counts events too
            close to tell apart — point at it to read them, click it to spread them. Each subscription to a stream
            is a lane of its row, from its start (<code>^</code>, subscribed) to its end
            (<code>!</code>, disposed); lanes with the same events are folded into one (×2: the
            button by the row's name unfolds them); the subscriptions a stream makes inside it (a service call, a
            flattening's inner signals) are short lanes under it. The dashed line is now. Ctrl+wheel zooms,
            Shift+wheel scrolls time.</p>
          <div class="export-row" role="group" aria-label="Take the diagram away">
            <span>Download the diagram as shown:</span>
            <button type="button" class="secondary" id="export-svg">SVG</button>
            <button type="button" class="secondary" id="export-png">PNG</button>
          </div>
        </section>

        <section id="source-panel" aria-labelledby="source-title" class="panel source-panel">
          <h3 id="source-title">Source</h3>
          <p class="hint">The pipeline as it runs on the server, from <code id="source-path"></code>. Lines that
            make a named stream are marked.</p>
          <div id="source-choice" class="source-choice" role="group" aria-label="Show the source as" hidden></div>
          <pre class="source" tabindex="0" aria-labelledby="source-title"><code id="source-code"></code></pre>
        </section>
      </div>
      <div class="share run-actions" id="run-actions" role="group" aria-label="This run">
        <form id="keep-run-form" class="keep-run-form" novalidate>
          <label for="keep-run-title">Run title</label>
          <input type="text" id="keep-run-title" autocomplete="off" spellcheck="false" aria-describedby="kept-run">
          <button type="submit" class="secondary" id="keep-run">Keep this run by a link</button>
        </form>
        <button type="button" class="secondary" id="run-rows-open">Turn into marbles</button>
        <button type="button" class="secondary" id="run-compare-open" aria-controls="run-rows">Compare with another run</button>
        <span id="kept-run" role="status"></span>
      </div>

      <section id="inside" aria-labelledby="inside-title" class="panel inside-panel">
        <div class="streams-head">
          <h3 id="inside-title">Inside: the objects RAC built</h3>
          <button type="button" class="secondary" id="inside-toggle" aria-expanded="false" aria-controls="inside-body">Show the objects</button>
        </div>
        <p id="inside-note" class="hint" hidden></p>
        <div id="inside-body" hidden>
          <p class="hint">Every subscriber (RACPassthroughSubscriber), disposable and subject the session's pipeline holds
            at the scrubber's instant (or now), each under what holds it: disposing an object disposes everything
            drawn under it. New, swapped and disposed mark what changed since the instant shown before (on
            the first look, or going back, in the second before it). Point at a
            marble, <code>^</code> or <code>!</code> on the diagram to select its subscription's objects here; point at
            an object here, or move through them with the arrow keys, to light its lane there.</p>
          <label class="switch"><input type="checkbox" id="inside-probes" role="switch"> The playground's probes
            (a subscriber and a disposable it adds to each stage's subscription to report its events: not RAC's)</label>
          <p id="inside-summary" role="status"></p>
          <p id="inside-selection" class="inside-selection" aria-live="polite"></p>
          <div id="inside-trees" class="inside-trees" tabindex="0" role="region" aria-label="Objects, by what holds them"></div>
          <p id="inside-gone" class="hint"></p>
          <fieldset id="inside-breaks" class="inside-breaks" hidden>
            <legend>Breakpoints: stop the clock when an object does something</legend>
            <p class="hint">A breakpoint stops the virtual clock right after the work that meets it (Play pauses; Play or
              a step goes on). On a kept run, "Go to the next stop" moves the scrubber there.</p>
            <label for="inside-break-choice">Stop when</label>
            <select id="inside-break-choice"></select>
            <button type="button" class="secondary" id="inside-break-add">Add the breakpoint</button>
            <button type="button" class="secondary" id="inside-break-next" hidden>Go to the next stop</button>
            <ul id="inside-break-list" class="inside-break-list" aria-label="Breakpoints set"></ul>
            <p id="inside-break-status" role="status"></p>
          </fieldset>
          <h4 id="inside-narration-title">What changed</h4>
          <ol id="inside-narration" class="inside-narration" tabindex="0" aria-labelledby="inside-narration-title"></ol>
        </div>
      </section>

      <section aria-labelledby="log-title" class="panel">
        <div class="streams-head">
          <h3 id="log-title">Event log</h3>
          <div class="view-controls">
            <label for="log-filter">Show</label>
            <select id="log-filter"><option value="">every stream</option></select>
          </div>
        </div>
        <ul id="log" class="log" tabindex="0" aria-label="Events, newest first"></ul>
      </section>
      <div id="announcer" class="visually-hidden" aria-live="polite" aria-atomic="true"></div>
    `;
