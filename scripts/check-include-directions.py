#!/usr/bin/env python3
"""House check (issue 28): project #includes only point down the floors of docs/architecture.md.

Every project header or source file belongs to a room (a source folder); rooms stand on numbered floors, and a file
may include a header of its own room or of a room on a LOWER floor. Two rooms on one floor know nothing of each
other. The few known side doors are listed in EXCEPTIONS with why; a new one fails the check (add it here only with
a reason, or better, move the shared part below both rooms).
Inside each top-level room the files are layered too: no include closes a cycle between components (a header with
its source), so a vocabulary header sits below what uses it instead of beside the code at the top. No folder is
exempt (worker/translate/core/ was, until its TranslateOptions moved to core/translate_options.h).
usage: check-include-directions.py [SOURCE_ROOT]    exit 0 clean, 1 violations (each printed), 2 usage
"""
import os, re, sys

# Floor of each room (longest matching folder prefix wins). Lower floors know nothing of higher ones.
FLOORS = {
    "common": 0,
    "worker/translate/tables": 1,        # mapping tables: data, read by every translator part and the layer
    "worker/userbuild": 1,               # running a user's build: sandbox, seccomp filter, build roots
    "worker/translate": 2,               # vocabulary headers at the top of worker/translate (translation_types.h)
    "worker/translate/frontend": 3,      # one Clang parse per unit
    "worker/translate/core": 4,          # the source translator
    "worker/translate/analyze": 5,       # the analyzer's rules (ride on the translator's parse)
    "worker/validate": 6,                # builds, tests, parity, profile, the NVIDIA backend
    "worker/translate/repo": 6,          # the repository pass
    "worker/translate/hipify": 7,        # migrate-hipify's command line
    "worker": 8,                         # the task loop and its stages
    "client": 9,                         # migrate-cli (translates and analyzes locally too)
    "server": 9,                         # migrate-server (front end, store, scheduler, auth)
}
ROOTS = ("common", "worker", "client", "server")

# (including file, included header): known side doors, each with the reason it is still there.
EXCEPTIONS = {
    ("server/server_app.cc", "worker/worker.h"):
        "the server's assembly starts in-process workers (--local-workers) for embedded setups",
    ("server/server_app.cc", "worker/validate/manifest.h"):
        "the in-process validate worker's toolchain manifest is read at assembly",
}


def room_of(path):
    best = None
    for room in FLOORS:
        if path == room or path.startswith(room + "/"):
            if best is None or len(room) > len(best):
                best = room
    return best


def violations(source_root):
    found = []
    for top in ROOTS:
        for folder, _, files in os.walk(os.path.join(source_root, top)):
            for name in sorted(files):
                if not name.endswith((".cc", ".h")):
                    continue
                path = os.path.relpath(os.path.join(folder, name), source_root)
                here = room_of(path)
                text = open(os.path.join(source_root, path), errors="replace").read()
                for match in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
                    header = match.group(1)
                    there = room_of(header) if header.split("/")[0] in ROOTS else None
                    if there is None or here is None or there == here:
                        continue
                    if FLOORS[there] < FLOORS[here] or (path, header) in EXCEPTIONS:
                        continue
                    line = text.count("\n", 0, match.start()) + 1
                    found.append("%s:%d: includes %s (%s, floor %d) from %s (floor %d)"
                                 % (path, line, header, there, FLOORS[there], here, FLOORS[here]))
    return found


def cycles_inside(source_root, folder):
    """Each include inside `folder` whose header's component reaches the including component again."""
    includes = []  # (including file, line, header)
    for where, _, files in os.walk(os.path.join(source_root, folder)):
        for name in sorted(files):
            if name.endswith((".cc", ".h")):
                path = os.path.relpath(os.path.join(where, name), source_root)
                text = open(os.path.join(source_root, path), errors="replace").read()
                for match in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
                    includes.append((path, text.count("\n", 0, match.start()) + 1, match.group(1)))
    component = lambda path: os.path.splitext(path)[0]
    components = {component(path) for path, _, _ in includes} | {component(h) for _, _, h in includes}
    arrows = {}
    for path, _, header in includes:
        if header.startswith(folder + "/") and component(header) != component(path):
            arrows.setdefault(component(path), set()).add(component(header))

    def reaches(start, goal):
        seen, todo = set(), [start]
        while todo:
            for after in arrows.get(todo.pop(), ()):
                if after == goal:
                    return True
                if after not in seen:
                    seen.add(after)
                    todo.append(after)
        return False

    return ["%s:%d: includes %s, which includes %s back (a cycle inside %s/)"
            % (path, line, header, component(path), folder)
            for path, line, header in includes
            if header.startswith(folder + "/") and component(header) != component(path)
            and component(header) in components and reaches(component(header), component(path))]


def main():
    if len(sys.argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1] if len(sys.argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    found = violations(root)
    found += [line for top in ROOTS for line in cycles_inside(root, top)]
    for line in found:
        print(line)
    stale = [pair for pair in EXCEPTIONS
             if not os.path.exists(os.path.join(root, pair[0]))
             or '"%s"' % pair[1] not in open(os.path.join(root, pair[0]), errors="replace").read()]
    for including, header in stale:
        print("stale exception (remove it): %s -> %s" % (including, header))
    if found or stale:
        print("%d include(s) against the floors or in a cycle, %d stale exception(s); see "
              "scripts/check-include-directions.py"
              % (len(found), len(stale)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
