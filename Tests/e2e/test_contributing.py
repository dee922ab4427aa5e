"""CONTRIBUTING.md's checklists, walked: every repository path they name in backticks exists, and
every operator of the language's table (read from `Sources/Pipelines/OperatorTable.swift`) is
known by every place "Adding an operator" marks †. Plain files only: no server is needed.

A † line names one place, or places joined by "or" (either will do): a backticked path, for a
Markdown file optionally followed by a section's title in quotes (`"A"`, or `"A" to "B"` for a run
of sections), and optionally `families: "Time", "Schedulers"` (only the table's operators of
those families) or `by its RAC name` (the place knows RAC 2.x's name, not the language's)."""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
# The server's library lands with the restructuring of `Sources/Playground`; until its folder
# exists, paths under it are not yet checked, and a file named there is read where it is today.
SERVER_LIBRARY = "Sources/PlaygroundServer/"
SERVER_LIBRARY_LANDED = (ROOT / SERVER_LIBRARY).is_dir()

# Places an operator may be missing from, and why: (operator, place) → the reason. A place is its
# path, and for a section `path "Title"`.
EXEMPT = {
    ("repeat", "Tests/ReactiveTests/OperatorContractTests.swift"): "it resubscribes at each completion, so completion cannot end it",
    ("replay", "Tests/ReactiveTests/OperatorContractTests.swift"): "its connection outlives its subscribers (RAC's replay): MulticastTests",
    ("replayLast", "Tests/ReactiveTests/OperatorContractTests.swift"): "its connection outlives its subscribers (RAC's replayLast): MulticastTests",
    ("autoconnect", 'docs/OPERATORS.md "The whole RAC 2.x surface"'): "RACMulticastConnection's, not a method of the headers that section lists",
}


def operators():
    """The language's table: (name, RAC's name, family), the family being the comment above it."""
    table = []
    family = None
    for line in (ROOT / "Sources/Pipelines/OperatorTable.swift").read_text().splitlines():
        comment = re.match(r"\s*// (.+)$", line)
        if comment:
            family = comment.group(1).strip()
        entry = re.match(r'\s*\.init\("(\w+)", rac: "([^"]*)"', line)
        if entry:
            table.append((entry.group(1), entry.group(2), family))
    return table


def section(text, title, last=None):
    """The Markdown section headed `title` (to the next heading of its level or above), or the run
    of sections from `title` to the end of `last`'s."""
    def bounds(name):
        match = re.search(rf"^(#+) {re.escape(name)}\s*$", text, re.M)
        assert match, f"no section {name!r}"
        level = len(match.group(1))
        end = re.compile(rf"^#{{1,{level}}} ", re.M).search(text, match.end())
        return match.start(), end.start() if end else len(text)
    start, end = bounds(title)
    if last:
        end = bounds(last)[1]
    return text[start:end]


def checklist(title):
    return section(CONTRIBUTING.read_text(), title)


def inline_code(text):
    """Code spans outside fenced blocks."""
    return re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))


def is_path(span):
    if " " in span or span.startswith(("/", "#", "$")) or "{" in span:
        return False
    return "/" in span or span.endswith(".md")


def resolve(path):
    """Where the file a checklist names is read: the path itself, or, before the server's library
    lands, the file of that name in `Sources/Playground`."""
    here = ROOT / path
    if not here.exists() and path.startswith(SERVER_LIBRARY) and not SERVER_LIBRARY_LANDED:
        return ROOT / "Sources/Playground" / Path(path).name
    return here


def exists(path):
    """A path, a glob (`*OperatorTests.swift`) or a pattern with a placeholder (`NN-ID.json`)."""
    parts = [re.sub(r"^[A-Z]+(?:-[A-Z]+)*(\.\w+)?$", r"*\1", part) for part in path.rstrip("/").split("/")]
    pattern = "/".join(parts)
    if "*" in pattern:
        return any(ROOT.glob(pattern))
    return (ROOT / pattern).exists()


def named_paths():
    return sorted({span for span in inline_code(CONTRIBUTING.read_text()) if is_path(span)})


def test_every_path_a_checklist_names_exists():
    paths = [path for path in named_paths() if not path.startswith(SERVER_LIBRARY)]
    assert len(paths) >= 20, f"the paths were read: {paths}"
    missing = [path for path in paths if not exists(path)]
    assert not missing, f"CONTRIBUTING.md names paths that do not exist: {missing}"


