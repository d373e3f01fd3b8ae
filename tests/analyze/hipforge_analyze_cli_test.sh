#!/usr/bin/env bash
# hipforge-analyze's command line: a finding printed for a real CUDA file, and bad input (no such root, a bad
# --jobs, an unknown rule id) answered with a message and a non-zero exit, never an uncaught exception.
set -uo pipefail
analyze=$1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$work/tree"
printf '__global__ void k(int* o) { o[0] = __shfl_xor_sync(0xffffffff, o[0], 1); }\n' >"$work/tree/k.cu"

out=$("$analyze" --jobs 1 "$work/tree" 2>&1) || fail "analysis of a good tree exited $?: $out"
grep -q '^k.cu:1:.*HB102' <<<"$out" || fail "no HB102 finding for k.cu: $out"
rules() { python3 -c 'import json,sys; print(" ".join(sorted(f["rule_id"] for f in json.load(sys.stdin)["findings"])))'; }
out=$("$analyze" --json "$work/tree" 2>/dev/null) || fail "--json exited $?"
[[ $(rules <<<"$out") == *HB102* ]] || fail "--json lists no HB102: $out"
out=$("$analyze" --json --disable HB102,HB103 "$work/tree" 2>/dev/null) || fail "--json --disable exited $?"
[[ $(rules <<<"$out") != *HB102* ]] || fail "--disable HB102 still reports HB102: $out"

check_refused() {  # expected-message args...
  local expected=$1; shift
  local out rc
  out=$("$analyze" "$@" 2>&1); rc=$?
  [[ $rc -ne 0 ]] || fail "'$*' exited 0"
  grep -q "terminate called" <<<"$out" && fail "'$*' crashed: $out"
  grep -qi -- "$expected" <<<"$out" || fail "'$*' did not say '$expected': $out"
}
check_refused "does not exist" "$work/missing"
check_refused "jobs" --jobs many "$work/tree"
check_refused "unknown rule id HB999" --disable HB999 "$work/tree"
"$analyze" --help >/dev/null || fail "--help exited $?"
echo "hipforge-analyze command line: ok"
