"""The hostile-values corpus: programs of a few hundred bytes that would make values, or work,
grow past any bound if nothing measured them, one or more per class (docs/PIPELINES.md, "The step
budget"). The end-to-end tests post them (Tests/e2e/test_hostile_values.py) and so does the
benchmark (hostile_programs.py)."""
import json


def doubling(seed, times):
    """A stream whose last value is `seed` doubled `times` times (by scan)."""
    numbers = ",".join(str(n) for n in range(1, times + 1))
    return f"s = from([{numbers}]).scan({json.dumps(seed, ensure_ascii=False)}) {{ a, _ in a + a }}.takeLast(1)\n"


TEN = "[x,x,x,x,x,x,x,x,x,x]"

# One program per class the issue names, and variants: each makes values that would grow past
# any bound if nothing measured them, or work that would hold the program thread for long.
REPRODUCERS = {
    "nested shared arrays (a3)": doubling("x", 16) + "".join(
        f"a{i} = {'s' if i == 1 else f'a{i - 1}'}.map {{ x in {TEN} }}\n" for i in range(1, 4)),
    "nested shared arrays (a5)": doubling("x", 12) + "".join(
        f"a{i} = {'s' if i == 1 else f'a{i - 1}'}.map {{ x in {TEN} }}\n" for i in range(1, 6)),
    "combining marks": "s = from([" + ",".join(str(n) for n in range(1, 25)) + "]).scan(\""
                       + "\u0301" * 1000 + "\") { a, _ in a + a }\n",
    "emoji clusters": doubling("👩‍👩‍👧🇸🇪", 20),
    "work, not values": "x = just(1).repeat().scan([]) { a, v in a + [v] }\n",
    "interpolation": "s = from([" + ",".join(str(n) for n in range(1, 30)) + "]).scan(\"ab\") { a, _ in \"\\(a)\\(a)\" }\n",
    "shared objects": "s = from([" + ",".join(str(n) for n in range(1, 40)) + "]).scan([\"k\": 1]) { a, _ in [\"l\": a, \"r\": a] }\n",
    "a tuple of combineLatest": doubling("x", 15) + "c = s.combineLatest(with: s)\nz = s.zip(with: s)\n",
    "collect": doubling("x", 10) + "c = s.repeat().take(1000).collect()\n",
    "buffer": "b = interval(10ms).map { v in \"" + "y" * 2000 + "\" + \"\\(v)\" }.buffer(every: 1s).take(2)\n",
    "a value written into a string": doubling("x", 12) + "a = s.map { x in [x,x,x,x,x,x,x,x,x,x] }\nt = a.map { \"\" + $0 + $0 }\n",
    "uppercased grows": "s = just(\"" + "\u0390" * 20000 + "\").map { $0.uppercased() }\n",
    "comparisons of large values": doubling("x", 15)
    + "w = s.flatMap(.merge) { v in just(v).repeat().map { $0 == v + \"\" } }\n",
    "concatenated strings": "x = just(\"abcdefgh\").repeat().scan(\"\") { a, v in a + v }\n",
    # Named streams are cold: each reader subscribes again, so reading twice per line doubles the
    # subscriptions (and timers) per line — 2^20 of them, if nothing counted them.
    "cold fan-out": "s0 = interval(10ms)\n" + "".join(f"s{i} = combineLatest(s{i - 1}, s{i - 1})\n" for i in range(1, 21)),
    "cold fan-out, wide": "s = interval(10ms).map { $0 }\n" + "w = combineLatest(" + ", ".join(["s"] * 100) + ")\n"
    + "v = combineLatest(" + ", ".join(["w"] * 100) + ")\n",
    # The background queue is shared by every program: a flood of work handed to it is charged to
    # the program that made it, on both threads.
    "work on the background queue": "x = just(1).repeat().deliver(on: background).scan([]) { a, v in a + [v] }\n",
    "subscriptions on the background queue": "x = just(1).subscribe(on: background).repeat().map { $0 + 1 }\n",
}


# Every way a program can keep its values: as events, replayed, delayed, buffered, kept for
# takeLast, queued by zip, and inside a flattening where no stage reports (and so costs) them.
BIG = "\"" + "q" * 59_990 + "\" + \"\\(v)\""  # 60,000 bytes, distinct each time (the number makes a new string)
HOLDERS = [
    f"x = interval(15ms).map {{ v in {BIG} }}{holder}\n"
    for holder in ["", ".replay()", ".delay(60min)", ".buffer(every: 60min)", ".takeLast(100000)", ".zip(with: never)"]
] + [f"x = interval(15ms).flatMap(.merge) {{ v in just({BIG}).delay(60min) }}\n"] * 14

# A program that must be answered correctly right after each of them.
BENIGN = 'a = marbles("-1-2-3|")\nb = a.map { $0 * 10 }\n'