@pytest.mark.skipif(not SERVER_LIBRARY_LANDED, reason=f"{SERVER_LIBRARY} has not landed yet")
def test_every_server_library_path_a_checklist_names_exists():
    paths = [path for path in named_paths() if path.startswith(SERVER_LIBRARY)]
    assert paths, "the route checklist names the server's folders"
    missing = [path for path in paths if not exists(path)]
    assert not missing, f"CONTRIBUTING.md names paths that do not exist: {missing}"


class Place:
    """One place of a † line: a file, maybe a section of it, and how it is searched."""

    def __init__(self, path, first=None, last=None, by_rac=False, families=None):
        self.path, self.first, self.last, self.by_rac, self.families = path, first, last, by_rac, families
        self.key = f'{path} "{first}"' if first else path
        target = resolve(path)
        assert target.is_file(), f"a † place is no file: {path}"
        text = target.read_text()
        self.text = section(text, first, last) if first else text
        self.gallery = None
        if target.suffix == ".json":
            groups = json.loads(text)["groups"]
            self.gallery = [(entry["id"], entry["program"]) for group in groups for entry in group["entries"]]

    def applies_to(self, name, rac, family):
        return (self.families is None or family in self.families) and not (self.by_rac and rac == "—")

    def knows(self, name, rac):
        word = re.escape(rac if self.by_rac else name)
        if self.gallery is not None:
            return any(id == name or re.search(rf"\.{word}(?![A-Za-z0-9_])", program) for id, program in self.gallery)
        before = r"[`./#+]" if self.path.endswith(".md") else r'[`."+]'
        return re.search(rf"{before}{word}(?![A-Za-z0-9_])", self.text) is not None


def dagger_lines():
    """Each † line of "Adding an operator", with the lines that continue it."""
    items, current = [], None
    for line in checklist("Adding an operator").splitlines():
        if re.match(r"\s*(- |\d+\. )", line) or not line.strip():
            if current:
                items.append(current)
            current = line if line.lstrip().startswith("- †") else None
        elif current is not None:
            current += " " + line.strip()
    if current:
        items.append(current)
    return items


def places():
    """Each † line's alternatives."""
    found = []
    for line in dagger_lines():
        families = re.search(r'families:\s*((?:"[^"]+"(?:,\s*)?)+)', line)
        families = re.findall(r'"([^"]+)"', families.group(1)) if families else None
        by_rac = "by its RAC name" in line
        alternatives = [
            Place(path, first or None, last or None, by_rac, families)
            for path, first, last in re.findall(r'`([^`]+)`(?:\s+"([^"]+)"(?:\s+to\s+"([^"]+)")?)?', line)
            if is_path(path)
        ]
        assert alternatives, f"a † line names no place: {line}"
        found.append(alternatives)
    return found


def test_the_walk_reads_the_table_and_the_places():
    table = operators()
    assert len(table) >= 50 and all(family for _, _, family in table), table
    walked = places()
    assert len(walked) >= 10, [[place.key for place in line] for line in walked]
    families = {family for _, _, family in table}
    for line in walked:
        for place in line:
            assert place.families is None or set(place.families) <= families, f"{place.key}: no family {place.families}"


def test_the_walk_names_what_is_missing():
    """It cannot pass by reading nothing: no place knows a made-up name, every place knows throttle."""
    for line in places():
        assert not any(place.knows("debounceUntilQuiet", "debounceUntilQuiet:") for place in line)
        assert any(place.knows("throttle", "throttle:") for place in line), [place.key for place in line]
    for (name, key), _ in EXEMPT.items():
        assert name in {name for name, _, _ in operators()}, f"an exemption for {name}, which the table lacks"
        exempt_places = [place for line in places() for place in line if place.key == key]
        assert exempt_places, f"an exemption from {key}, which is no † place"
        assert not any(place.knows(name, rac) for place in exempt_places for n, rac, _ in operators() if n == name), (
            f"{name} needs no exemption from {key}")


@pytest.mark.parametrize("name,rac,family", operators(), ids=[name for name, _, _ in operators()])
def test_every_place_the_checklist_marks_knows_the_operator(name, rac, family):
    missing = []
    for line in places():
        relevant = [place for place in line if place.applies_to(name, rac, family) and (name, place.key) not in EXEMPT]
        if not relevant:
            continue  # not this operator's place, or exempt from it
        if not any(place.knows(name, rac) for place in relevant):
            missing.append(" or ".join(place.key for place in line))
    assert not missing, f"`{name}` (RAC `{rac}`, {family}) is missing from: {'; '.join(missing)}"
