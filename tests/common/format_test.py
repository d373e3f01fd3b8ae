#!/usr/bin/env python3
"""scripts/check-format.py: clean on the source tree; on a small tree it flags a misformatted product file and
leaves test data and a table that turns formatting off alone."""
import os, shutil, subprocess, sys, tempfile

checker, source_root = sys.argv[1:3]


def run(root):
    p = subprocess.run([sys.executable, checker, root], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def write(root, path, text):
    os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
    open(os.path.join(root, path), "w").write(text)


code, out = run(source_root)
if code == 77:
    print("skipped: no clang-format 16")
    sys.exit(77)
assert code == 0, "the source tree is not as .clang-format writes it:\n" + out

messy = "int   f( int x ){return x;}\n"
with tempfile.TemporaryDirectory() as root:
    shutil.copy(os.path.join(source_root, ".clang-format"), root)
    write(root, "server/clean.cc", "int f(int x) { return x; }\n")
    write(root, "tests/repo/data/app/kernel.cc", messy)
    write(root, "tests/analyze/corpus/host/reader.cpp", messy)
    write(root, "worker/translate/tables/x_table.cc", "// clang-format off\n" + messy)
    code, out = run(root)
    assert code == 0, out
    assert "0 of 2 file(s)" in out, out
    write(root, "server/messy.cc", messy)
    code, out = run(root)
    assert code == 1, out
    assert "server/messy.cc: not as .clang-format writes it" in out, out
    assert "1 of 3 file(s)" in out, out
print("ok")
