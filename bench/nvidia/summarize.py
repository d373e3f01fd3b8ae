#!/usr/bin/env python3
"""One row per program from the reports on-gpu-host.sh kept (migrate-cli report --format json), nothing else:
build, tests (HIP / CUDA original), parity against the automatic CUDA reference, median HIP/CUDA kernel-time ratio.
    bench/nvidia/summarize.py REPORTS_DIR [SUMMARY_TSV]"""
import json
import statistics
import sys
from pathlib import Path


def ratio(kernel):
    # As report::HipCudaRatio: per launch when the call counts differ.
    cuda, hip = kernel.get("cuda_baseline_ns"), kernel.get("total_ns", 0)
    if not cuda or not hip or cuda <= 0 or hip <= 0:
        return None
    r = hip / cuda
    calls, cuda_calls = kernel.get("calls", 0), kernel.get("cuda_calls")
    if cuda_calls and calls and cuda_calls != calls:
        r *= cuda_calls / calls
    return r


def row(path):
    r = json.loads(path.read_text())
    builds = r.get("builds", [])
    build = "ok" if builds and all(b.get("ok") for b in builds) else "failed"
    tests = r.get("tests", [])
    hip = sum(t["status"] == "passed" for t in tests)
    cuda = sum(t.get("cuda", {}).get("status") == "passed" for t in tests)
    both = sum(t["status"] == "passed" and t.get("cuda", {}).get("status") == "passed" for t in tests)
    parity = r.get("parity", [])
    match = sum(p["verdict"] == "match" for p in parity)
    ratios = [x for x in (ratio(k) for k in r.get("profile", [])) if x is not None]
    median = f"{statistics.median(ratios):.2f}" if ratios else "-"
    verdict = r.get("verdict", {}).get("level", "-")
    return [path.stem, build, f"{hip}/{len(tests)}", f"{cuda}/{len(tests)}", str(both),
            f"{match}/{len(parity)}", f"{len(ratios)}", median, verdict, same_as_cuda(tests), wave64(tests)]


def same_as_cuda(tests):
    """Whether the HIP build's self-checks end as the CUDA original's: 'same' when every test that ran in both forms
    has one status in both, 'differs' (with the tests) otherwise, 'not run' when no test ran in both forms."""
    ran = [t for t in tests if ":wave64" not in t.get("arch", "") and t.get("status") in ("passed", "failed") and
           t.get("cuda", {}).get("status") in ("passed", "failed")]
    if not ran:
        return "not run"
    differ = [f"{t.get('name', '?')} (HIP {t['status']}, CUDA {t['cuda']['status']})"
              for t in ran if t["status"] != t["cuda"]["status"]]
    if differ:
        return "differs: " + ", ".join(differ)
    return "same" if any(t["status"] == "passed" for t in ran) else "same (fails in CUDA too)"


def wave64(tests):
    """The wave64 build's tests (sm_XX:wave64 targets): passed of run, with the failing names."""
    w = [t for t in tests if ":wave64" in t.get("arch", "")]
    if not w:
        return "-"
    failed = [t.get("name", "?") for t in w if t.get("status") != "passed"]
    return f"{len(w) - len(failed)}/{len(w)}" + (" (failed: " + ", ".join(failed) + ")" if failed else "")


def main():
    reports = Path(sys.argv[1])
    rows = [row(p) for p in sorted(reports.glob("*.json"))]
    header = ["program", "build", "HIP tests passed", "CUDA tests passed", "passed in both", "parity match",
              "kernels paired", "median HIP/CUDA", "verdict", "self-check as CUDA (sm_90)", "wave64 tests"]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    done = {r[0] for r in rows}
    if len(sys.argv) > 2:
        for line in Path(sys.argv[2]).read_text().splitlines():
            name = line.split("\t")[0]
            if name and name not in done:
                print(f"| {name} | no report (job did not finish) |" + " |" * (len(header) - 2))
    both = sum(int(r[4]) > 0 for r in rows)
    with_parity = sum(r[5].split("/")[0] != "0" for r in rows)
    with_ratio = sum(r[7] != "-" for r in rows)
    ran = [r for r in rows if r[9] != "not run"]
    same = sum(r[9].startswith("same") for r in ran)
    passing = [r for r in ran if r[9] == "same" or r[9].startswith("differs")]
    print(f"\n{len(rows)} reports; tests passed in both forms: {both}; parity match: {with_parity}; "
          f"kernel ratios: {with_ratio}")
    if ran:
        print(f"self-check as the CUDA original: {same} of {len(ran)} programs whose tests ran in both forms "
              f"({100.0 * same / len(ran):.1f}%); where the CUDA original passes a test: "
              f"{sum(r[9] == 'same' for r in passing)} of {len(passing)}")


if __name__ == "__main__":
    main()
