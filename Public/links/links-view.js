// "My links" (`#links`): the links this browser kept or opened, newest first, each with its kind,
// date and address, and a button that takes it off the list (the link itself stays).
import { byId, html } from "../lib/dom.js";
import { forgetLink, myLinks } from "../lib/links.js";

export class LinksView {
  mount() {
    byId("my-links").hidden = false;
    this.render();
    byId("my-links-title").focus();
  }

  unmount() {
    byId("my-links").hidden = true;
  }

  render(focusAfter) {
    const list = byId("my-links-list");
    const links = myLinks();
    list.replaceChildren();
    links.forEach((link, index) => {
      const item = html("li");
      item.dataset.link = link.id;
      const anchor = html("a", undefined, link.title);
      anchor.href = `/s/${link.id}`;
      const date = link.created ? new Date(link.created).toLocaleDateString() : "";
      const remove = html("button", "secondary", "Remove");
      remove.type = "button";
      remove.setAttribute("aria-label", `Remove “${link.title}” from this list`);
      remove.addEventListener("click", () => {
        forgetLink(link.id);
        this.render(index);
      });
      item.append(anchor, html("span", "hint", ` — ${link.kind}${date ? `, ${date}` : ""}, /s/${link.id} `), remove);
      list.appendChild(item);
    });
    byId("my-links-empty").hidden = links.length > 0;
    // After a removal, the focus goes to the next item's button (or the heading when none is left).
    if (focusAfter !== undefined) {
      const buttons = list.querySelectorAll("button");
      (buttons[Math.min(focusAfter, buttons.length - 1)] ?? byId("my-links-title")).focus();
    }
  }
}
