-- wrk's script for Benchmarks/run-link-benchmarks.sh: `-- save RUN` keeps new programs
-- (POST /api/links, every body new: the run's number, the thread's and a counter), `-- load FILE`
-- reads the links whose ids FILE lists (GET /api/links/{id}). Each request comes from one of 25
-- addresses a thread (X-Forwarded-For; the server runs with --trust-proxy): consecutive requests
-- take consecutive addresses, so no address has more than one request in flight at once.
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

function init(args)
  mode, argument = args[1], args[2]
  counter = 0
  if mode == "load" then
    ids = {}
    for line in io.lines(argument) do ids[#ids + 1] = line end
  end
end

function request()
  counter = counter + 1
  local headers = { ["X-Forwarded-For"] = string.format("10.1.%d.%d", tid, counter % 25 + 1) }
  if mode == "load" then
    return wrk.format("GET", "/api/links/" .. ids[(counter * 7 + tid) % #ids + 1], headers)
  end
  headers["Content-Type"] = "application/json"
  local body = string.format(
    '{"kind": "program", "title": "Load %d.%d", "content": "input query: text\\nthrottled = query.throttle(0.5s)\\nrun = just(%s)\\nn = just(%d)\\n"}',
    tid, counter, argument, tid * 10000000 + counter)
  return wrk.format("POST", "/api/links", headers, body)
end
