#!/usr/bin/env python3
"""Where a migrate-cli translate's CPU goes, from a perf profile with call stacks.

usage: perf record -F 99 --call-graph dwarf,32768 -o perf.data -- migrate-cli translate ...
       perf script -i perf.data -F comm,tid,period,ip,sym,dso > script.txt
       perf-phases.py script.txt

Each sample is counted once under a phase (the outer frames: a covered-unit group parse, an analyzer device-side
parse, a PCH build, else the translate parses and the rest; another program for the build discovery's children)
and once under an activity (the first of ACTIVITIES any of its frames names, in that order of priority).
Prints the shares of phases, activities and (phase, activity) pairs.
"""
import collections
import sys

PHASES = [
    ("group-parse", "RulesOnCoveredGroup"),
    ("device-side", "analyze::RunAstRules"),
    ("pch-build", "BuildPch"),
    ("pch-build", "EnsurePreludePch"),
]
ACTIVITIES = [
    ("parent-map", "ParentMap"),
    ("has-ancestor", "HasAncestorMatcher"),
    ("rule-callbacks", "Rule::"),
    ("rule-callbacks", "analyze::(anonymous"),
    ("matchers", "ast_matchers"),
    ("instantiation", "PerformPendingInstantiations"),
    ("instantiation", "InstantiateFunctionDefinition"),
    ("pch-read", "ASTReader"),
    ("parse", "Parser::"),
    ("parse", "ParseAST"),
    ("sema", "Sema::"),
    ("lex", "Preprocessor::"),
    ("hipforge", "hipforge::"),
]


def samples(path):
    comm, frames = None, []
    with open(path, errors="replace") as text:
        for line in text:
            if not line.strip():
                if comm is not None:
                    yield comm, frames
                comm, frames = None, []
            elif not line[0].isspace():
                comm, frames = line.split()[0], []
            elif comm is not None:
                parts = line.strip().split(" ", 1)
                frames.append(parts[1] if len(parts) > 1 else "")
    if comm is not None:
        yield comm, frames


def first(rules, frames, default):
    return next((name for name, pattern in rules if any(pattern in frame for frame in frames)), default)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    phases, activities, pairs = collections.Counter(), collections.Counter(), collections.Counter()
    for comm, frames in samples(sys.argv[1]):
        phase = first(PHASES, frames, "translate+rest") if comm.startswith("migrate-cli") else "child:" + comm
        activity = first(ACTIVITIES, frames, "other")
        phases[phase] += 1
        activities[activity] += 1
        pairs[(phase, activity)] += 1
    total = sum(phases.values())
    print(f"{total} samples")
    for title, counter in (("phase", phases), ("activity", activities), ("both", pairs)):
        for key, count in counter.most_common(30):
            print(f"{title:9} {str(key):45} {count:6} {100.0 * count / total:5.1f}%")


if __name__ == "__main__":
    main()
