"""Links across instances (deploy/check.sh runs it after deploy/check.py): a link kept through one
instance opens through another and through nginx, and the same content kept through the other is
the same link; then, with PostgreSQL stopped, an instance started anew serves everything but links
(a session made and driven; links 503 `storage_unavailable` at once) and keeps links again once
PostgreSQL is back, without a restart. Standard library only. Prints what it saw, and a JSON
summary last; exits 1 at the first check that fails."""
import argparse
import json
import subprocess
import time

from check import fail, request

PROGRAM = "input query: text\nthrottled = query.throttle(0.5s)\nkept = just(\"across instances\")\n"


def address(text):
    host, _, port = text.rpartition(":")
    return host, int(port)


def keep(where, title, content=PROGRAM):
    body = json.dumps({"kind": "program", "title": title, "content": content}).encode()
    began = time.monotonic()
    status, answer = request(*where, "POST", "/api/links", body=body, headers={"Content-Type": "application/json"})
    return status, json.loads(answer) if answer else None, time.monotonic() - began


def keep_once_it_answers(where, title, timeout=60):
    """Keeps a link through `where`, trying again while PostgreSQL is not accepting connections yet
    (it takes a moment after its start); answers the link and the seconds it took."""
    began = time.monotonic()
    while True:
        status, answer, _ = keep(where, title)
        if status in (200, 201):
            return answer, time.monotonic() - began
        if time.monotonic() - began > timeout:
            fail(f"no link kept through {where} within {timeout} s: {status} {answer}")
        time.sleep(0.5)


def answers_health(where):
    try:
        return request(*where, "GET", "/healthz")[0] == 200
    except OSError:
        return False  # not listening yet


def run(command):
    if subprocess.run(command, shell=True).returncode != 0:
        fail(f"'{command}' failed")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep-through", type=address, required=True, help="HOST:PORT of the instance that keeps the link")
    parser.add_argument("--read-through", type=address, required=True, help="HOST:PORT of another instance")
    parser.add_argument("--proxy", type=address, required=True, help="HOST:PORT of nginx")
    parser.add_argument("--stop-database", required=True)
    parser.add_argument("--start-database", required=True)
    parser.add_argument("--restart-reader", required=True, help="restarts the --read-through instance")
    args = parser.parse_args()
    summary = {}

    link, _ = keep_once_it_answers(args.keep_through, "Across instances")
    for name, where in (("another instance", args.read_through), ("nginx", args.proxy)):
        status, body = request(*where, "GET", f"/api/links/{link['id']}")
        if status != 200 or json.loads(body)["content"] != PROGRAM:
            fail(f"reading {link['id']} through {name}: {status} {body[:200]!r}")
    status, again, _ = keep(args.read_through, "Across instances")
    if status != 200 or again["id"] != link["id"]:
        fail(f"the same content kept through another instance: {status} {again}")
    print(f"link {link['url']} kept through one instance opens through another and nginx; kept again there: the same id", flush=True)
    summary["link_across_instances"] = True

    run(args.stop_database)
    run(args.restart_reader)
    reader = args.read_through
    for _ in range(100):
        if answers_health(reader):
            break
        time.sleep(0.2)
    else:
        fail("the instance restarted while PostgreSQL is down does not answer /healthz")
    status, body = request(*reader, "POST", "/api/scenarios/search/sessions")
    if status != 201:
        fail(f"a session on the instance started while PostgreSQL is down: {status} {body[:200]!r}")
    session = json.loads(body)["session"]
    status, _ = request(*reader, "POST", f"/api/sessions/{session}/inputs/query", body=b"rx", headers={"Content-Type": "text/plain"})
    if status != 202:
        fail(f"an input to {session}: {status}")
    status, answer, seconds = keep(reader, "While the database is down")
    if status != 503 or answer["error"]["code"] != "storage_unavailable" or seconds > 1:
        fail(f"keeping a link while PostgreSQL is down: {status} {answer} in {seconds:.2f} s")
    print(f"PostgreSQL stopped, an instance started anew: a session made and driven; a link 503 "
          f"storage_unavailable in {seconds * 1000:.0f} ms", flush=True)
    summary["down"] = {"session": 201, "link_status": status, "link_ms": round(seconds * 1000)}

    run(args.start_database)
    _, back = keep_once_it_answers(reader, "After the database came back")
    status, body = request(*reader, "GET", f"/api/links/{link['id']}")
    if status != 200:
        fail(f"the first link after PostgreSQL came back: {status}")
    print(f"PostgreSQL back: links kept again through the same instance after {back:.1f} s, no restart", flush=True)
    summary["recovered_after_s"] = round(back, 1)
    print(json.dumps(summary, sort_keys=True), flush=True)


if __name__ == "__main__":
    main()
