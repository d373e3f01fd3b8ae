#!/usr/bin/env bash
# CPU and wall of the translate path, for issue 15's before/after table (bench/translate/README.md).
# usage: measure.sh BIN_DIR RESULTS_DIR [example|lit|ggml ...]   (default: example lit)
#   BIN_DIR: a build's bin/ (hipforge-repo-migrate, migrate-hipify); copy it first when the build may change.
#   example: the bundled examples/cuda-vector-stats, cold (fresh cache) then unchanged re-run (--cache).
#   lit:     HIPIFY's lit suite ($HIPIFY, default /work/ext/HIPIFY) through shared/tools/hipify_lit.py --jobs 2.
#   ggml:    ggml-org/ggml ($GGML, default /work/ext/ggml), cold then unchanged re-run with --cache.
# Each run goes through /usr/bin/time -v; RESULTS_DIR/<name>.time keeps its output, RESULTS_DIR/summary.txt one
# line per run (wall, user+sys CPU, peak RSS, load average before). Run it niced on a shared machine.
set -euo pipefail
bin=$(cd "$1" && pwd); out=$2; shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"; out=$(cd "$out" && pwd)
# KEEP_WORK=DIR keeps the caches and output trees there (to compare the cold and re-run outputs byte for byte).
if [ -n "${KEEP_WORK:-}" ]; then mkdir -p "$KEEP_WORK"; work=$(cd "$KEEP_WORK" && pwd); else
  work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
line() {  # name time-file
  local wall user sys rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/{print $2}' "$2")
  user=$(awk -F': ' '/User time/{print $2}' "$2"); sys=$(awk -F': ' '/System time/{print $2}' "$2")
  rss=$(awk -F': ' '/Maximum resident/{print $2}' "$2")
  printf '%-16s wall %-9s cpu %7.1f s (user %s sys %s; task-clock with sandboxed children %s s) peak %d MB load-before %s\n' \
    "$1" "$wall" "$(echo "$user + $sys" | bc)" "$user" "$sys" "$4" $((rss / 1024)) "$3" | tee -a "$out/summary.txt"
}
timed() {  # name command...
  local name=$1; shift
  local load; load=$(cut -d' ' -f1-3 /proc/loadavg)
  # perf's task-clock also counts the sandboxed build discovery (bwrap's own PID namespace), which time -v misses.
  /usr/bin/time -v -o "$out/$name.time" perf stat -e task-clock -x, -o "$out/$name.perf" "$@" >"$out/$name.log" 2>&1 ||
    echo "$name: exit $?" | tee -a "$out/summary.txt"
  line "$name" "$out/$name.time" "$load" "$(awk -F, '/task-clock/{printf "%.2f", $1/1000}' "$out/$name.perf")"
}
units() {  # report.json: CUDA/C++ sources and headers in the report (what the translator saw)
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); f=r["translation"]["files"]
print(sum(1 for x in f if x["kind"] in ("cuda-source","cpp-source","header")))' "$1" 2>/dev/null || echo "?"
}
repo() {  # name input
  local name=$1 input=$2
  timed "$name-cold" "$bin/hipforge-repo-migrate" --cache "$work/$name-cache" --report "$out/$name-cold.json" \
    --patch "$out/$name-cold.patch" "$input" "$work/$name-out1"
  timed "$name-cached" "$bin/hipforge-repo-migrate" --cache "$work/$name-cache" --report "$out/$name-cached.json" \
    --patch "$out/$name-cached.patch" "$input" "$work/$name-out2"
  echo "$name: translated files in the report: $(units "$out/$name-cold.json")" | tee -a "$out/summary.txt"
  # The re-run must give the same tree and patch; of the report only from_cache and the cache note may differ.
  local same=same; diff -rq "$work/$name-out1" "$work/$name-out2" >/dev/null || same=DIFFERENT
  cmp -s "$out/$name-cold.patch" "$out/$name-cached.patch" || same="$same, patch DIFFERENT"
  echo "$name: re-run output tree and patch vs cold: $same" | tee -a "$out/summary.txt"
}
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(example lit)
echo "# $(date -u +%FT%TZ) $(nproc) cores; bin $bin" | tee -a "$out/summary.txt"
for target in "${targets[@]}"; do
  case $target in
    example) repo example "$here/examples/cuda-vector-stats" ;;
    ggml) repo ggml "${GGML:-/work/ext/ggml}" ;;
    lit)
      PATH=/usr/lib/llvm-16/bin:$PATH XDG_CACHE_HOME=$work/lit-cache timed lit \
        python3 "${HIPIFY_LIT:-/work/shared/tools/hipify_lit.py}" --suite "${HIPIFY:-/work/ext/HIPIFY}/tests/unit_tests" \
        --jobs 2 --tool "$bin/migrate-hipify -o={out} {inp} {opts} -- {clang}"
      grep "^passed" "$out/lit.log" | tee -a "$out/summary.txt" ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
  esac
done
