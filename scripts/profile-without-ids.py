#!/usr/bin/env python3
"""Prints a profile JSON with every path id replaced by the path it names (its blocks and end),
paths and k-IPF entries sorted: two profiles of one run that differ only in their numbering
(which id each path got) print the same. Used by compare-profiles.sh with IDS=ignore.

Usage: scripts/profile-without-ids.py PROFILE.json
"""
import json
import sys


def named(paths_by_id, i):
    p = paths_by_id.get(i)
    return [p["blocks"], p["end"]] if p is not None else ["unknown id", i]


def main():
    with open(sys.argv[1]) as f:
        profile = json.load(f)
    for func in profile.get("functions", []):
        by_id = {p["id"]: p for p in func.get("paths", [])}
        for key, value in list(func.items()):
            if key == "paths":
                func[key] = sorted(
                    ({k: v for k, v in p.items() if k != "id"} for p in value),
                    key=lambda p: json.dumps(p, sort_keys=True),
                )
            elif key == "ipf":
                func[key] = sorted(
                    ({**e, "ids": [named(by_id, i) for i in e["ids"]]} for e in value),
                    key=lambda e: json.dumps(e, sort_keys=True),
                )
    json.dump(profile, sys.stdout, sort_keys=True, indent=1)
    print()


if __name__ == "__main__":
    main()
