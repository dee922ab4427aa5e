// Links from an operator's name to its page in Reactive's documentation, served under /docs/
// (DocC, built by scripts/build-docs.sh). The documentation's own navigator index says which
// pages exist; `GET /api/docs` says whether there is one, so that a server whose documentation is
// not built (then there are no links) is not asked for it.

const SIGNAL = "/documentation/reactive/signal/";
const TYPE = /^\/documentation\/reactive\/([a-z]+)$/;
let loading = null;
/** The documentation's types (`channel`, `queuescheduler`), by lower-cased name: their paths. */
const types = new Map();

/**
 * A member's name as Swift writes a reference to it, from its title in the index:
 * "func throttle(Duration, on: any Scheduler) -> …" is `Signal.throttle(_:on:)`.
 */
function label(title) {
  const found = /(?:func|var|init)\s+`?(\w+)`?(?:<[^(]*>)?(\((.*)\))?/.exec(title ?? "");
  if (!found) return null;
  if (!found[2]) return `Signal.${found[1]}`;
  const parameters = [];
  let depth = 0;
  let current = "";
  for (const character of found[3]) {
    if ("(<[".includes(character)) depth += 1;
    if (")>]".includes(character)) depth -= 1;
    if (character === "," && depth === 0) {
      parameters.push(current);
      current = "";
    } else {
      current += character;
    }
  }
  if (current.trim()) parameters.push(current);
  const labels = parameters.map((parameter) => /^\s*(\w+):/.exec(parameter)?.[1] ?? "_");
  return `Signal.${found[1]}(${labels.map((name) => `${name}:`).join("")})`;
}

/** The Signal members of the documentation, by name (`throttle`, `take`): their paths. */
function load() {
  loading ??= fetch("/api/docs")
    .then((response) => (response.ok ? response.json() : null))
    .then((status) => (status?.index ? fetch(status.index) : null))
    .then((response) => (response?.ok ? response.json() : null))
    .then((index) => {
      if (!index) return null;
      const byName = new Map();
      const visit = (node) => {
        const type = TYPE.exec(node.path ?? "");
        if (type && node.type !== "groupMarker") types.set(type[1], { path: node.path, title: node.title });
        if (node.path?.startsWith(SIGNAL) && node.type !== "groupMarker") {
          const segment = node.path.slice(SIGNAL.length);
          const name = segment.split("(")[0];
          if (!byName.has(name)) byName.set(name, []);
          byName.get(name).push({ path: node.path, segment: segment.replace(/-[0-9a-z]+$/, ""), type: node.type, label: label(node.title) });
        }
        for (const child of node.children ?? []) visit(child);
      };
      for (const items of Object.values(index.interfaceLanguages ?? {})) for (const item of items) visit(item);
      return byName;
    })
    .catch(() => null);
  return loading;
}

/**
 * The documentation page of an operator as this project spells it (`throttle`, `take(while:)`,
 * `flatMap(.latest)`, `publish().autoconnect()`: the first call is looked up), or null. An exact
 * signature wins (`take(while:)`), then an instance method, then any member of that name.
 */
export async function docsPage(spelling) {
  const byName = await load();
  const name = spelling.trim().split(/[(.{ ]/)[0];
  const candidates = byName?.get(name.toLowerCase());
  if (!candidates?.length) return null;
  const labels = spelling.match(/^\w+\(((?:\w+:)+)\)$/)?.[1];
  const exact = labels && candidates.find((candidate) => candidate.segment === `${name.toLowerCase()}(${labels.toLowerCase()})`);
  const chosen = exact ?? candidates.find((candidate) => candidate.type === "method") ?? candidates[0];
  return { href: `/docs${chosen.path}/`, label: chosen.label ?? `Signal.${chosen.segment}` };
}

/** The documentation page of one of Reactive's types by its name (`Channel`, `QueueScheduler`), or null. */
export async function docsTypePage(name) {
  await load();
  const type = types.get(name.toLowerCase());
  return type ? { href: `/docs${type.path}/`, label: type.title ?? name } : null;
}

/** A link to `page` (from `docsPage`) that opens beside the playground. */
export function docsLink(page, text = page.label) {
  const link = document.createElement("a");
  link.href = page.href;
  link.target = "_blank";
  link.rel = "noopener";
  link.className = "docs-link";
  link.textContent = text;
  return link;
}
