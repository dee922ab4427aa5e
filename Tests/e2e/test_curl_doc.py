"""Runs docs/CURL.md's copy-paste curl sessions against a live server, so the documentation cannot drift.

A block is a ```sh fence whose first line is `# scenario: NAME`; its `# expect:` lines must each
appear in what the block prints."""
import re
import subprocess
from pathlib import Path

import pytest

CURL_DOC = Path(__file__).resolve().parents[2] / "docs/CURL.md"
BLOCKS = re.findall(r"```sh\n(# scenario: (\w+)\n.*?)```", CURL_DOC.read_text(), re.S)


def test_the_curl_doc_has_a_session_per_scenario():
    assert sorted(name for _, name in BLOCKS) == ["binding", "command", "completion", "links", "login", "marbles",
                                                  "multicast", "pipelines", "recordings", "rooms", "scenariomarbles", "schedulers", "search"]


@pytest.mark.parametrize("script,name", BLOCKS, ids=[name for _, name in BLOCKS])
def test_curl_doc_session(make_playground, script, name):
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
