"""Rooms (docs/API.md, "Rooms"): a teacher opens one, students join by its code, the teacher drives
its session, asks, reveals and ends it; keys decide who may do what; the class's answers are
counted as they come; streams resume with Last-Event-ID; a class behind one address works; limits
answer clear errors; keys never reach the log."""
import json
import re
import time


def bearer(key):
    return {"Authorization": f"Bearer {key}"}


def open_room(server, source=None, headers=None):
    status, body = server.json("POST", "/api/rooms", json.dumps({"from": source or {"lesson": "reading-marbles"}}), headers)
    assert status == 201, body
    return body


def join(server, code, name, headers=None):
    status, body = server.json("POST", f"/api/join/{code}", json.dumps({"name": name}), headers)
    assert status == 201, body
    return body


def ask(server, room, key, **question):
    status, body = server.json("POST", f"/api/rooms/{room}/questions", json.dumps(question), bearer(key))
    assert status == 201, body
    return body["question"]


def answer(server, room, key, question, marbles, headers=None):
    return server.json("POST", f"/api/rooms/{room}/answers", json.dumps({"question": question, "marbles": marbles}),
                       {**bearer(key), **(headers or {})})


def room_events(server, room, key=None, cookie=None, last_event_id=None):
    headers = bearer(key) if key else {"Cookie": cookie}
    return server.watch(f"/api/rooms/{room}/events", last_event_id, headers)


def stream_ends(stream, timeout=5.0):
    """Whether the server ends `stream` within `timeout` (reading what it sends until then)."""
    try:
        stream.wait_for(lambda events: False, timeout)
    except EOFError:
        return True
    except AssertionError:
        return False
    finally:
        stream.close()


def latest(stream):
    return stream.events[-1]["json"]


def test_a_room_asks_the_class_and_counts_what_it_answers(playground):
    room = open_room(playground)
    assert re.fullmatch(r"[ACEFGHJKMNPRTWXY34679]{7}", room["code"]), room["code"]
    assert room["join"] == f"/#join/{room['code']}" and re.fullmatch(r"[0-9a-f]{32}", room["teacherKey"])
    rid, teacher = room["room"], room["teacherKey"]
    # People type codes in lower case, with a dash; names are trimmed and made unique by a suffix.
    ada = join(playground, room["code"].lower()[:3] + "-" + room["code"].lower()[3:], "  Ada \t Lovelace ")  # as people type it
    grace = join(playground, room["code"], "Ada Lovelace")
    alan = join(playground, room["code"], "Alan")
    assert (ada["name"], grace["name"]) == ("Ada Lovelace", "Ada Lovelace (2)")
    assert ada["session"] == room["session"]

    # The teacher steps the clock through the room, then asks: the answer is known at once.
    status, _ = playground.json("POST", f"/api/rooms/{rid}/inputs/advance", "100", bearer(teacher))
    assert status == 202
    question = ask(playground, rid, teacher, stream="out", frames=8, frame=100)
    # `a` is -a--b-c| and `out` skips one: from 100 ms, b at 400, c at 600, the end at 700.
    assert (question["from"], question["truth"]) == (100, "---b-c|")

    watch = room_events(playground, rid, key=teacher)
    for key, marbles in ((ada["studentKey"], "---b-c|"), (grace["studentKey"], "---b-c|"), (alan["studentKey"], "-a-b-c|")):
        status, body = answer(playground, rid, key, question["id"], marbles)
        assert status == 200, body
        assert body["you"]["answer"] == marbles and "right" not in body["you"], "right or wrong is said at the reveal"
        assert "truth" not in body["question"], "a student does not see the answer before the reveal"
    watch.wait_for(lambda events: events and (latest(watch).get("class") or {}).get("answered") == 3)
    tally = latest(watch)["class"]
    assert (tally["right"], tally["wrong"]) == (2, [{"marbles": "-a-b-c|", "count": 1, "right": False, "misconception": "everyValue"}])
    assert [(group["group"], group["count"]) for group in tally["missed"]] == [("everyValue", 1)], tally["missed"]
    assert tally["missed"][0]["sentence"].startswith("Let every value through")
    assert tally["heat"] == [0, 1, 0, 3, 0, 3, 3, 0]
    # A student changes their mind: the counts follow, nothing counted twice.
    status, _ = answer(playground, rid, alan["studentKey"], question["id"], "---b-c|")
    assert status == 200
    watch.wait_for(lambda events: latest(watch)["class"]["right"] == 3)
    assert latest(watch)["class"]["answered"] == 3 and latest(watch)["class"]["wrong"] == []
    status, _ = answer(playground, rid, alan["studentKey"], question["id"], "-a-b-c|")
    watch.close()

    status, body = playground.json("POST", f"/api/rooms/{rid}/reveal", None, bearer(teacher))
    assert status == 200 and body["question"]["revealed"], body
    status, body = playground.json("GET", f"/api/rooms/{rid}", None, bearer(alan["studentKey"]))
    assert body["you"] == {"name": "Alan", "answer": "-a-b-c|", "right": False} and body["question"]["truth"] == "---b-c|"
    status, body = answer(playground, rid, ada["studentKey"], question["id"], "--")
    assert (status, body["error"]["code"]) == (409, "question_revealed")
    status, body = playground.json("GET", f"/api/rooms/{rid}/students", None, bearer(teacher))
    assert body == {"students": [{"number": 1, "name": "Ada Lovelace", "answered": True}, {"number": 2, "name": "Ada Lovelace (2)", "answered": True},
                                 {"number": 3, "name": "Alan", "answered": True}]}


