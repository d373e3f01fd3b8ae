#!/usr/bin/env python3
"""House check (issue 28): clang-tidy with the repository's .clang-tidy on a fixed list of files and on the C++
sources the last commit changed (or on the files given).

clang-tidy parses each file as the compiler does (2-6 s each here), so the changed files are capped at
CHANGED_LIMIT (the most changed first; the rest are named as not checked). Files of targets built with a GCC
precompiled header (the translator, the analyzer) cannot be read by clang-tidy at all and are named as skipped.
"The last commit" is HEAD~1..HEAD, or HOUSE_TIDY_BASE..HEAD when set (a branch's merge base, say); CI clones main.
usage: check-clang-tidy.py BUILD_DIR [FILE...]   exit 0 clean, 1 findings, 77 no clang-tidy 16 here (skipped)
"""
import concurrent.futures, json, os, shutil, subprocess, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
# One or two files of each layer that has no precompiled header, the ones issue 28 touched first.
FILES = [
    "common/cuda_names.cc",
    "common/disk_cache.cc",
    "common/source_files.cc",
    "common/redact.cc",
    "common/utf8.cc",
    "server/store/sql_catalog.cc",
    "server/store/migrations.cc",
    "worker/userbuild/build_roots.cc",
    "worker/userbuild/sandbox.cc",
]


CHANGED_LIMIT = 24


def changed_sources(build_dir):
    """The .cc files changed since the base that the build compiles without a GCC precompiled header, most changed
    first (at most CHANGED_LIMIT; the rest printed), and those it cannot check."""
    base = os.environ.get("HOUSE_TIDY_BASE", "HEAD~1")
    p = subprocess.run(["git", "-C", ROOT, "diff", "--numstat", base, "HEAD", "--", "*.cc"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        print("no changed files checked: git diff %s HEAD failed (%s)" % (base, p.stderr.strip()))
        return []
    changed = []
    for line in p.stdout.splitlines():
        added, removed, path = line.split("\t", 2)
        if os.path.exists(os.path.join(ROOT, path)) and added != "-":
            changed.append((int(added) + int(removed), path))
    try:
        commands = json.load(open(os.path.join(build_dir, "compile_commands.json")))
    except OSError:
        commands = []
    compiled = {os.path.relpath(os.path.realpath(c["file"]), os.path.realpath(ROOT)):
                c.get("command", " ".join(c.get("arguments", []))) for c in commands}
    checkable = [path for _, path in sorted(changed, reverse=True)
                 if path in compiled and "cmake_pch" not in compiled[path]]
    unreadable = [path for _, path in changed if path in compiled and "cmake_pch" in compiled[path]]
    if unreadable:
        print("not checked (built with a GCC precompiled header): %s" % " ".join(sorted(unreadable)))
    if len(checkable) > CHANGED_LIMIT:
        print("not checked (over %d changed files): %s" % (CHANGED_LIMIT, " ".join(checkable[CHANGED_LIMIT:])))
    return checkable[:CHANGED_LIMIT]


def find_clang_tidy():
    # 16 is the version the check set was chosen with; older ones parse the C++20 here differently.
    for candidate in (os.environ.get("CLANG_TIDY"), "clang-tidy-16", "/usr/lib/llvm-16/bin/clang-tidy"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


def tidy(clang_tidy, build_dir, path):
    p = subprocess.run([clang_tidy, "-p", build_dir, "--quiet", os.path.join(ROOT, path)],
                       capture_output=True, text=True)
    return path, p.returncode, p.stdout + p.stderr


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    clang_tidy = find_clang_tidy()
    if clang_tidy is None:
        print("skipped: no clang-tidy 16 (apt-get install clang-tidy-16, or set CLANG_TIDY)")
        return 77
    build_dir, files = sys.argv[1], sys.argv[2:]
    if not files:
        files = FILES + [path for path in changed_sources(build_dir) if path not in FILES]
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for path, code, output in pool.map(lambda f: tidy(clang_tidy, build_dir, f), files):
            if code != 0:
                failed += 1
                print("%s: clang-tidy exit %d\n%s" % (path, code, output))
    print("%d of %d file(s) with findings (%s, .clang-tidy)" % (failed, len(files), clang_tidy))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
