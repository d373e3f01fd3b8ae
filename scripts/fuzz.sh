#!/usr/bin/env bash
# libFuzzer targets (fuzz/): build them with clang-16 next to the main build, or run them.
#   scripts/fuzz.sh build                      configure + build into $BUILD_DIR/fuzz-clang
#   scripts/fuzz.sh run SECONDS [TARGET...]    run each target (default: all) for SECONDS on a copy of
#                                              its seed corpus; prints executions/s and coverage
# A crash, leak or timeout fails the run; the reproducer is kept in $FUZZ_OUT (default: a temp dir)
# and its path printed: turn it into a regression test (tests/hostile) and a seed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-$here/build}
fuzz_dir=$build_dir/fuzz-clang
all_targets=(archive_fuzzer submit_stream_fuzzer manifest_fuzzer cmake_tokenizer_fuzzer token_pass_fuzzer
             http_query_fuzzer)

build() {
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$here} CCACHE_NOHASHDIR=1
  cmake -S "$here/fuzz" -B "$fuzz_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-16 -DCMAKE_CXX_COMPILER=clang++-16 -DHIPFORGE_BUILD_DIR="$build_dir" >/dev/null
  cmake --build "$fuzz_dir" -j "${JOBS:-$(nproc)}"
}

run() {
  local seconds=$1
  shift
  local targets=("$@")
  [ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
  local out=${FUZZ_OUT:-$(mktemp -d /tmp/hipforge-fuzz.XXXXXX)}
  local failed=0
  for target in "${targets[@]}"; do
    local binary=$fuzz_dir/bin/$target
    [ -x "$binary" ] || { echo "fuzz.sh: $binary missing: run scripts/fuzz.sh build" >&2; exit 2; }
    local corpus=$out/$target-corpus
    mkdir -p "$corpus"
    local log=$out/$target.log
    # New inputs go to the temp corpus; the committed seeds (and the example repository) are read only.
    local seeds=("$here/fuzz/corpus/$target")
    case $target in
      token_pass_fuzzer | cmake_tokenizer_fuzzer) seeds+=("$here/examples/cuda-vector-stats") ;;
    esac
    if "$binary" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2560 -print_final_stats=1 \
         -artifact_prefix="$out/$target-" "$corpus" "${seeds[@]}" >"$log" 2>&1; then
      local runs rate cov ft
      runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
      rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
      cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
      ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
      echo "fuzz.sh: $target: ${seconds}s, $runs runs, $rate exec/s, coverage $cov edges, $ft features, corpus $(ls "$corpus" | wc -l) new inputs"
    else
      echo "fuzz.sh: $target FAILED (log $log); reproducer: $(ls "$out/$target-"* 2>/dev/null | head -1)" >&2
      tail -40 "$log" >&2
      failed=1
    fi
  done
  return $failed
}

case "${1:-}" in
  build) build ;;
  run) shift; run "${1:?seconds}" "${@:2}" ;;
  *) echo "usage: scripts/fuzz.sh build | run SECONDS [TARGET...]" >&2; exit 2 ;;
esac
