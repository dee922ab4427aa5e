// Where lessons come from: the course's files (`GET /api/lessons`, each loaded from its `path`) and
// lessons kept by links (`GET /api/links/{id}`, kind "lesson"). A lesson is known by a key: a
// built-in lesson's id, or its link's id — the key its progress is kept under.
import { APIError, readLink } from "../lib/api.js";

/** A link's id: 16 characters without look-alikes. */
export const LINK_ID = /^[2-9a-hjkmnp-z]{16}$/;

export class LessonSource {
  constructor() {
    this.builtIn = null;
    /** Lesson links met so far: key → `{id, title, lesson}`. */
    this.linked = new Map();
  }

  /** The course's lessons, `{id, title, path}` in order (loaded once). */
  async lessons() {
    if (!this.builtIn) {
      const response = await fetch("/api/lessons");
      if (!response.ok) throw new APIError(response.status, "lessons_unavailable", "The course could not be loaded.");
      this.builtIn = (await response.json()).lessons;
    }
    return this.builtIn;
  }

  /** The entry (`{id, title}`) of lesson `key`, if it is known yet. */
  entry(key) {
    return this.builtIn?.find((lesson) => lesson.id === key) ?? this.linked.get(key);
  }

  /** Learns the lesson links among `keys` (a course's), so that they can be listed by title. */
  async learn(keys) {
    const unknown = keys.filter((key) => LINK_ID.test(key) && !this.entry(key));
    await Promise.all(unknown.map((key) => this.lesson(key).catch(() => null)));
  }

  /** Remembers `link` (an answer of GET /api/links, kind "lesson") and answers its lesson. */
  remember(link) {
    const lesson = JSON.parse(link.content);
    this.linked.set(link.id, { id: link.id, title: link.title, lesson, link });
    return lesson;
  }

  /** The whole lesson `key`: a course file, or the content of a lesson link. */
  async lesson(key) {
    const known = this.entry(key);
    if (known?.lesson) return known.lesson;
    if (known) {
      const response = await fetch(known.path);
      if (!response.ok) throw new APIError(response.status, "lesson_unavailable", "This lesson could not be loaded.");
      return response.json();
    }
    if (!LINK_ID.test(key)) return null;
    const link = await readLink(key);
    if (link.kind !== "lesson") return null;
    return this.remember(link);
  }
}
