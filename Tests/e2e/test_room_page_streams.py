"""A room's streams in Chromium (docs/API.md, "Rooms"): the room's session is watched through the
room (`/api/rooms/{rid}/session/events`, the room's cookie), never by the session's id; a student's
page whose cookie is gone (as when it expires) keeps following the room once its streams drop — it
sets the cookie again with its key and reopens them from the last event it had; a student the
teacher takes out is told so, by the room panel and by the diagram's own stream, and after a reload.

The streams are dropped for real: the student's browser reaches the server through a TCP relay
that cuts every open connection, as a proxy or a network does (DevTools' offline emulation and the
server's idle timeout leave an open EventSource alone)."""
import json
import re
import socket
import threading

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from conftest import new_browser
from test_lessons import axe_clean
from test_page import wait
from test_room_page import element, text_of


class Relay:
    """A TCP relay to `port` on the loopback: a browser that loads the page from `url` sends every
    request through it, and `cut()` closes every connection open at the time (new ones still pass)."""

    def __init__(self, port):
        self.upstream = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.lock = threading.Lock()
        self.open = set()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            try:
                server = socket.create_connection(("127.0.0.1", self.upstream))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open.update((client, server))
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    def _pump(self, source, target):
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        for end in (source, target):
            self._close(end)

    def _close(self, end):
        try:
            end.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        end.close()
        with self.lock:
            self.open.discard(end)

    def cut(self):
        """Closes every open connection; answers how many there were."""
        with self.lock:
            ends = list(self.open)
        for end in ends:
            self._close(end)
        return len(ends)

    def close(self):
        self.listener.close()
        self.cut()


def open_room(teacher, url):
    teacher.get(f"{url}/#teach")
    wait(teacher, lambda: element(teacher, "room-from").is_displayed())
    Select(element(teacher, "room-from")).select_by_value("lesson:reading-marbles")
    teacher.find_element(By.CSS_SELECTOR, ".room-form button[type=submit]").click()
    wait(teacher, lambda: teacher.find_elements(By.CSS_SELECTOR, ".room-code-value"))
    wait(teacher, lambda: element(teacher, "connection").text == "Live")
    room = teacher.execute_script("return location.hash").removeprefix("#teach/")
    return room, teacher.find_element(By.CSS_SELECTOR, ".room-code-value").text


def join(student, url, code, name):
    student.get(f"{url}/#join/{code}")
    wait(student, lambda: element(student, "join-name").is_displayed())
    element(student, "join-name").send_keys(name, Keys.ENTER)
    wait(student, lambda: "Wait for your teacher's question" in element(student, "room").text)
    wait(student, lambda: element(student, "connection").text == "Live")


def room_cookies(browser, room):
    """The room's cookies the browser holds (its path is the room's, so WebDriver's cookies, the
    page's, do not list it: DevTools does)."""
    return [cookie["name"] for cookie in browser.execute_cdp_cmd("Storage.getCookies", {})["cookies"]
            if cookie["path"] == f"/api/rooms/{room}/"]


def logged(browser):
    """The numbers of the events in the page's event log, oldest first."""
    return [int(re.match(r"#(\d+)", entry.text).group(1)) for entry in reversed(browser.find_elements(By.CSS_SELECTOR, "#log .log-entry"))]


def room_key(browser, room):
    """The key this browser holds for `room` (the page keeps it in local storage)."""
    return json.loads(browser.execute_script("return localStorage.getItem('playground.rooms')"))[room]["key"]


def advance(teacher, to):
    """Steps the room's clock by 100 ms at a time up to `to` ms. The lesson's `a` is `-a--b-c|` in
    frames of 100 ms: it sends at 100, 400 and 600 ms, and ends at 700."""
    now = int(element(teacher, "virtual-time").text.split()[0])
    for step in range(now + 100, to + 1, 100):
        element(teacher, "advance-100").click()
        wait(teacher, lambda: element(teacher, "virtual-time").text == f"{step} ms")


def ask(teacher):
    element(teacher, "ask-frames").clear()
    element(teacher, "ask-frames").send_keys("8")
    teacher.find_element(By.CSS_SELECTOR, ".room-ask button[type=submit]").click()
    wait(teacher, lambda: teacher.find_elements(By.ID, "room-reveal"))


def check_console(browser, expected=()):
    """No errors in the console but the network's, for `expected` addresses (a cut stream, a 401)."""
    errors = [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")
              and not (entry.get("source") == "network" and any(path in entry["message"] for path in expected))]
    assert not errors, errors


