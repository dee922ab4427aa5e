"""A class behind one address (issue #75): sessions a room's students take home count on the room's
allowance — `--room-sessions-per-seat` each (4) — not on the school address's
`--max-sessions-per-client` (100 by default). Forty students behind one trusted proxy each hold
four; a fifth is refused with why (429 `seat_sessions_used`, naming the flag), and goes once one
is deleted; the address still opens sessions of its own."""
from test_rooms import bearer, join, open_room


def test_forty_students_behind_one_address_each_hold_four_sessions(make_playground):
    server = make_playground("--trust-proxy", "--max-sessions-per-client", "100")
    school = {"X-Forwarded-For": "203.0.113.9"}
    room = open_room(server, headers=school)
    rid = room["room"]
    keys = [join(server, room["code"], f"Learner {n}", school)["studentKey"] for n in range(40)]
    taken = {}
    for key in keys:
        for _ in range(4):
            status, body = server.json("POST", f"/api/rooms/{rid}/home", None, {**bearer(key), **school})
            assert status == 201, body
            taken.setdefault(key, []).append(body["session"])
    assert sum(len(sessions) for sessions in taken.values()) == 160, "more than the address's 100"
    status, body = server.json("POST", f"/api/rooms/{rid}/home", None, {**bearer(keys[0]), **school})
    assert (status, body["error"]["code"]) == (429, "seat_sessions_used") and "--room-sessions-per-seat" in body["error"]["message"], body
    # Another student is not held back by the first's four.
    status, _ = server.json("DELETE", f"/api/sessions/{taken[keys[1]][0]}", None, school)
    assert status == 204
    status, body = server.json("POST", f"/api/rooms/{rid}/home", None, {**bearer(keys[1]), **school})
    assert status == 201, body
    # The school's address still opens a session of its own.
    status, body = server.json("POST", "/api/scenarios/login/sessions", None, school)
    assert status == 201, body


def test_the_allowance_is_a_flag_with_a_range(make_playground):
    server = make_playground("--trust-proxy", "--room-sessions-per-seat", "1")
    room = open_room(server)
    key = join(server, room["code"], "Ada")["studentKey"]
    assert server.json("POST", f"/api/rooms/{room['room']}/home", None, bearer(key))[0] == 201
    assert server.json("POST", f"/api/rooms/{room['room']}/home", None, bearer(key))[0] == 429
