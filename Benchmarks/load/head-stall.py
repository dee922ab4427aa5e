"""Reproduces a stall of the server seen by e2e test
test_the_connections_of_vanished_watchers_are_freed_without_another_request: crowds of 4 x 500
watchers open at once on a search session's event stream; now and then a whole batch gets its
response heads seconds late (3.9 s, once more than 30 s) although the connections were accepted
at once. When a batch takes over 3 s, the server's threads are dumped with gdb to
/tmp/stall-bt.txt. The cause, found with it: libmicrohttpd's internal polling thread, after
fetching exactly 128 epoll events, waited again with the full timeout before handling them (see
Sources/MicroHTTP/PollingLoop.swift). Kept to check that no stall comes back: 60 rounds with
every batch under 0.3 s since the server runs its own loop.

Usage: python3 Benchmarks/load/head-stall.py PATH_TO_PLAYGROUND ROUNDS
"""
import asyncio, json, subprocess, sys, time, re, urllib.request, resource, threading, os
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
binary = sys.argv[1]
proc = subprocess.Popen([binary, "--port", "18191", "--ticker-interval-ms", "100", "--throttle-ms", "150", "--service-latency-ms", "200"], stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
time.sleep(1.5)
sid = json.load(urllib.request.urlopen(urllib.request.Request("http://127.0.0.1:18191/api/scenarios/search/sessions", method="POST")))["session"]
path = f"/api/sessions/{sid}/events"
dumped = [False]
def dump():
    if dumped[0]: return
    dumped[0] = True
    out = subprocess.run(["gdb", "-p", str(proc.pid), "-batch", "-ex", "thread apply all bt 12"], capture_output=True, text=True).stdout
    open("/tmp/stall-bt.txt", "w").write(out)
    print("DUMPED backtraces", flush=True)
async def watcher():
    t0 = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", 18191)
    t1 = time.monotonic()
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    try:
        await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
    except Exception:
        return writer, 99.0, t1 - t0
    return writer, time.monotonic() - t0, t1 - t0
async def streams():
    reader, writer = await asyncio.open_connection("127.0.0.1", 18191)
    writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    metrics = (await asyncio.wait_for(reader.read(), 5)).decode()
    writer.close()
    return int(re.search(r"^microhttp_open_sse_streams (\d+)(?:\.0)?\r?$", metrics, re.M).group(1))
async def watchdog(start):
    while True:
        await asyncio.sleep(0.5)
        if time.monotonic() - start[0] > 3 and start[1]:
            threading.Thread(target=dump).start(); return
async def crowd():
    ws = []; lat = []; con = []
    for _ in range(4):
        start = [time.monotonic(), True]
        dog = asyncio.create_task(watchdog(start))
        r = await asyncio.gather(*[watcher() for _ in range(500)])
        start[1] = False; dog.cancel()
        ws += [w for w, _, _ in r]; lat += [l for _, l, _ in r]; con += [c for _, _, c in r]
    await asyncio.sleep(0.5)
    for w in ws: w.close()
    deadline = time.monotonic() + 3
    while await streams() > 0 and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return max(lat), max(con)
for i in range(int(sys.argv[2])):
    m, c = asyncio.run(crowd())
    print(f"round {i}: max head latency {m:.2f}s, max connect {c:.2f}s", flush=True)
proc.terminate()