def test_keys_decide_who_drives_asks_and_answers(playground):
    room = open_room(playground)
    rid, teacher = room["room"], room["teacherKey"]
    student = join(playground, room["code"], "Ada")["studentKey"]
    ask_body = json.dumps({"stream": "out"})
    status, headers, body = playground.request("POST", f"/api/rooms/{rid}/questions", ask_body)
    assert status == 401 and json.loads(body)["error"]["code"] == "key_required" and headers["WWW-Authenticate"].startswith("Bearer")
    for key, code in (("f" * 32, "wrong_key"), (student, "teacher_only"), (student.split(".")[0] + "." + "0" * 32, "wrong_key")):
        status, body = playground.json("POST", f"/api/rooms/{rid}/questions", ask_body, bearer(key))
        assert (status, body["error"]["code"]) == (403, code), key
    for path in ("/inputs/advance", "/reveal", "/students"):
        method = "GET" if path == "/students" else "POST"
        status, body = playground.json(method, f"/api/rooms/{rid}{path}", "100" if "advance" in path else None, bearer(student))
        assert (status, body["error"]["code"]) == (403, "teacher_only"), path
    status, body = playground.json("DELETE", f"/api/rooms/{rid}", None, bearer(student))
    assert (status, body["error"]["code"]) == (403, "teacher_only")
    question = ask(playground, rid, teacher, stream="out", frames=8)
    status, body = answer(playground, rid, teacher, question["id"], "-a|")
    assert (status, body["error"]["code"]) == (403, "students_only")
    # Nobody drives or ends the room's session around the room, not even with its id.
    status, body = playground.json("POST", f"/api/sessions/{room['session']}/inputs/advance", "100")
    assert (status, body["error"]["code"]) == (403, "room_session")
    status, body = playground.json("DELETE", f"/api/sessions/{room['session']}")
    assert (status, body["error"]["code"]) == (403, "room_session")
    # A cookie carries a key for an EventSource; it is scoped to the room's own path.
    status, headers, _ = playground.request("POST", f"/api/rooms/{rid}/cookie", None, bearer(student))
    assert status == 204
    assert headers["Set-Cookie"] == f"room_student={student}; Path=/api/rooms/{rid}/; Max-Age=3600; HttpOnly; SameSite=Strict"
    stream = room_events(playground, rid, cookie=f"room_student={student}")
    assert stream.status == 200
    stream.close()
    stream = room_events(playground, rid, cookie="room_student=1." + "0" * 32)
    assert stream.status == 403
    stream.close()
    status, body = playground.json("GET", "/api/rooms/" + "0" * 32, None, bearer(teacher))
    assert (status, body["error"]["code"]) == (404, "unknown_room")
    status, body = playground.json("GET", "/api/rooms/blue." + "0" * 32, None, bearer(teacher))
    assert (status, body["error"]["code"]) == (421, "misdirected")
    # Keys never reach the log.
    log = "".join(playground.log)
    assert teacher not in log and student.split(".")[1] not in log


