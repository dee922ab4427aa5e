// The playground page's wiring: fills each view's section with its folder's markup, loads the
// catalogue, makes one object per view, and routes the address's hash to the views it shows.
// Each view owns its state and its part of the page; they talk only through the routes below.
// Values are always rendered as text, never as HTML.
import { catalogue, createSession, examplePrograms, lessonList, readLink, roomState, sessionInfo } from "./lib/api.js";
import { byId, fill } from "./lib/dom.js";
import { decodeProgram } from "./editor/editor.js";
import { LessonSource } from "./learn/lesson-source.js";
import { LINK_PATH, rememberLink } from "./lib/links.js";
import { explain, explainSessionError, notice } from "./lib/notice.js";
import { isGone } from "./rooms/room-stream.js";
import { Router } from "./lib/router.js";
import { editorMarkup } from "./editor/editor-markup.js";
import { EditorView, lastProgram } from "./editor/editor-view.js";
import { findMarkup } from "./find/find-markup.js";
import { galleryMarkup } from "./operators/gallery-markup.js";
import { GalleryView } from "./operators/gallery-view.js";
import { learnMarkup } from "./learn/learn-markup.js";
import { LearnView } from "./learn/learn-view.js";
import { LessonWriter } from "./learn/lesson-writer.js";
import { writerMarkup } from "./learn/writer-markup.js";
import { linksMarkup } from "./links/links-markup.js";
import { LinksView } from "./links/links-view.js";
import { roomKeys } from "./rooms/room-forms.js";
import { RoomView } from "./rooms/room-view.js";
import { ScenarioList } from "./session/scenario-list.js";
import { sessionMarkup } from "./session/session-markup.js";
import { SessionView, programScenario } from "./session/session-view.js";

/**
 * Each view's fixed markup, from its folder, into its empty element of index.html (the gallery's
 * before the search's, which sits in it). The room's view builds all of its own.
 */
const markup = {
  "editor-panel": editorMarkup, scenario: sessionMarkup, gallery: galleryMarkup, "gallery-find": findMarkup,
  learn: learnMarkup, writer: writerMarkup, "my-links": linksMarkup,
};

/** The panel shown before anything is chosen. */
const intro = {
  mount: () => { byId("intro").hidden = false; },
  unmount: () => { byId("intro").hidden = true; },
};

