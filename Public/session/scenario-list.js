// The scenario tabs in the page's header: one link per scenario (`#search` starts a session of it),
// the current one marked.
import { html } from "../lib/dom.js";

export class ScenarioList {
  constructor(list, scenarios) {
    this.list = list;
    list.replaceChildren();
    for (const scenario of scenarios) {
      const item = html("li");
      const link = html("a", "scenario-link", scenario.title);
      link.href = `#${scenario.id}`;
      link.id = `pick-${scenario.id}`;
      link.title = scenario.description.split(". ")[0] + ".";
      item.appendChild(link);
      list.appendChild(item);
    }
  }

  /** Marks scenario `id` as current (null: none), scrolled into view where the tabs are one row. */
  mark(id) {
    for (const link of this.list.querySelectorAll(".scenario-link")) {
      link.toggleAttribute("aria-current", link.id === `pick-${id}`);
    }
    // On a phone the scenarios are one row that scrolls sideways: bring the current one into it.
    const current = this.list.querySelector(".scenario-link[aria-current]");
    const strip = current?.closest(".scenario-tabs");
    if (current && strip && strip.scrollWidth > strip.clientWidth) {
      strip.scrollLeft = current.offsetLeft - strip.offsetLeft - (strip.clientWidth - current.offsetWidth) / 2;
    }
  }
}
