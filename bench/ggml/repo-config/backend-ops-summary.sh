#!/usr/bin/env bash
# ggml's test-backend-ops in mode `test` (every op case on each GPU backend, compared with the CPU backend), then a
# per-op summary short enough for the report's output excerpt (its last 2 KiB): OP passed/failed/not-supported.
# The exit code is test-backend-ops's own (124 when TIME_LIMIT_S stopped it: the summary covers the cases run so
# far). Part of the configuration a user adds to ggml (bench/ggml/README.md).
#   backend-ops-summary.sh TEST_BACKEND_OPS [FULL_LOG] [TIME_LIMIT_S]
set -uo pipefail
bin=$1 log=${2:-test-backend-ops.log} limit=${3:-0}
# stdout line-buffered: an abort (GGML_ABORT, a CUDA error) loses no case line, and its message (stderr) lands
# after the case it stopped in.
line_buffered=(); command -v stdbuf >/dev/null && line_buffered=(stdbuf -oL -eL)
timeout --kill-after=10 "$limit" "${line_buffered[@]}" "$bin" test >"$log" 2>&1
rc=$?
sed 's/\x1b\[[0-9;]*m//g' "$log" | awk '
  match($0, /^  [A-Z][A-Z_0-9]*\(/) {
    op = substr($0, RSTART + 2, RLENGTH - 3); seen[op] = 1
    if ($0 ~ /: OK$/) ok[op]++; else if ($0 ~ /not supported/) ns[op]++; else if ($0 ~ /FAIL$/) bad[op]++; else skip[op]++
  }
  /tests passed$/ || /^  Backend / || /backends passed$/ { status = status $0 "\n" }
  END {
    printf "per op (passed/failed/not supported): "
    for (o in seen) {
      cases_ok += ok[o]; cases_bad += bad[o]; cases_ns += ns[o]; n++
      if (bad[o]) { ops_bad++; print o ":" ok[o] + 0 "/" bad[o] "/" ns[o] + 0 | "sort > failing.tmp" }
      else if (ok[o]) ops_ok++; else if (ns[o]) ops_ns++; else ops_open++  # open: its only case did not finish
      print o ":" ok[o] + 0 "/" bad[o] + 0 "/" ns[o] + 0 | "sort | tr \"\\n\" \" \""
    }
    close("sort | tr \"\\n\" \" \""); close("sort > failing.tmp")
    print ""
    printf "%s", status
    printf "failing ops: "; system("if [ -s failing.tmp ]; then tr \"\\n\" \" \" < failing.tmp; else printf none; fi; rm -f failing.tmp"); print ""
    printf "ops %d: all cases passed %d, some failed %d, none supported %d%s; cases passed %d, failed %d, not supported %d\n",
      n, ops_ok, ops_bad, ops_ns, ops_open ? ", a case unfinished " ops_open : "", cases_ok, cases_bad, cases_ns
  }'
# Last, so the report's excerpt (the output's tail) keeps it.
[ "$rc" -ne 124 ] || echo "test-backend-ops stopped after the time limit of $limit s: the counts are of the cases run"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then  # an abort or a crash: where, and what it said
  echo "test-backend-ops ended with exit $rc$([ "$rc" -gt 128 ] && echo " (signal $((rc - 128)))") after the cases above; the log's last lines:"
  sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -v ': OK$' | tail -n 8 | cut -c1-240
fi
exit $rc