def test_bad_requests_are_clear_errors(playground):
    cases = [
        ("/api/rooms", {"from": {"lesson": "no-such-lesson"}}, 400, "invalid_value"),
        ("/api/rooms", {"from": {"scenario": "nope"}}, 400, "invalid_value"),
        ("/api/rooms", {"from": {"program": "out = a.tak(2)"}}, 400, "pipeline_invalid"),
        ("/api/rooms", {"from": {"lesson": "reading-marbles", "scenario": "search"}}, 400, "invalid_value"),
        ("/api/rooms", {"from": {"scenario": "search"}, "title": ""}, 400, "invalid_value"),
        ("/api/rooms", {"from": {"scenario": "search"}, "colour": "red"}, 400, "invalid_value"),
        ("/api/join/ABC", {"name": "Ada"}, 404, "unknown_room"),
        ("/api/join/AAAAAA", {"name": "Ada"}, 404, "unknown_room"),
    ]
    for path, body, status, code in cases:
        answered, error = playground.json("POST", path, json.dumps(body))
        assert (answered, error["error"]["code"]) == (status, code), (path, body, error)
    status, _, body = playground.request("POST", "/api/rooms", "{", {"Content-Type": "application/json"})
    assert status == 400 and json.loads(body)["error"]["code"] == "invalid_json"
    status, _, body = playground.request("POST", "/api/rooms", "x", {"Content-Type": "text/plain"})
    assert status == 415
    room = open_room(playground, {"scenario": "search"})
    rid, teacher = room["room"], room["teacherKey"]
    for name in ("\u0000\u0001", "x" * 41, "   "):
        status, body = playground.json("POST", f"/api/join/{room['code']}", json.dumps({"name": name}))
        assert (status, body["error"]["code"]) == (400, "invalid_value"), name
    status, _, body = playground.request("POST", f"/api/join/{room['code']}", "Ada", {"Content-Type": "text/plain"})
    assert status == 415
    student = join(playground, room["code"], "Ada")["studentKey"]
    for question, code in (({"stream": "nope"}, "invalid_value"), ({"stream": "results", "frames": 0}, "invalid_value"),
                           ({"stream": "results", "frames": 201}, "invalid_value"), ({"stream": "results", "frame": 5}, "invalid_value"),
                           ({"stream": "results", "frames": "20"}, "invalid_value")):
        status, body = playground.json("POST", f"/api/rooms/{rid}/questions", json.dumps(question), bearer(teacher))
        assert (status, body["error"]["code"]) == (400, code), question
    status, body = answer(playground, rid, student, 1, "-a|")
    assert (status, body["error"]["code"]) == (409, "no_question")
    question = ask(playground, rid, teacher, stream="results", frames=10)
    for marbles, code in (("-a-(", "invalid_marbles"), ("-" * 12 + "a", "invalid_marbles"), ("-" * 401, "invalid_marbles")):
        status, body = answer(playground, rid, student, question["id"], marbles)
        assert (status, body["error"]["code"]) == (400, code), marbles
    status, body = answer(playground, rid, student, question["id"] + 1, "-a|")
    assert (status, body["error"]["code"]) == (409, "question_closed")
    status, body = answer(playground, rid, student, 2 ** 40, "-a|")
    assert (status, body["error"]["code"]) == (400, "invalid_value")


