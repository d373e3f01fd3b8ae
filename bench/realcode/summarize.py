#!/usr/bin/env python3
"""Table of a submit-unchanged.sh run: one line per program (job state, build result, the build log's first error)
and the totals. Reads only what the run kept: summary.tsv and the text reports.
    bench/realcode/summarize.py OUT_DIR
"""
import pathlib
import re
import sys


def first_error(report: str) -> str:
    excerpt = report.split("build log excerpt:", 1)
    if len(excerpt) < 2:
        return ""
    for line in excerpt[1].splitlines():
        line = line.strip().lstrip("|").strip()
        if re.search(r"error|No rule|Error \d|fatal|Unknown CMake", line):
            return line[:160]
    return ""


def main() -> int:
    out = pathlib.Path(sys.argv[1])
    rows = [line.split("\t") for line in (out / "summary.tsv").read_text().splitlines() if line.strip()]
    states = {}
    for name, _code, seconds, state, _verdict in rows:
        text_path = out / "reports" / f"{name}.txt"
        report = text_path.read_text(errors="replace") if text_path.exists() else ""
        outside = "HB505" in report
        error = first_error(report) if state != "succeeded" else ""
        states[state] = states.get(state, 0) + 1
        note = " [HB505: reads files outside the submitted tree]" if outside and state != "succeeded" else ""
        print(f"{name:34} {state:10} {seconds:>4}s  {error}{note}")
    total = len(rows)
    ok = states.get("succeeded", 0)
    print(f"# {total} jobs: " + ", ".join(f"{n} {s}" for s, n in sorted(states.items())) +
          f"; succeeded {100.0 * ok / max(total, 1):.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
