// "Make a course" on the course's path: lessons ticked, put in an order with Up and Down, given a
// title and kept by a link (POST /api/links, kind "course"); the link opens the course. On a
// course kept by a link it starts from that course, and keeps a new version of it.
import { keepLink } from "../lib/api.js";
import { byId, html } from "../lib/dom.js";
import { myLinks, rememberLink } from "../lib/links.js";

export class CourseMaker {
  constructor() {
    this.chosen = [];
    byId("course-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.keep();
    });
  }

  /**
   * Offers `lessons` (`{id, title}`, the whole path), and the lesson links this browser knows, to
   * choose from; with `course` (a course link's `{id, title, lessons, titles}`), starting from
   * that course.
   */
  offer(builtIn, course = null) {
    if (course && this.from !== course.id) {
      this.from = course.id;
      this.chosen = [...course.lessons];
      byId("course-title").value = course.title;
    } else if (!course && this.from) {
      this.from = null;
      this.chosen = [];
      byId("course-title").value = "";
    }
    byId("course-maker-summary").textContent = this.from
      ? "Change this course: its lessons and their order, kept as a new version"
      : "Make a course: lessons of your choice, in your order, kept by a link";
    byId("course-keep").textContent = this.from ? "Keep as a new version" : "Keep the course as a link";
    const linked = myLinks().filter((link) => link.kind === "lesson").map((link) => ({ id: link.id, title: `${link.title} (a lesson link)` }));
    const extra = (course?.lessons ?? []).filter((id) => !builtIn.some((item) => item.id === id) && !linked.some((item) => item.id === id));
    const lessons = (this.lessons = [...builtIn, ...linked, ...extra.map((id) => ({ id, title: `${course.titles?.[id] ?? id} (a lesson link)` }))]);
    this.chosen = this.chosen.filter((id) => lessons.some((lesson) => lesson.id === id));
    const list = byId("course-choices");
    list.replaceChildren();
    for (const lesson of lessons) {
      const box = html("input");
      box.type = "checkbox";
      box.id = `course-choice-${lesson.id}`;
      box.checked = this.chosen.includes(lesson.id);
      box.addEventListener("change", () => {
        this.chosen = box.checked ? [...this.chosen, lesson.id] : this.chosen.filter((id) => id !== lesson.id);
        this.renderOrder();
      });
      const label = html("label", undefined, lesson.title);
      label.htmlFor = box.id;
      list.appendChild(html("li")).append(box, " ", label);
    }
    this.renderOrder();
  }

  /** The chosen lessons in their order, each with Up, Down (by keyboard too). */
  renderOrder(focus) {
    const list = byId("course-order");
    list.replaceChildren();
    this.chosen.forEach((id, index) => {
      const lesson = this.lessons.find((item) => item.id === id);
      const item = html("li");
      item.dataset.lesson = id;
      item.append(html("span", undefined, `${lesson.title} `));
      for (const [word, step] of [["Up", -1], ["Down", 1]]) {
        const button = html("button", "secondary", word);
        button.type = "button";
        button.setAttribute("aria-label", `Move “${lesson.title}” ${word.toLowerCase()}`);
        button.disabled = index + step < 0 || index + step >= this.chosen.length;
        button.addEventListener("click", () => {
          const order = [...this.chosen];
          [order[index], order[index + step]] = [order[index + step], order[index]];
          this.chosen = order;
          this.renderOrder({ id, word });
        });
        item.appendChild(button);
      }
      list.appendChild(item);
    });
    if (focus) {
      const moved = list.querySelector(`li[data-lesson="${focus.id}"]`);
      const buttons = moved ? [...moved.querySelectorAll("button")] : [];
      (buttons.find((button) => button.textContent === focus.word && !button.disabled) ?? buttons.find((button) => !button.disabled))?.focus();
    }
  }

  async keep() {
    const status = byId("course-status");
    if (!this.chosen.length) {
      status.textContent = "Tick at least one lesson first.";
      return;
    }
    status.textContent = "Keeping…";
    try {
      const content = JSON.stringify({ lessons: this.chosen });
      const link = await keepLink({ kind: "course", title: byId("course-title").value.trim(), content, from: this.from });
      rememberLink(link);
      const anchor = html("a", undefined, `${location.origin}/s/${link.id}`);
      anchor.href = `/s/${link.id}`;
      const version = link.from ? ` a new version (from /s/${link.from})` : "";
      status.replaceChildren(`Kept as${version} `, anchor, ": it opens the course, these lessons in this order.");
    } catch (error) {
      status.textContent = `Not kept: ${error.message}`;
    }
  }
}
