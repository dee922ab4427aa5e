"""Fair shares: one client cannot take what program sessions share from everyone, and a class
behind one address is not one client's worth of limits. Clients are told apart as behind a
trusted proxy, by X-Forwarded-For."""
import json
import time
from concurrent.futures import ThreadPoolExecutor


MiB = 1024 * 1024
# Every 10 ms a value of about 60,000 characters: a session keeps as many bytes as it may.
HOARDER = 'x = interval(10ms).map { v in "\\(v)' + "y" * 60_000 + '" }\n'
SMALL = "ticks = interval(1s)\ndoubled = ticks.map { $0 * 2 }\n"


def kept_events(server):
    _, _, raw = server.get("/metrics")
    line = next(l for l in raw.decode().splitlines() if l.startswith("playground_program_event_bytes "))
    return float(line.split()[1])


def kept_by(server, bytes, seconds=20):
    """Waits until program sessions keep `bytes` together."""
    deadline = time.monotonic() + seconds
    while kept_events(server) < bytes:
        assert time.monotonic() < deadline, f"program sessions keep {kept_events(server):.0f} bytes, not {bytes:.0f}"
        time.sleep(0.05)


def client(address):
    return {"X-Forwarded-For": address}


def test_a_client_that_fills_the_kept_events_is_refused_its_share_and_others_are_not(make_playground):
    server = make_playground("--trust-proxy", "--program-event-bytes", str(8 * MiB), "--event-buffer-bytes", str(MiB),
                             "--program-runs-per-second", "100")
    hog = client("10.0.0.1")
    opened, refusal = [], None
    for _ in range(40):
        status, headers, body = server.request("POST", "/api/pipelines", HOARDER, headers=hog)
        if status != 201:
            refusal = (status, headers, body)
            break
        opened.append(status)
        # Each session fills its 1 MiB within a second; the next is opened once it has.
        kept_by(server, min(len(opened), 8) * 0.9 * MiB)
    assert refusal is not None, f"{len(opened)} sessions opened and none refused"
    status, headers, body = refusal
    error = json.loads(body)["error"]
    assert status == 429 and error["code"] == "share_used", (status, error)
    assert "Retry-After" in headers
    assert error["message"].startswith("Your address"), error["message"]
    assert len(opened) >= 7, f"refused after {len(opened)} sessions: before it held its share"

    newcomer = client("10.0.0.2")
    status, body = server.json("POST", "/api/pipelines", HOARDER, headers=newcomer)
    assert status == 201, body
    status, body = server.json("POST", "/api/scenarios/search/sessions", headers=newcomer)
    assert status == 201, body
    # The hog's own scenario sessions are not refused because of its programs.
    status, body = server.json("POST", "/api/scenarios/search/sessions", headers=hog)
    assert status == 201, body


def test_thirty_learners_behind_one_address_each_open_a_program_and_a_scenario(make_playground):
    server = make_playground("--trust-proxy")
    school = client("192.0.2.10")

    def learner(_):
        program = server.json("POST", "/api/pipelines", SMALL, headers=school)
        scenario = server.json("POST", "/api/scenarios/search/sessions", headers=school)
        return program, scenario

    with ThreadPoolExecutor(max_workers=30) as pool:
        answers = list(pool.map(learner, range(30)))
    refused = [(status, body) for pair in answers for status, body in pair if status != 201]
    assert not refused, refused
