#!/usr/bin/env python3
"""Regenerates Sources/Scenarios/SearchData/language-names.txt, the search scenario's data set:
the English names of the ISO 639-3 languages from Debian's iso-codes package (LGPL-2.1+; its
licence and source are in that folder's README.md and LICENSE-LGPL-2.1).

Usage: apt-get install iso-codes && scripts/generate-search-data.py
"""
import json
from pathlib import Path

SOURCE = Path("/usr/share/iso-codes/json/iso_639-3.json")
TARGET = Path(__file__).resolve().parent.parent / "Sources/Scenarios/SearchData/language-names.txt"

entries = json.loads(SOURCE.read_text(encoding="utf-8"))["639-3"]
names = sorted({entry["name"].strip() for entry in entries if entry.get("name", "").strip()}, key=str.casefold)
assert all("\n" not in name for name in names)
version = "unknown"
changelog = Path("/usr/share/doc/iso-codes/changelog.Debian.gz")
try:
    import gzip
    version = gzip.open(changelog, "rt").readline().split("(")[1].split(")")[0]
except (OSError, IndexError):
    pass

TARGET.parent.mkdir(parents=True, exist_ok=True)
TARGET.write_text("\n".join(names) + "\n", encoding="utf-8")
print(f"wrote {len(names)} names (iso-codes {version}) to {TARGET}; update the version in its README.md")
