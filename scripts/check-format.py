#!/usr/bin/env python3
"""House check (issue 28): every C++ file of the product, the benches and the tests is as .clang-format writes it.

clang-format 16 (`--dry-run --Werror`) on each .cc/.h/.cpp/.hpp under the rooms below. Left out: test data (inputs
and goldens that are CUDA users' code, kept as users write it) and the mapping tables' records, which turn
formatting off in the file (`// clang-format off`: one record per line is a table's format).
usage: check-format.py [SOURCE_ROOT]   exit 0 clean, 1 files to format (each printed with the command that fixes
                                       it), 77 no clang-format 16 here (skipped; .ci/packages.txt installs it)
"""
import os, re, shutil, subprocess, sys

ROOMS = ("bench", "client", "common", "fuzz", "server", "tests", "worker")
EXTENSIONS = (".cc", ".h", ".cpp", ".hpp")
# Directories of test data: CUDA sources and goldens as users write them, compared byte for byte by their tests.
DATA_DIRS = {"data", "input", "inputs", "golden", "goldens", "golden_drivers", "fixtures", "hip_compat", "lit",
             "node_modules"}
# The analyzer's rule and corpus cases: their findings are pinned to lines.
DATA_PATHS = {"tests/analyze/rules", "tests/analyze/corpus"}


def find_clang_format():
    # 16 is the version the tree was formatted with; another version moves a few lines differently.
    for candidate in (os.environ.get("CLANG_FORMAT"), "clang-format-16", "/usr/lib/llvm-16/bin/clang-format"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


def source_files(root):
    for room in ROOMS:
        for directory, subdirs, files in os.walk(os.path.join(root, room)):
            subdirs[:] = sorted(d for d in subdirs if d not in DATA_DIRS and
                                os.path.relpath(os.path.join(directory, d), root) not in DATA_PATHS)
            for name in sorted(files):
                if name.endswith(EXTENSIONS):
                    yield os.path.relpath(os.path.join(directory, name), root)


def unformatted(clang_format, root, files):
    """The files clang-format would change (its dry run warns once per changed place)."""
    found = set()
    for start in range(0, len(files), 200):
        p = subprocess.run([clang_format, "--dry-run", "--Werror", "--style=file"] + files[start:start + 200],
                           cwd=root, capture_output=True, text=True)
        for line in p.stderr.splitlines():
            m = re.match(r"(\S+?):\d+:\d+: (?:error|warning): code should be clang-formatted", line)
            if m:
                found.add(os.path.relpath(os.path.join(root, m.group(1)), root))
        if p.returncode != 0 and not found and "code should be clang-formatted" not in p.stderr:
            print(p.stderr, file=sys.stderr)
            sys.exit(2)
    return sorted(found)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    clang_format = find_clang_format()
    if clang_format is None:
        print("skipped: no clang-format 16 (apt-get install clang-format-16, or set CLANG_FORMAT)")
        return 77
    files = list(source_files(root))
    bad = unformatted(clang_format, root, files)
    for path in bad:
        print("%s: not as .clang-format writes it (fix: %s -i %s)" % (path, os.path.basename(clang_format), path))
    print("%d of %d file(s) to format (%s, .clang-format)" % (len(bad), len(files), clang_format))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
