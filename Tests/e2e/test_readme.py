"""The README is a map: a short page that opens with the diagram and the page's three doors, and
whose links all lead somewhere."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def test_the_readme_opens_with_the_diagram_and_three_doors():
    """The README's first picture is a screenshot of the diagram kept under docs/, and its "Start
    here" offers the page's three doors in the page's order: learn, watch, write."""
    text = README.read_text()
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", text)
    assert pictures and pictures[0].startswith("docs/"), pictures
    picture = README.parent / pictures[0]
    assert picture.is_file() and picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", picture
    assert text.index(pictures[0]) < text.index("## Set up on a fresh machine")
    start = text.split("## Start here", 1)[1].split("\n## ", 1)[0]
    doors = re.findall(r"^\d\. \*\*(\w+)\*\* — \[`/(#\w+)`\]", start, re.M)
    assert doors == [("Learn", "#learn"), ("Watch", "#search"), ("Write", "#edit")], doors
    page = (README.parent / "Public/index.html").read_text()
    assert [page.index(f'href="{href}"', page.index('id="intro"')) for _, href in doors] == sorted(
        page.index(f'href="{href}"', page.index('id="intro"')) for _, href in doors)


def test_the_readme_is_short():
    """Read in two minutes: the rest is in the documents it links to."""
    assert len(README.read_text().splitlines()) <= 150


def test_every_relative_link_of_the_docs_leads_to_a_file():
    """README.md, CONTRIBUTING.md and docs/*.md: every relative Markdown link names a file or
    folder of the repository (an anchor or a query after it aside)."""
    documents = [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
    broken = []
    for document in documents:
        for target in re.findall(r"\]\(([^)\s]+)\)", document.read_text()):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (document.parent / target.split("#", 1)[0].split("?", 1)[0]).resolve()
            if not path.exists():
                broken.append(f"{document.relative_to(ROOT)}: {target}")
    assert not broken, broken
