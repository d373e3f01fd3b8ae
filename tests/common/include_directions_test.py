#!/usr/bin/env python3
"""scripts/check-include-directions.py: clean on the source tree; on a small tree it flags an include up the floors,
a same-floor side door and a stale exception, and lets a downward include and a listed exception pass."""
import os, subprocess, sys, tempfile

checker, source_root = sys.argv[1:3]


def run(root):
    p = subprocess.run([sys.executable, checker, root], capture_output=True, text=True)
    return p.returncode, p.stdout


def write(root, path, text):
    os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
    open(os.path.join(root, path), "w").write(text)


code, out = run(source_root)
assert code == 0, "the source tree breaks the floors:\n" + out

with tempfile.TemporaryDirectory() as root:
    write(root, "common/file_io.h", "#pragma once\n")
    write(root, "server/job_service.cc", '#include "common/file_io.h"\n')                 # down: fine
    write(root, "server/server_app.cc", '#include "worker/worker.h"\n'
                                        '#include "worker/validate/manifest.h"\n')        # listed exceptions
    write(root, "worker/translate/repo/build_commands.cc", '#include "worker/userbuild/sandbox.h"\n')  # down: fine
    code, out = run(root)
    assert code == 0, out
    write(root, "common/sha256.cc", '#include "common/file_io.h"\n#include "server/store/job_store.h"\n')
    write(root, "worker/validate/parity.cc", '#include "worker/translate/repo/text_edits.h"\n')
    write(root, "worker/translate/repo/build_commands.cc", '#include "worker/validate/tree_builder.h"\n')  # same floor
    write(root, "server/server_app.cc", '#include "worker/worker.h"\n')
    code, out = run(root)
    assert code == 1, out
    assert "common/sha256.cc:2: includes server/store/job_store.h" in out, out
    assert "worker/validate/parity.cc:1: includes worker/translate/repo/text_edits.h" in out, out
    assert "worker/translate/repo/build_commands.cc:1: includes worker/validate/tree_builder.h" in out, out
    assert "stale exception (remove it): server/server_app.cc -> worker/validate/manifest.h" in out, out
    assert out.count("includes ") == 3, out

with tempfile.TemporaryDirectory() as root:  # inside worker/translate/repo: components in a cycle
    write(root, "server/server_app.cc", '#include "worker/worker.h"\n'
                                        '#include "worker/validate/manifest.h"\n')        # listed exceptions
    write(root, "worker/translate/repo/types.h", "#pragma once\n")
    write(root, "worker/translate/repo/pass.h", '#include "worker/translate/repo/types.h"\n')
    write(root, "worker/translate/repo/stages/stage.h", '#include "worker/translate/repo/types.h"\n')
    write(root, "worker/translate/repo/pass.cc", '#include "worker/translate/repo/pass.h"\n'
                                                 '#include "worker/translate/repo/stages/stage.h"\n')
    code, out = run(root)
    assert code == 0, out  # a vocabulary header below both: no cycle
    write(root, "worker/translate/repo/stages/stage.cc", '#include "worker/translate/repo/stages/stage.h"\n'
                                                         '#include "worker/translate/repo/pass.h"\n')
    code, out = run(root)
    assert code == 1, out
    assert ("worker/translate/repo/pass.cc:2: includes worker/translate/repo/stages/stage.h, which includes "
            "worker/translate/repo/pass back") in out, out
    assert ("worker/translate/repo/stages/stage.cc:2: includes worker/translate/repo/pass.h, which includes "
            "worker/translate/repo/stages/stage back") in out, out
    assert out.count("a cycle inside") == 2, out

with tempfile.TemporaryDirectory() as root:  # no folder is exempt: worker/translate/core/ (once listed) and worker/
    write(root, "server/server_app.cc", '#include "worker/worker.h"\n'
                                        '#include "worker/validate/manifest.h"\n')
    write(root, "worker/translate/core/a.h", '#include "worker/translate/core/b.h"\n')
    write(root, "worker/translate/core/b.h", "#pragma once\n")
    code, out = run(root)
    assert code == 0, out
    write(root, "worker/translate/core/b.cc", '#include "worker/translate/core/b.h"\n#include "worker/translate/core/a.h"\n')
    code, out = run(root)
    assert code == 1 and ("worker/translate/core/b.cc:2: includes worker/translate/core/a.h, which includes "
                          "worker/translate/core/b back") in out, out
    write(root, "worker/translate/core/b.cc", '#include "worker/translate/core/b.h"\n')
    write(root, "worker/task_state.h", '#include "worker/worker.h"\n')   # the review's back arrow
    write(root, "worker/worker.cc", '#include "worker/worker.h"\n#include "worker/task_state.h"\n')
    write(root, "worker/worker.h", "#pragma once\n")
    code, out = run(root)
    assert code == 1 and "worker/task_state.h:1: includes worker/worker.h, which includes worker/task_state back" in out, out
print("ok")