def test_a_question_about_a_scenario_replays_what_the_teacher_typed(playground):
    """The search scenario's throttle (150 ms here) and its service (200 ms): the answer comes from
    the room's inputs replayed at their virtual times, as the live session ran them."""
    room = open_room(playground, {"scenario": "search"})
    rid, teacher = room["room"], room["teacherKey"]
    for step, value in (("query", "sw"), ("advance", "50"), ("query", "swift")):
        status, _ = playground.json("POST", f"/api/rooms/{rid}/inputs/{step}", value, bearer(teacher))
        assert status == 202
    question = ask(playground, rid, teacher, stream="throttled", frames=10, frame=50)
    # RAC's throttle sends the latest value once 150 ms pass without a newer one: swift, at 200 ms,
    # the third 50 ms frame from 50.
    assert question["truth"] == "---a", question
    assert question["letters"]["a"] == "swift"
    # What the live session does when the teacher plays the same window agrees.
    watch = playground.watch(f"/api/rooms/{rid}/session/events?since=0", None, bearer(teacher))
    playground.json("POST", f"/api/rooms/{rid}/inputs/advance", "500", bearer(teacher))
    watch.wait_for(lambda events: "swift" in watch.values("throttled"))
    sent = [e["json"]["t"] for e in watch.events if e.get("event") == "throttled" and e["json"]["kind"] == "next"]
    assert sent == [200], sent
    watch.close()


def test_streams_resume_with_last_event_id_and_rooms_outlive_the_teachers_tab(playground):
    room = open_room(playground)
    rid, teacher = room["room"], room["teacherKey"]
    ada = join(playground, room["code"], "Ada")["studentKey"]
    student = room_events(playground, rid, cookie=f"room_student={ada}")
    student.wait_for(lambda events: len(events) == 1)
    assert latest(student)["you"] == {"name": "Ada"} and latest(student).get("question") is None
    teacher_stream = room_events(playground, rid, key=teacher)
    teacher_stream.wait_for(lambda events: len(events) == 1)
    teacher_stream.close()  # the teacher closes the tab
    question = ask(playground, rid, teacher, stream="out", frames=8)
    student.wait_for(lambda events: latest(student).get("question") is not None)
    seen = student.events[-1]["id"]
    student.close()
    status, _ = answer(playground, rid, ada, question["id"], "----b-c|")
    assert status == 200
    again = room_events(playground, rid, cookie=f"room_student={ada}", last_event_id=seen)
    again.wait_for(lambda events: len(events) >= 1)
    view = latest(again)
    assert view["question"]["id"] == question["id"] and view["you"]["answer"] == "----b-c|"
    assert int(again.events[-1]["id"]) > int(seen)
    again.close()
    teacher_again = room_events(playground, rid, key=teacher, last_event_id=seen)
    teacher_again.wait_for(lambda events: len(events) >= 1)
    assert latest(teacher_again)["class"]["answered"] == 1
    teacher_again.close()
    # A student's own part of a snapshot is written by hand: quotes and any script in a name, the
    # answer, and right or wrong once revealed, as the encoder writes them.
    quoted = join(playground, room["code"], 'Zoë "Z" \\ ✨')["studentKey"]
    status, _ = answer(playground, rid, quoted, question["id"], "-a--b-c|")
    streamed = room_events(playground, rid, cookie=f"room_student={quoted}")
    streamed.wait_for(lambda events: len(events) == 1)
    assert latest(streamed)["you"] == {"name": 'Zoë "Z" \\ ✨', "answer": "-a--b-c|"}
    playground.json("POST", f"/api/rooms/{rid}/reveal", None, bearer(teacher))
    streamed.wait_for(lambda events: latest(streamed)["question"]["revealed"])
    assert latest(streamed)["you"] == {"name": 'Zoë "Z" \\ ✨', "answer": "-a--b-c|", "right": False}
    status, view = playground.json("GET", f"/api/rooms/{rid}", None, bearer(quoted))
    assert view["you"] == latest(streamed)["you"]
    streamed.close()


def test_a_class_behind_one_address_joins_and_answers(make_playground):
    """Fifty students behind one school address (a trusted proxy's X-Forwarded-For), each joining
    and answering within a second: every one is let in and counted; the teacher's view comes at
    most four times a second however fast the answers are."""
    server = make_playground("--trust-proxy")
    school = {"X-Forwarded-For": "203.0.113.7"}
    room = open_room(server, headers=school)
    rid, teacher = room["room"], room["teacherKey"]
    keys = [join(server, room["code"], f"Learner {n}", school)["studentKey"] for n in range(50)]
    question = ask(server, rid, teacher, stream="out", frames=8)
    watch = room_events(server, rid, key=teacher)
    started = time.monotonic()
    for n, key in enumerate(keys):
        status, body = answer(server, rid, key, question["id"], "----b-c|" if n % 5 else "-a--b-c|", school)
        assert status == 200, body
    watch.wait_for(lambda events: events and (latest(watch).get("class") or {}).get("answered") == 50)
    elapsed = time.monotonic() - started
    assert latest(watch)["class"]["right"] == 40 and latest(watch)["class"]["wrong"][0]["count"] == 10
    # One snapshot on connecting, then at most one per 250 ms, and one more at the end of a burst.
    assert len(watch.events) <= 2 + elapsed / 0.25 + 1, (len(watch.events), elapsed)
    watch.close()


