#!/usr/bin/env python3
"""migrate-hipify's hipify-clang habits (issue 26): its own --version, --inplace keeps <file>.prehip,
--o-stats=FILE / --print-stats-csv write the statistics as CSV.
    hipify_cli_test.py MIGRATE_HIPIFY SOURCE_DIR
"""
import csv
import io
import pathlib
import shutil
import subprocess
import sys
import tempfile


def main() -> int:
    tool, source_dir = sys.argv[1], pathlib.Path(sys.argv[2])
    failures = []
    version = subprocess.run([tool, "--version"], capture_output=True, text=True)
    if "migrate-hipify (hipforge)" not in version.stdout:
        failures.append(f"--version: {version.stdout!r}")
    with tempfile.TemporaryDirectory() as work:
        work = pathlib.Path(work)
        kernels = source_dir / "examples/wave64-kernels/src"
        for name in ("k01_reduce_from_16.cu", "check.cuh"):
            shutil.copy(kernels / name, work / name)
        original = (work / "k01_reduce_from_16.cu").read_text()
        run = subprocess.run([tool, "--inplace", f"--o-stats={work / 'stats.csv'}", "k01_reduce_from_16.cu"],
                             cwd=work, capture_output=True, text=True)
        if run.returncode != 0:
            failures.append(f"--inplace exit {run.returncode}: {run.stderr}")
        if (work / "k01_reduce_from_16.cu.prehip").read_text() != original:
            failures.append("--inplace: the .prehip backup is not the original")
        if "hip_runtime" not in (work / "k01_reduce_from_16.cu").read_text():
            failures.append("--inplace: the file was not translated")
        rows = list(csv.DictReader(io.StringIO((work / "stats.csv").read_text())))
        if not rows or rows[0]["file"] != "k01_reduce_from_16.cu" or int(rows[0]["converted"]) < 1:
            failures.append(f"--o-stats: {rows!r}")
        if not any(row["file"] == "TOTAL" for row in rows):
            failures.append("--o-stats: no TOTAL row")
        shutil.copy(work / "k01_reduce_from_16.cu.prehip", work / "again.cu")
        printed = subprocess.run([tool, "--print-stats-csv", "--no-output", "again.cu"], cwd=work,
                                 capture_output=True, text=True)
        if "file,status,converted" not in printed.stderr:
            failures.append(f"--print-stats-csv: {printed.stderr[-400:]!r}")
        # The analyzer's findings beside the translator's, as hipify-clang prints its own (k01 reduces from lane 16).
        if "[HB104]" not in printed.stderr:
            failures.append(f"no analyzer warning (HB104) for a 32-lane reduction: {printed.stderr[-400:]!r}")
        quiet = subprocess.run([tool, "--no-analyze", "--no-output", "again.cu"], cwd=work, capture_output=True,
                               text=True)
        if "[HB1" in quiet.stderr:
            failures.append(f"--no-analyze still printed analyzer findings: {quiet.stderr[-400:]!r}")
        # A file Clang cannot parse: written by the token-level fallback, but the exit status says so.
        (work / "broken.cu").write_text("__global__ void k(int* o) { o[0] = not_declared; }\n"
                                        "int main() { int* d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); return 0; }\n")
        broken = subprocess.run([tool, "broken.cu", "-o=broken.hip"], cwd=work, capture_output=True, text=True)
        if broken.returncode == 0 or "did not parse" not in broken.stderr:
            failures.append(f"unparsable file: exit {broken.returncode}, {broken.stderr[-400:]!r}")
        if "hipMalloc" not in (work / "broken.hip").read_text():
            failures.append("unparsable file: the fallback translation was not written")
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
