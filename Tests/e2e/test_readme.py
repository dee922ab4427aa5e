"""Runs the README's copy-paste curl sessions against a live server, so the documentation cannot drift.

A block is a ```sh fence whose first line is `# scenario: NAME`; its `# expect:` lines must each
appear in what the block prints."""
import re
import subprocess
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCKS = re.findall(r"```sh\n(# scenario: (\w+)\n.*?)```", README.read_text(), re.S)


def test_the_readme_has_a_session_per_scenario():
    assert sorted(name for _, name in BLOCKS) == ["binding", "command", "completion", "links", "login", "marbles",
                                                  "multicast", "pipelines", "recordings", "rooms", "scenariomarbles", "schedulers", "search"]


@pytest.mark.parametrize("script,name", BLOCKS, ids=[name for _, name in BLOCKS])
def test_readme_curl_session(make_playground, script, name):
    # The default timings, as a reader gets them: the blocks' watch windows are sized for them
    # (shortened timings would make the multicast block's two subscriptions race its response).
    playground = make_playground(fast=False)
    expectations = [line.split("# expect: ", 1)[1] for line in script.splitlines() if line.startswith("# expect: ")]
    assert expectations, f"the {name} block states what to expect"
    runnable = script.replace("localhost:8080", f"127.0.0.1:{playground.port}")
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", runnable], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    for expected in expectations:
        assert expected in result.stdout, f"{name}: missing {expected!r} in:\n{result.stdout}"


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
