#!/usr/bin/env python3
"""Interleaved A/B of two migrate-hipify binaries over HIPIFY's lit files: a cold pass (fresh cache dir per
binary) then a second pass over the same caches. Per file and binary, perf stat task-clock; every output is
kept under OUT/<binary>-<pass>/ so the two output sets can be diffed.

usage: lit_passes.py OUT NAME=BIN [NAME=BIN ...]   (HIPIFY: checkout, default /work/ext/HIPIFY)
  e.g. lit_passes.py /tmp/ab before=/work/bench-bin/5a1e700/migrate-hipify after=build/bin/migrate-hipify
"""
import glob, importlib.util, os, shutil, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
runner = os.environ.get("HIPIFY_LIT", os.path.join(here, "../../../../shared/tools/hipify_lit.py"))
if not os.path.exists(runner): runner = "/work/shared/tools/hipify_lit.py"
spec = importlib.util.spec_from_file_location("lit", runner); lit = importlib.util.module_from_spec(spec); spec.loader.exec_module(lit)
out = os.path.abspath(sys.argv[1])
bins = dict(arg.split("=", 1) for arg in sys.argv[2:])
suite = os.path.join(os.environ.get("HIPIFY", "/work/ext/HIPIFY"), "tests/unit_tests")
shutil.rmtree(out, ignore_errors=True)
files = []
for path in sorted(glob.glob(suite + "/**/*.*", recursive=True)):
    if os.path.basename(path) in lit.EXCLUDE: continue
    parsed = lit.parse_run(path)
    if parsed: files.append((path, parsed))
totals = {}
for run in (1, 2):
    for path, (opts, extra) in files:
        clang = ["-std=c++17", "-DTHRUST_IGNORE_CUB_VERSION_CHECK", "-D_LIBCUDACXX_OBJECT_FORMAT_COFF"] + extra
        rel = os.path.relpath(path, suite)
        for name, binary in bins.items():
            target = os.path.join(out, "%s-%d" % (name, run), rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            env = dict(os.environ, XDG_CACHE_HOME=os.path.join(out, "cache-" + name))
            r = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock", binary, path, "-o", target] + opts +
                               ["--"] + clang, capture_output=True, text=True, env=env)
            seconds = sum(float(l.split(",")[0]) / 1000 for l in r.stderr.splitlines() if "task-clock" in l)
            totals[(name, run)] = totals.get((name, run), 0.0) + seconds
            with open(os.path.join(out, "times.txt"), "a") as log:
                log.write("%s %d %.3f %d %s\n" % (name, run, seconds, r.returncode, rel))
print(len(files), "files;", " ".join("%s pass %d: %.1f s" % (n, p, t) for (n, p), t in sorted(totals.items())))
