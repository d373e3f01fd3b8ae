#!/usr/bin/env bash
# Cold ggml translate (measure.sh's `skip`, the default configuration) by two migrate-cli binaries, alternating
# A B B A ..., every run pinned to the same CPUs (taskset), so both see the same machine: on a shared VM the same
# binary moved by 20% from run to run (README, 2026-12-07 night), more than a change. CPU = user+sys of the process
# and every child it waited for (getrusage RUSAGE_CHILDREN, what `time -v` reports; this works on a host without
# /usr/bin/time or perf, such as the lent GPU host). Each run's tree, patch and report (key-sorted, the build
# discovery's scratch name normalized) are compared with the first run's.
#   cpu-pairs.sh OUT_DIR CPUS ROUNDS NAME_A=BINARY_A NAME_B=BINARY_B
#   GGML: the ggml tree (default /tmp/ggml), never written; WRAP: a command to run each binary through (the GPU
#   bundle's hipforge-env)
# OUT_DIR/summary.txt: one line per run; OUT_DIR/<run>.{log,json,patch} and <run>-out.
set -uo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd) cpus=$2 rounds=$3
a_name=${4%%=*} a_bin=${4#*=} b_name=${5%%=*} b_bin=${5#*=}
ggml=${GGML:-/tmp/ggml}
command -v python3 >/dev/null || PATH=$PATH:/opt/torch/.venv/bin

sorted_report() {  # JSON report -> key-sorted text, the scratch directory's random name normalized
  python3 -c 'import json, re, sys
print(re.sub(r"hipforge-build-[0-9]+", "hipforge-build-N", json.dumps(json.load(open(sys.argv[1])), sort_keys=True, indent=1)))' "$1"
}
run_one() {  # run_one RUN_NAME BINARY
  local run=$1 load
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  rm -rf "$out/$run-out" "$out/cache-$run"
  # shellcheck disable=SC2086
  python3 - "$out/$run" taskset -c "$cpus" ${WRAP:-} "$2" translate "$ggml" -o "$out/$run-out" \
    --cache "$out/cache-$run" --hip-version 6.4 --report "$out/$run.json" --patch "$out/$run.patch" \
    --format json <<'EOF' >"$out/$run.usage"
import resource, subprocess, sys, time
start = time.time()
with open(sys.argv[1] + ".log", "w") as log:
    code = subprocess.call(sys.argv[2:], stdout=log, stderr=subprocess.STDOUT)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"exit {code} wall {time.time() - start:.1f} s cpu {u.ru_utime + u.ru_stime:.1f} s (user {u.ru_utime:.1f} "
      f"sys {u.ru_stime:.1f}) peak {u.ru_maxrss // 1024} MB")
EOF
  rm -rf "$out/cache-$run"
  local same=reference
  if [ -n "${first:-}" ]; then
    same=identical
    diff -r "$out/$first-out" "$out/$run-out" >"$out/$run.tree.diff" || same=DIFFERENT
    cmp -s "$out/$first.patch" "$out/$run.patch" || same=DIFFERENT
    diff <(sorted_report "$out/$first.json") <(sorted_report "$out/$run.json") >"$out/$run.report.diff" || same=DIFFERENT
  fi
  printf '%-8s %s load-before %s output %s\n' "$run" "$(cat "$out/$run.usage")" "$load" "$same" | tee -a "$out/summary.txt"
  first=${first:-$run}
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, runs on CPUs $cpus; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)" |
  tee -a "$out/summary.txt"
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then
    run_one "$a_name$round" "$a_bin"; run_one "$b_name$round" "$b_bin"
  else
    run_one "$b_name$round" "$b_bin"; run_one "$a_name$round" "$a_bin"
  fi
done
