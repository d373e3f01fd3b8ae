#!/usr/bin/env python3
"""House check (issue 28): clang-tidy with the repository's .clang-tidy on a fixed list of files, and on the lines
of C++ sources the last commit changed (clang-tidy's -line-filter, as clang-tidy-diff does), or on the files given.

clang-tidy parses each file as the compiler does (2-6 s each here), so the changed files are capped at
CHANGED_LIMIT (the most changed first; the rest are named as not checked). Files that include Clang's own headers
(the translator, the analyzer: LibTooling) take clang-tidy over 10 minutes each on two cores, and files of targets
built with a GCC precompiled header cannot be read by it at all; both are named as not checked.
"The last commit" is HEAD~1..HEAD, or HOUSE_TIDY_BASE..HEAD when set (a branch's merge base, say); CI clones main.
usage: check-clang-tidy.py BUILD_DIR [FILE...]   exit 0 clean, 1 findings, 77 no clang-tidy 16 here (skipped)
"""
import concurrent.futures, json, os, re, shutil, subprocess, sys

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


def changed_lines(base, path):
    """The line ranges of `path` that base..HEAD added or changed ([[first, last], ...])."""
    p = subprocess.run(["git", "-C", ROOT, "diff", "-U0", base, "HEAD", "--", path], capture_output=True, text=True)
    ranges = []
    for m in re.finditer(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", p.stdout, re.M):
        first, count = int(m.group(1)), int(m.group(2) or 1)
        if count:
            ranges.append([first, first + count - 1])
    return ranges


def changed_sources(build_dir):
    """The .cc files changed since the base that clang-tidy can check in seconds (no Clang headers, no GCC
    precompiled header), most changed first (at most CHANGED_LIMIT; the rest printed), each with its changed lines."""
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
    def too_slow(command):
        return "cmake_pch" in command or "/llvm-16/include" in command

    checkable = [path for _, path in sorted(changed, reverse=True) if path in compiled and not too_slow(compiled[path])]
    unreadable = [path for _, path in changed if path in compiled and too_slow(compiled[path])]
    if unreadable:
        print("not checked (Clang's headers or a GCC precompiled header): %s" % " ".join(sorted(unreadable)))
    if len(checkable) > CHANGED_LIMIT:
        print("not checked (over %d changed files): %s" % (CHANGED_LIMIT, " ".join(checkable[CHANGED_LIMIT:])))
    return [(path, changed_lines(base, path)) for path in checkable[:CHANGED_LIMIT]]


def find_clang_tidy():
    # 16 is the version the check set was chosen with; older ones parse the C++20 here differently.
    for candidate in (os.environ.get("CLANG_TIDY"), "clang-tidy-16", "/usr/lib/llvm-16/bin/clang-tidy"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


def tidy(clang_tidy, build_dir, path, lines=None):
    """clang-tidy on `path`; with `lines`, only its findings on those line ranges count."""
    command = [clang_tidy, "-p", build_dir, "--quiet"]
    if lines is not None:
        command.append("-line-filter=" + json.dumps([{"name": path, "lines": lines}]))
    p = subprocess.run(command + [os.path.join(ROOT, path)], capture_output=True, text=True)
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
    work = [(path, None) for path in files]
    if not files:
        work = [(path, None) for path in FILES]
        work += [(path, lines) for path, lines in changed_sources(build_dir) if path not in FILES and lines]
    files = [path for path, _ in work]
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for path, code, output in pool.map(lambda w: tidy(clang_tidy, build_dir, w[0], w[1]), work):
            if code != 0:
                failed += 1
                print("%s: clang-tidy exit %d\n%s" % (path, code, output))
    print("%d of %d file(s) with findings (%s, .clang-tidy)" % (failed, len(files), clang_tidy))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
