#!/usr/bin/env bash
# One room with 1,000 students on one instance (issue "Teach a class here"), beside the same
# fan-out on microhttp-echo in the same run, on loopback:
#   room   Benchmarks/load/roomload.py against a release playground: 1,000 students each holding
#          the room's session stream and its snapshot stream; the teacher's 100 inputs at 20/s to
#          every student (p99 goal 100 ms); the question to every student; 1,000 answers within
#          one second, and the teacher's view with all of them (goal: within 250 ms of the last);
#          RSS per student;
#   echo   Benchmarks/load/loadtest.py fanout against microhttp-echo: 1,000 watchers, 100 events at
#          20/s, as run-server-benchmarks.sh measures it.
# Each figure is the median round of 3 (by the steps' p99, and by p99 for echo); a round in which
# other processes used more than 10 % of a core is repeated. The load tool shares the machine's
# cores with the server.
# Usage: Benchmarks/run-room-benchmarks.sh [students]
set -euo pipefail
cd "$(dirname "$0")/.."
students=${1:-1000}
swift build -c release --product playground >/dev/null
swift build -c release --product microhttp-echo >/dev/null
source Benchmarks/lib.sh
ulimit -n "$(ulimit -Hn)"
results=$(mktemp)

quiet() { # a JSON result line: whether other processes stayed under a tenth of a core
  python3 -c 'import json,sys; r=json.loads(sys.argv[1]); sys.exit(0 if r["cpu"]["others_cpu_share_of_core"] <= 0.10 else 1)' "$1"
}

accepted=0
while ((accepted < 3)); do
  start_playground room --room-students "$students" --join-burst "$students"  # every student from one address
  result=$(python3 Benchmarks/load/roomload.py --port "$room_port" --server-pid "$room_pid" --students "$students")
  stop_playgrounds
  started_playgrounds=()
  if quiet "$result"; then
    echo "room $result" >>"$results"
    accepted=$((accepted + 1))
  else
    echo "  (room round repeated: other processes were busy)" >&2
  fi
done

port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
.build/release/microhttp-echo --port "$port" --public Benchmarks/load/static --keep-alive-seconds 2 >/dev/null 2>&1 &
echo_pid=$!
trap 'kill $echo_pid 2>/dev/null || true; stop_playgrounds' EXIT
for _ in $(seq 1 100); do curl -fs "127.0.0.1:$port/index.html" >/dev/null && break; sleep 0.05; done
accepted=0
while ((accepted < 3)); do
  result=$(python3 Benchmarks/load/loadtest.py fanout --target echo --port "$port" --server-pid "$echo_pid" \
    --watchers "$students" --inputs 100 --rate 20)
  if quiet "$result"; then
    echo "echo $result" >>"$results"
    accepted=$((accepted + 1))
  else
    echo "  (echo round repeated: other processes were busy)" >&2
  fi
done

python3 - "$results" <<'PY'
import json, sys
rooms, echoes = [], []
for line in open(sys.argv[1]):
    kind, _, text = line.partition(" ")
    (rooms if kind == "room" else echoes).append(json.loads(text))
median = lambda rounds, key: sorted(rounds, key=key)[len(rounds) // 2]
room = median(rooms, lambda r: r["steps"]["latency_ms"]["p99"])
echo = median(echoes, lambda r: r["latency_ms"]["p99"])
steps, answers = room["steps"], room["answers"]
print("| figure | playground room | microhttp-echo | goal | met? |")
print("| --- | --- | --- | --- | --- |")
print(f"| fan-out to {room['students']} students: p50 / p99 / max | {steps['latency_ms']['p50']} / {steps['latency_ms']['p99']} / "
      f"{steps['latency_ms']['max']} ms | {echo['latency_ms']['p50']} / {echo['latency_ms']['p99']} / {echo['latency_ms']['max']} ms | "
      f"p99 at most 100 ms | {'yes' if steps['latency_ms']['p99'] <= 100 else '**no**'} |")
print(f"| events lost | {steps['lost']} of {steps['expected']} | {echo['lost']} of {echo['expected']} | none | "
      f"{'yes' if steps['lost'] == 0 else '**no**'} |")
q = room["question_reached_ms"]
print(f"| a question to every student: p50 / p99 / max | {q['p50']} / {q['p99']} / {q['max']} ms ({room['question_missed']} missed; "
      f"the teacher's POST answered in {room['question_posted_ms']} ms) | | | |")
print(f"| {answers['sent']} answers in {answers['seconds']} s: refused | {answers['refused']} | | none | {'yes' if answers['refused'] == 0 else '**no**'} |")
after = answers["teacher_view_after_last_ms"]
print(f"| the teacher's view with every answer, after the last | {after} ms ({answers['teacher_snapshots']} snapshots) | | within 250 ms | "
      f"{'yes' if after is not None and after <= 250 else '**no**'} |")
print(f"| RSS per student (two streams, a key, a place) | {room['kib_per_student']} KiB | | | |")
print()
print("rounds (steps p99, teacher's view after the last answer, KiB per student):",
      [(r["steps"]["latency_ms"]["p99"], r["answers"]["teacher_view_after_last_ms"], r["kib_per_student"]) for r in rooms])
PY