def test_limits_answer_clear_errors(make_playground):
    server = make_playground("--room-students", "2", "--rooms-per-client", "1", "--room-idle-seconds", "1")
    room = open_room(server)
    join(server, room["code"], "Ada")
    join(server, room["code"], "Grace")
    status, body = server.json("POST", f"/api/join/{room['code']}", json.dumps({"name": "Alan"}))
    assert (status, body["error"]["code"]) == (409, "room_full") and "--room-students" in body["error"]["message"]
    status, headers, body = server.request("POST", "/api/rooms", json.dumps({"from": {"scenario": "search"}}))
    assert status == 429 and json.loads(body)["error"]["code"] == "rate_limited" and "Retry-After" in headers
    question = ask(server, room["room"], room["teacherKey"], stream="out", frames=8)
    # Nothing happens for a second: the room ends, its streams get `end` and its session goes.
    stream = room_events(server, room["room"], key=room["teacherKey"])
    stream.wait_for(lambda events: any(e.get("event") == "end" for e in events), timeout=10)
    assert stream.events[-1]["json"] == {"reason": "idle"}
    stream.close()
    status, _ = server.json("GET", f"/api/sessions/{room['session']}")
    assert status == 404
    assert question["id"] == 1


def test_answers_are_rate_limited_per_student(playground):
    room = open_room(playground)
    key = join(playground, room["code"], "Ada")["studentKey"]
    question = ask(playground, room["room"], room["teacherKey"], stream="out", frames=8)
    statuses = [answer(playground, room["room"], key, question["id"], "-" * (n % 8))[0] for n in range(40)]
    assert statuses.count(200) >= 20 and 429 in statuses, statuses


def test_a_student_takes_the_room_home_and_the_room_ends(playground):
    room = open_room(playground, {"scenario": "search"})
    rid, teacher = room["room"], room["teacherKey"]
    key = join(playground, room["code"], "Ada")["studentKey"]
    playground.json("POST", f"/api/rooms/{rid}/inputs/query", "swift", bearer(teacher))
    playground.json("POST", f"/api/rooms/{rid}/inputs/advance", "1000", bearer(teacher))
    status, home = playground.json("POST", f"/api/rooms/{rid}/home", None, bearer(key))
    assert status == 201, home
    watch = playground.watch(f"/api/sessions/{home['session']}/events?since=0")
    watch.wait_for(lambda events: "swift" in watch.values("throttled"))
    # Her copy is hers to drive, on a virtual clock where the room's was.
    status, _ = playground.json("POST", f"/api/sessions/{home['session']}/inputs/query", "swiftui")
    assert status == 202
    deadline = time.monotonic() + 5  # the copy's thread runs the replayed steps in its turn: polled
    while (info := playground.json("GET", f"/api/sessions/{home['session']}")[1])["virtualTime"] < 1000 and time.monotonic() < deadline:
        pass
    assert info["clock"] == "virtual" and info["virtualTime"] == 1000, info
    watch.close()
    stream = room_events(playground, rid, key=key)
    stream.wait_for(lambda events: len(events) == 1)
    status, _, text = playground.request("GET", "/metrics")
    metrics = text.decode()
    assert re.search(r"^playground_rooms 1", metrics, re.M) and re.search(r"^playground_room_students 1", metrics, re.M), metrics
    status, _ = playground.json("DELETE", f"/api/rooms/{rid}", None, bearer(teacher))
    assert status == 204
    stream.wait_for(lambda events: events[-1].get("event") == "end")
    assert stream.events[-1]["json"] == {"reason": "ended"}
    stream.close()
    status, body = playground.json("GET", f"/api/rooms/{rid}", None, bearer(teacher))
    assert (status, body["error"]["code"]) == (404, "unknown_room")
    status, _ = playground.json("GET", f"/api/sessions/{home['session']}")
    assert status == 200, "what a student took home is theirs"