def test_a_students_page_follows_the_room_after_its_cookie_is_gone(playground):
    relay = Relay(playground.port)
    teacher, student = new_browser(), new_browser()
    try:
        room, code = open_room(teacher, playground.url)
        join(student, relay.url, code, "Ada")
        advance(teacher, 100)
        wait(student, lambda: element(student, "virtual-time").text == "100 ms")

        # The cookie goes, as when it expires; then the connections drop and the browser reconnects
        # without it: the server answers 401, which closes an EventSource for good.
        assert room_cookies(student, room) == ["room_student"]
        student.execute_cdp_cmd("Network.deleteCookies", {"name": "room_student", "url": f"{relay.url}/api/rooms/{room}/"})
        assert room_cookies(student, room) == []
        assert relay.cut() >= 2, "the room's stream and its session's were open"
        wait(student, lambda: element(student, "connection").text.startswith("Reconnecting"))

        # The page sets the cookie again with its key and reopens both streams.
        wait(student, lambda: element(student, "connection").text == "Live", timeout=20)
        wait(student, lambda: room_cookies(student, room) == ["room_student"])
        assert text_of(student, "room-link") == ""
        advance(teacher, 400)
        wait(student, lambda: element(student, "virtual-time").text == "400 ms")
        ask(teacher)
        wait(student, lambda: student.find_elements(By.ID, "room-answer"), timeout=20)
        element(teacher, "room-reveal").click()
        wait(student, lambda: text_of(student, "room-verdict").endswith("you did not answer."))
        # The diagram's stream resumed after the last event it had: nothing drawn twice, nothing missed.
        wait(student, lambda: logged(student) == logged(teacher))
        assert len(set(logged(student))) == len(logged(student))
        check_console(student, expected=(f"/api/rooms/{room}/events", f"/api/rooms/{room}/session/events"))
        check_console(teacher)
    finally:
        for browser in (teacher, student):
            browser.quit()
        relay.close()


def test_the_room_diagram_is_watched_through_the_room_and_ends_for_a_removed_student(playground):
    teacher, student = new_browser(), new_browser()
    try:
        room, code = open_room(teacher, playground.url)
        join(student, playground.url, code, "Ada")
        status, state = playground.json("GET", f"/api/rooms/{room}", headers={"Authorization": f"Bearer {room_key(teacher, room)}"})
        assert status == 200, state
        # The session's own routes refuse the room's session: the page watches it through the room.
        status, body = playground.json("GET", f"/api/sessions/{state['session']}")
        assert (status, body["error"]["code"]) == (403, "room_session"), body
        advance(teacher, 100)
        wait(student, lambda: element(student, "virtual-time").text == "100 ms")
        wait(student, lambda: logged(student) and logged(student) == logged(teacher))
        assert student.find_elements(By.CSS_SELECTOR, ".lanes-svg .glyph"), "the student's diagram draws the room's events"
        # Its marbles link is the room's too, and opens with the student's cookie.
        marbles = element(student, "marbles-link").get_attribute("href")
        assert marbles.endswith(f"/api/rooms/{room}/session/marbles?as=student"), marbles
        answer = student.execute_async_script(
            "const [url, done] = arguments; fetch(url).then(async (r) => done([r.status, await r.text()]))", marbles)
        assert answer[0] == 200 and "out" in answer[1], answer

        # The teacher takes Ada out: the room panel and the diagram's stream both end, and say why.
        teacher.find_element(By.XPATH, "//button[text()='Show names']").click()
        wait(teacher, lambda: "Ada" in text_of(teacher, "room-names"))
        teacher.find_element(By.CSS_SELECTOR, "#room-names button[aria-label='Remove Ada from the room']").click()
        teacher.switch_to.alert.accept()  # Remove asks first (test_room_seats.py)
        wait(student, lambda: text_of(student, "room-title") == "You have left the room")
        wait(student, lambda: element(student, "connection").text == "Disconnected", timeout=20)
        wait(student, lambda: "You are no longer in the room: the teacher took you out of it." in text_of(student, "notice"))
        assert element(student, "notice").get_attribute("role") == "alert"
        seen = logged(student)
        advance(teacher, 400)
        wait(teacher, lambda: len(logged(teacher)) > len(seen))
        assert logged(student) == seen, "a removed student's diagram stream is closed"
        axe_clean(student)

        # After a reload the page says so again, in place of the room.
        student.refresh()
        wait(student, lambda: text_of(student, "room-title") == "You have left the room")
        assert "the teacher took you out of it" in element(student, "room").text
        axe_clean(student)
        check_console(student, expected=(f"/api/rooms/{room}",))
        check_console(teacher)
    finally:
        teacher.quit()
        student.quit()