async function start() {
  for (const [id, view] of Object.entries(markup)) fill(id, view);
  let scenarios;
  try {
    scenarios = await catalogue();
  } catch (error) {
    notice(explain(error));
    return;
  }
  const examples = await examplePrograms().catch(() => []); // the menu still offers the scenarios' programs
  const tabs = new ScenarioList(byId("scenario-list"), scenarios);
  const session = new SessionView();
  const editor = new EditorView({ scenarios, examples, onSession: showProgramSession });
  const lessons = new LessonSource();
  const writer = new LessonWriter(lessons);
  const room = new RoomView({ lessons: lessonList, scenarios });
  const views = { intro, editor, room, session, gallery: new GalleryView(), learn: new LearnView(lessons), writer, links: new LinksView() };
  const router = new Router(views, {
    onError: (error) => notice(explainSessionError(error)),
  });

  /** Shows a session of `scenario`, the editor above it for a program. */
  async function showSession(scenario, sessionID, clock, { focus = false } = {}) {
    const shown = { session: { scenario, sessionID, clock, focus } };
    if (scenario.program !== undefined) shown.editor = { text: scenario.program };
    await router.show(shown);
    tabs.mark(scenario.id);
  }

  /** The editor ran a program: its new session replaces the address, so reloading rejoins it. */
  async function showProgramSession({ created, text, clock }) {
    router.replace(`session=${created.session}`);
    await showSession(programScenario(created.pipeline, text), created.session, clock, { focus: true });
  }

  const scenarioNamed = (id) => scenarios.find((item) => item.id === id);

  /** A room as its teacher or a student sees it: the room's panel above its session, live. */
  async function showRoom(id, role) {
    tabs.mark(null);
    // The audience view's key is kept apart: the same browser holds the teacher's.
    const entry = roomKeys()[role === "audience" ? `${id}#audience` : id];
    if (entry?.role !== role) {
      await router.show({ room: { mode: "key", id, role } });
      return;
    }
    const access = { id, key: entry.key, role };
    let state;
    try {
      state = await roomState(id, entry.key);
    } catch (error) {
      if (!isGone(error)) throw error;
      await router.show({ room: { mode: "gone", id, role, error } }); // taken out of it, or it has ended
      return;
    }
    const info = await sessionInfo(state.session, access); // through the room: its session's own routes refuse it
    const scenario = info.pipeline ? programScenario(info.pipeline, info.pipeline.program) : scenarioNamed(info.scenario);
    await router.show({
      room: { mode: role, ...access, session: state.session, streams: scenario.streams.map((stream) => stream.name),
        onMoved: () => showRoom(id, role).catch((error) => notice(explainSessionError(error))) },
      session: { scenario, sessionID: state.session, clock: "virtual", room: access },
    });
  }

  router
    .on((hash) => (hash === "learn" || hash.startsWith("learn/") ? hash.slice("learn/".length) : null), async (id) => {
      tabs.mark(null);
      await router.show({ learn: { id } });
    })
    // The lesson writer: a new lesson (the draft), a copy of one, or the draft previewed as a learner.
    .on((hash) => (hash === "lessons/new" || hash.startsWith("lessons/copy=") ? hash.slice("lessons/copy=".length) : null), async (copy) => {
      tabs.mark(null);
      await router.show({ writer: { copy: copy || undefined } });
    })
    .on((hash) => (hash === "lessons/preview" ? hash : null), async () => {
      tabs.mark(null);
      await router.show({ learn: { preview: writer.loadDraft()?.lesson ?? writer.lesson() } });
    })
    .on((hash) => (hash === "gallery" || hash.startsWith("gallery/") ? hash.slice("gallery/".length) : null),
      async (id) => {
        tabs.mark(null);
        await router.show({ gallery: { id } });
      })
    // A scenario's program to change ("Edit this pipeline"), else something to run: the learner's
    // last program, else the first example.
    .on((hash) => (hash === "edit" || hash.startsWith("edit=") ? hash.slice("edit=".length) : null), async (id) => {
      tabs.mark(null);
      const text = scenarioNamed(id)?.pipeline ?? lastProgram() ?? examples[0]?.program ?? "";
      await router.show({ editor: { text, focus: true, kept: null } });
    })
    // A shared program: it runs in a new session of its own.
    .on((hash) => (hash.startsWith("program=") ? hash.slice("program=".length) : null), async (encoded) => {
      const text = decodeProgram(encoded);
      tabs.mark(null);
      await router.show({ editor: { text: text ?? "", kept: null } });
      if (text === null) notice("This program link is damaged: its text could not be read.");
      else await editor.run();
    })
    .on((hash) => (hash === "teach" ? hash : null), async () => {
      tabs.mark(null);
      await router.show({ room: { mode: "open" } });
    })
    .on((hash) => (hash.startsWith("teach/") ? hash.slice("teach/".length) : null), (id) => showRoom(id, "teacher"))
    .on((hash) => (hash.startsWith("room/") ? hash.slice("room/".length) : null), (id) => showRoom(id, "student"))
    .on((hash) => (hash.startsWith("audience/") ? hash.slice("audience/".length) : null), (id) => showRoom(id, "audience"))
    .on((hash) => (hash === "join" || hash.startsWith("join/") ? hash.slice("join/".length) : null), async (code) => {
      tabs.mark(null);
      await router.show({ room: { mode: "join", code } });
    })
    .on((hash) => (hash === "links" ? hash : null), async () => {
      tabs.mark(null);
      await router.show({ links: {} });
    })
    // A kept link (`/s/ID` opens the page on `#link=ID`): a program in the editor, a lesson to
    // take, a course as its lessons.
    .on((hash) => (hash.startsWith("link=") ? hash.slice("link=".length) : null), async (id) => {
      tabs.mark(null);
      const link = await readLink(id);
      rememberLink(link);
      if (link.kind === "program") {
        await router.show({ editor: { text: link.content, kept: link } });
      } else if (link.kind === "run") {
        // A kept run: its events replayed, read-only, in the session's view.
        const run = JSON.parse(link.content);
        const scenario = run.pipeline ? programScenario(run.pipeline, run.pipeline.program) : scenarioNamed(run.scenario);
        if (!scenario) throw new Error(`This run is of a scenario this server does not have (${run.scenario}).`);
        await router.show({ session: { scenario, sessionID: null, clock: run.clock, replay: { ...run, id: link.id, title: link.title } } });
      } else if (link.kind === "lesson") {
        lessons.remember(link);
        await router.show({ learn: { id: link.id } });
      } else {
        const { lessons } = JSON.parse(link.content);
        await router.show({ learn: { course: { id: link.id, title: link.title, lessons, from: link.from } } });
      }
    })
    // A session link: another tab's session, joined.
    .on((hash) => (hash.startsWith("session=") ? hash.slice("session=".length) : null), async (sessionID) => {
      const info = await sessionInfo(sessionID);
      const scenario = info.pipeline ? programScenario(info.pipeline, info.pipeline.program) : scenarioNamed(info.scenario);
      if (scenario) await showSession(scenario, sessionID, info.clock);
    })
    // `#search` starts a real-time session, `#step=search` a virtual-clock one.
    .on((hash) => {
      const clock = hash.startsWith("step=") ? "virtual" : "real";
      const scenario = scenarioNamed(clock === "virtual" ? hash.slice("step=".length) : hash);
      return scenario ? { scenario, clock } : null;
    }, async ({ scenario, clock }) => {
      const created = await createSession(scenario.id, clock);
      router.replace(`session=${created.session}`);
      await showSession(scenario, created.session, clock, { focus: true });
    })
    .on((hash) => (hash === "" ? hash : null), () => router.show({ intro: {} }));
  // A link's own address, `/s/ID`: the page opens on it, and the address keeps saying it.
  const kept = location.pathname.match(LINK_PATH);
  if (kept && !location.hash) history.replaceState(null, "", `#link=${kept[1]}`);
  await router.start();
}

start();
