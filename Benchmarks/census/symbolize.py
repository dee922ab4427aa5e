"""Prints what alloc-sites.c wrote as a table: the allocations that every held stream keeps.

Usage: symbolize.py SITES_FILE BINARY STREAMS
A site whose live allocations number at least 90 % of STREAMS is one a stream keeps; each is
shown with its allocations and usable bytes per stream and the first frames that say where it
comes from (the server's own functions demangled, a library's by name).
"""
import os
import re
import subprocess
import sys

ALLOCATOR = ("swift_slowAlloc", "swift_allocObject", "swift_allocBox", "__strdup", "swift_weakAssign")


def parse(path):
    sites, maps, current = [], [], None
    for line in open(path):
        if line.startswith("site "):
            _, live, usable = line.split()
            current = {"live": int(live), "bytes": int(usable), "frames": []}
            sites.append(current)
        elif line.startswith("map "):
            maps.append(line[4:].split())
        elif current is not None and line.startswith("  "):
            address, _, name = line.strip().partition(" ")
            current["frames"].append((int(address, 16), name))
    return sites, maps


def load_base(maps, binary):
    real = os.path.realpath(binary)
    for fields in maps:
        if len(fields) >= 6 and os.path.realpath(fields[5]) == real and int(fields[2], 16) == 0:
            return int(fields[0].split("-")[0], 16)
    return None


def names_in_binary(addresses, binary, base):
    if base is None or not addresses:
        return {}
    ordered = sorted(addresses)
    # The return address is one past the call: look up the call itself.
    lines = subprocess.run(
        ["addr2line", "-f", "-e", binary] + [hex(a - base - 1) for a in ordered], capture_output=True, text=True
    ).stdout.splitlines()
    return dict(zip(ordered, demangle(lines[0::2])))


def demangle(symbols):
    if not symbols:
        return []
    lines = subprocess.run(
        ["swift", "demangle", "--simplified", "--compact"], input="\n".join(symbols), capture_output=True, text=True
    ).stdout.splitlines()
    return lines if len(lines) == len(symbols) else list(symbols)


def main():
    path, binary, streams = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sites, maps = parse(path)
    kept = [site for site in sites if site["live"] >= 0.9 * streams]
    base = load_base(maps, binary)
    program = os.path.basename(binary)
    in_binary = {address for site in kept for address, name in site["frames"] if program in name}
    names = names_in_binary(in_binary, binary, base)

    library_symbols = {
        match.group(1)
        for site in kept
        for _, name in site["frames"]
        if (match := re.search(r"\((\$s[^+)]*)", name))
    }
    demangled = dict(zip(sorted(library_symbols), demangle(sorted(library_symbols))))

    def describe(frames):
        words = []
        for address, name in frames:
            if program in name:
                word = names.get(address, "?").split(" @ ")[0]
            else:
                library = os.path.basename(name.split("(")[0])
                symbol = re.search(r"\(([^+)]*)", name)
                symbol = symbol.group(1) if symbol and symbol.group(1) else ""
                if symbol in ALLOCATOR:
                    if symbol == "__strdup":
                        words.append("strdup")
                    continue
                word = demangled.get(symbol, symbol) or library
            if words and words[-1] == word:
                continue  # a library's unnamed frames, one after the other
            words.append(word)
            if len(words) == 3:
                break
        return " ← ".join(word[:90] for word in words)

    print("| allocations per stream | usable bytes per stream | where (innermost first) |")
    print("| --- | --- | --- |")
    total_count = total_bytes = 0
    for site in sorted(kept, key=lambda s: -s["bytes"]):
        count, usable = site["live"] / streams, site["bytes"] / streams
        total_count += count
        total_bytes += usable
        print(f"| {count:.1f} | {usable:.0f} | {describe(site['frames'])} |")
    print(f"| **{total_count:.1f}** | **{total_bytes:.0f}** | every site kept by at least 90 % of {streams} streams |")


if __name__ == "__main__":
    main()