def test_draining_ends_rooms_with_an_end_event(make_playground):
    server = make_playground()
    room = open_room(server)
    stream = room_events(server, room["room"], key=room["teacherKey"])
    stream.wait_for(lambda events: len(events) == 1)
    server.stop()
    stream.wait_for(lambda events: events[-1].get("event") == "end")
    assert stream.events[-1]["json"] == {"reason": "draining"}
    stream.close()



def test_an_instance_behind_a_proxy_starts_its_codes_with_its_own_character(make_playground):
    """Behind nginx (deploy/nginx.conf), `POST /api/join/CODE` goes to the instance whose
    `--room-code-prefix` is the code's first character."""
    server = make_playground("--room-code-prefix", "R", "--instance-id", "red")
    codes = {open_room(server, {"scenario": "search"})["code"][0] for _ in range(5)}
    assert codes == {"R"}
    room = open_room(server)
    assert room["room"].startswith("red.")
    join(server, room["code"], "Ada")


def test_a_room_follows_a_course_lesson_by_lesson(playground):
    course = {"kind": "course", "title": "Monday", "content": json.dumps({"lessons": ["reading-marbles", "filtering"]})}
    status, link = playground.json("POST", "/api/links", json.dumps(course), {"Content-Type": "application/json"})
    assert status == 201, link
    room = open_room(playground, {"course": link["id"]})
    rid, teacher = room["room"], room["teacherKey"]
    key = join(playground, room["code"], "Ada")["studentKey"]
    status, view = playground.json("GET", f"/api/rooms/{rid}", None, bearer(teacher))
    assert view["title"] == "Monday" and view["course"]["current"] == 0
    assert [lesson["id"] for lesson in view["course"]["lessons"]] == ["reading-marbles", "filtering"]
    assert view["suggested"] == {"stream": "out", "frames": 8}
    ask(playground, rid, teacher, stream="out", frames=8)
    stream = room_events(playground, rid, key=key)
    stream.wait_for(lambda events: len(events) == 1)
    for body, code in (({"index": 2}, "invalid_value"), ({"index": -1}, "invalid_value"), ({}, "invalid_value")):
        status, error = playground.json("POST", f"/api/rooms/{rid}/lesson", json.dumps(body), bearer(teacher))
        assert (status, error["error"]["code"]) == (400, code), body
    status, error = playground.json("POST", f"/api/rooms/{rid}/lesson", json.dumps({"index": 1}), bearer(key))
    assert (status, error["error"]["code"]) == (403, "teacher_only")
    status, moved = playground.json("POST", f"/api/rooms/{rid}/lesson", json.dumps({"index": 1}), bearer(teacher))
    assert status == 200, moved
    assert moved["course"]["current"] == 1 and moved["session"] != room["session"] and "question" not in moved
    assert moved["origin"] == {"kind": "lesson", "id": "filtering"}
    # Everyone follows: the student's stream shows the new lesson's session; the old one is gone.
    stream.wait_for(lambda events: latest(stream)["session"] == moved["session"])
    stream.close()
    status, _ = playground.json("GET", f"/api/sessions/{room['session']}")
    assert status == 404
    status, error = playground.json("POST", f"/api/rooms/{rid}/inputs/advance", "100", bearer(teacher))
    assert status == 202
    # A scenario's room follows no lesson; a lesson kept by a link opens a room too.
    single = open_room(playground, {"scenario": "search"})
    status, error = playground.json("POST", f"/api/rooms/{single['room']}/lesson", json.dumps({"index": 0}), bearer(single["teacherKey"]))
    assert (status, error["error"]["code"]) == (409, "no_course")
    status, lesson = playground.json("GET", "/lessons/02-filtering.json")
    kept = {"kind": "lesson", "title": "Filtering, again", "content": json.dumps(lesson)}
    status, lesson_link = playground.json("POST", "/api/links", json.dumps(kept), {"Content-Type": "application/json"})
    assert status == 201, lesson_link
    from_link = open_room(playground, {"lesson": lesson_link["id"]})
    status, view = playground.json("GET", f"/api/rooms/{from_link['room']}", None, bearer(from_link["teacherKey"]))
    assert view["origin"] == {"kind": "lesson", "id": lesson_link["id"]} and "course" in view
    for source, code in (({"course": "23456789abcdefgh"}, "invalid_value"), ({"course": lesson_link["id"]}, "invalid_value")):
        status, error = playground.json("POST", "/api/rooms", json.dumps({"from": source}), {"Content-Type": "application/json"})
        assert (status, error["error"]["code"]) == (400, code), source


