// "Compare with…" in the editor, as text: a variant of a stream is a copy of its definition under
// a new name, and a comment line `// compare: name, name2` says which streams are compared, so the
// comparison lives in the program itself — in its link, its session, the learner's storage. The
// session's diagram rings the events that are not in every compared row.

const DEFINITION = /^(\s*)([A-Za-z_]\w*)\s*=(?!=)/;
const COMPARE = /^\s*\/\/\s*compare:\s*(.+)$/;
const NAME = /^[A-Za-z_]\w*$/;

/** The groups of compared streams a program's `// compare:` comments name (two names or more). */
export function comparisonsIn(text) {
  const groups = [];
  for (const line of (text ?? "").split("\n")) {
    const found = COMPARE.exec(line);
    if (!found) continue;
    const names = found[1].split(",").map((name) => name.trim()).filter((name) => NAME.test(name));
    if (new Set(names).size >= 2) groups.push([...new Set(names)]);
  }
  return groups;
}

/** The definitions of `lines`: each stream's name, first line and last (its chain's `.` lines). */
function definitions(lines) {
  const found = [];
  lines.forEach((line, index) => {
    const match = DEFINITION.exec(line);
    if (match && !line.trimStart().startsWith("input ")) found.push({ name: match[2], first: index, last: index });
    else if (found.length && line.trim() && /^\s/.test(line) && found.at(-1).last === index - 1) found.at(-1).last = index;
  });
  return found;
}

/**
 * Adds a variant of the stream defined where `caret` is (else of the last stream): its
 * definition copied under the next free name (`valid2`), right after it, and the comparison noted
 * in a `// compare:` comment (an existing one for that stream gains the variant). Returns the new
 * text, the variant's name and where its expression is (to select it), or `{problem}`.
 */
export function addVariant(text, caret) {
  const lines = text.split("\n");
  const all = definitions(lines);
  if (!all.length) return { problem: "Define a stream first (name = expression): its copy is what you change." };
  let line = text.slice(0, caret).split("\n").length - 1;
  const chosen = all.find((definition) => line >= definition.first && line <= definition.last) ?? all.at(-1);
  const taken = new Set(all.map((definition) => definition.name));
  let number = 2;
  while (taken.has(`${chosen.name}${number}`)) number += 1;
  const variant = `${chosen.name}${number}`;
  const copy = lines.slice(chosen.first, chosen.last + 1);
  copy[0] = copy[0].replace(DEFINITION, (_, indent) => `${indent}${variant} =`);
  lines.splice(chosen.last + 1, 0, ...copy);
  // The comparison: an existing comment that names the stream gains the variant, else a new one.
  const noted = lines.findIndex((entry) => {
    const found = COMPARE.exec(entry);
    return found && found[1].split(",").map((name) => name.trim()).includes(chosen.name);
  });
  if (noted >= 0) lines[noted] = `${lines[noted].trimEnd()}, ${variant}`;
  else lines.push(`// compare: ${chosen.name}, ${variant}`);
  const newText = lines.join("\n");
  line = chosen.last + 1;
  const lineStart = lines.slice(0, line).reduce((offset, entry) => offset + entry.length + 1, 0);
  const expressionStart = lineStart + lines[line].indexOf("=") + 1 + (lines[line][lines[line].indexOf("=") + 1] === " " ? 1 : 0);
  const lastLine = line + (chosen.last - chosen.first);
  const end = lines.slice(0, lastLine + 1).reduce((offset, entry) => offset + entry.length + 1, 0) - 1;
  return { text: newText, name: chosen.name, variant, selection: [expressionStart, end] };
}
