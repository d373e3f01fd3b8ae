#!/usr/bin/env python3
"""House check (issue 28): no function of the product or the benches is over 120 lines.

A function's size is its definition's last line minus its first plus one, as universal-ctags measures it
(`ctags --fields=+ne --c++-kinds=f`: the `line:` and `end:` fields). Tests are left out (a test reads as one story).
The emitted-text templates listed in ALLOWED are one raw string each; a new entry needs a reason, and an entry whose
function is gone or fits again fails the check as stale.
usage: check-function-size.py [SOURCE_ROOT]   exit 0 clean, 1 too long or stale (each printed), 2 usage,
                                              77 no universal-ctags here (skipped; .ci/packages.txt installs it)
"""
import os, shutil, subprocess, sys

LIMIT = 120
ROOMS = ("bench", "client", "common", "fuzz", "server", "worker")
# (file, function): why it may be longer.
ALLOWED = {
    ("worker/validate/nvidia_backend/wave64_header.cc", "Wave64Header"):
        "emitted text: the wave64 header written into a migrated tree, one raw string",
    ("worker/translate/analyze/texture_shim.cc", "TextureShim"):
        "emitted text: the texture-reference shim header, one raw string",
    ("worker/translate/repo/cmake_hip_block.cc", "HipLanguageBlock"):
        "emitted text: the CMake block that enables the HIP language, one raw string",
}


def find_ctags():
    for candidate in (os.environ.get("CTAGS"), "ctags-universal", "universal-ctags", "ctags"):
        path = candidate and shutil.which(candidate)
        if path and "Universal Ctags" in subprocess.run([path, "--version"], capture_output=True, text=True).stdout:
            return path
    return None


def sources(root):
    for room in ROOMS:
        for folder, _, files in os.walk(os.path.join(root, room)):
            for name in sorted(files):
                if name.endswith((".cc", ".h", ".cpp")):
                    yield os.path.relpath(os.path.join(folder, name), root)


def function_sizes(ctags, root):
    """(file, function, first line, size) of every function definition under the rooms."""
    files = list(sources(root))
    p = subprocess.run([ctags, "--fields=+ne", "--c++-kinds=f", "--language-force=C++", "-o", "-", "-L", "-"],
                       input="\n".join(files), capture_output=True, text=True, cwd=root)
    if p.returncode != 0:
        sys.exit("ctags failed: " + p.stderr)
    for line in p.stdout.splitlines():
        columns = line.split("\t")
        fields = dict(field.split(":", 1) for field in columns[3:] if ":" in field)
        if "line" in fields and "end" in fields:
            yield columns[1], columns[0], int(fields["line"]), int(fields["end"]) - int(fields["line"]) + 1


def main():
    if len(sys.argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1] if len(sys.argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    ctags = find_ctags()
    if ctags is None:
        print("no universal-ctags: skipped")
        return 77
    long_ones = [(path, name, first, size) for path, name, first, size in function_sizes(ctags, root) if size > LIMIT]
    found = [entry for entry in long_ones if (entry[0], entry[1]) not in ALLOWED]
    for path, name, first, size in sorted(found):
        print("%s:%d: %s is %d lines (at most %d; split it into named steps)" % (path, first, name, size, LIMIT))
    stale = sorted(set(ALLOWED) - {(path, name) for path, name, _, _ in long_ones})
    for path, name in stale:
        print("stale allow-list entry (remove it): %s %s" % (path, name))
    if found or stale:
        print("%d function(s) over %d lines, %d stale entr(ies); see scripts/check-function-size.py"
              % (len(found), LIMIT, len(stale)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