def test_the_teacher_removes_a_student_and_closes_the_door(playground):
    """A room's seats are the class's: the teacher takes out a name that does not belong (its key
    then opens nothing, its answer leaves the counts, its stream ends) and closes the room to
    newcomers; a class behind one address shares no per-address limit on joining, so this is how a
    teacher keeps it theirs."""
    room = open_room(playground)
    rid, teacher = room["room"], room["teacherKey"]
    ada = join(playground, room["code"], "Ada")["studentKey"]
    troll = join(playground, room["code"], "Not Ada")["studentKey"]
    question = ask(playground, rid, teacher, stream="out", frames=8)
    for key in (ada, troll):
        status, _ = answer(playground, rid, key, question["id"], "----b-c|")
        assert status == 200
    stream = room_events(playground, rid, key=troll)
    stream.wait_for(lambda events: len(events) == 1)
    # The room's diagram, watched through the room with the student's key: removed, it ends too.
    diagram = playground.watch(f"/api/rooms/{rid}/session/events?since=0", None, bearer(troll))
    assert diagram.status == 200
    playground.json("POST", f"/api/rooms/{rid}/inputs/advance", "100", bearer(teacher))
    diagram.wait_for(lambda events: len(events) >= 1)
    for number, status_code in (("2", 204), ("2", 404), ("99", 404), ("x", 404), ("9" * 30, 404)):
        status, _, _ = playground.request("DELETE", f"/api/rooms/{rid}/students/{number}", None, bearer(teacher))
        assert status == status_code, number
    stream.wait_for(lambda events: events[-1].get("event") == "end")
    assert stream.events[-1]["json"] == {"reason": "removed"}
    stream.close()
    assert stream_ends(diagram), "the removed student's diagram stream is closed"
    again = playground.watch(f"/api/rooms/{rid}/session/events?since=0", None, bearer(troll))
    assert again.status == 403, "and cannot be opened again"
    again.close()
    status, body = playground.json("GET", f"/api/sessions/{room['session']}/events")
    assert (status, body["error"]["code"]) == (403, "room_session"), "nor through the session's own path"
    status, body = answer(playground, rid, troll, question["id"], "-")
    assert (status, body["error"]["code"]) == (403, "wrong_key")
    status, view = playground.json("GET", f"/api/rooms/{rid}", None, bearer(teacher))
    assert view["students"] == 1 and view["class"]["answered"] == 1 and view["class"]["right"] == 1
    status, body = playground.json("DELETE", f"/api/rooms/{rid}/students/1", None, bearer(ada))
    assert (status, body["error"]["code"]) == (403, "teacher_only")
    # The door closed: nobody new joins; opened again, they do.
    status, view = playground.json("POST", f"/api/rooms/{rid}/lock", json.dumps({"locked": True}), bearer(teacher))
    assert status == 200 and view["locked"] is True
    status, body = playground.json("POST", f"/api/join/{room['code']}", json.dumps({"name": "Late"}))
    assert (status, body["error"]["code"]) == (409, "room_locked")
    status, body = playground.json("POST", f"/api/rooms/{rid}/lock", json.dumps({"locked": "yes"}), bearer(teacher))
    assert (status, body["error"]["code"]) == (400, "invalid_value")
    playground.json("POST", f"/api/rooms/{rid}/lock", json.dumps({"locked": False}), bearer(teacher))
    join(playground, room["code"], "Late")
