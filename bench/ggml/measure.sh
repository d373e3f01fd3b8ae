#!/usr/bin/env bash
# ggml through migrate-cli translate (cold, then the unchanged re-run), hipify-perl and hipify-clang, back to back,
# each under /usr/bin/time -v (CPU = user+sys of the process and the children it waited for) and perf stat
# (task-clock also counts the sandboxed CMake configure of the build discovery, which time -v misses).
# usage: measure.sh OUT_DIR [ours|rerun|noprefix|skip|norepeat|perl|clang ...]
#   (default: ours rerun perl clang, in that order)
#   noprefix: ours cold with the per-job prefix PCHs off (HIPFORGE_PREFIX_PCH=0), its tree, report and patch
#   diffed against ours (run ours first)
#   ours parses every unit (HIPFORGE_SKIP_COVERED_UNITS=0); skip leaves units an earlier unit covers unparsed but
#   for the analyzer's rules-only parse of their instantiations (HIPFORGE_SKIP_COVERED_UNITS=1, the default since
#   2026-12-07; the report diff also lists their `covered_by`); norepeat: with every device-side parse
#   (HIPFORGE_SKIP_REPEATED_DEVICE_PARSES=0)
#   MIGRATE_CLI   migrate-cli to run (default build/bin/migrate-cli)
#   GGML          the ggml tree (default /tmp/ggml), never written
#   HIPIFY_PERL   hipify-perl (ROCm/HIPIFY bin/hipify-perl); HIPIFY_CLANG: hipify-clang built against LLVM 16
#   CUDA_ARGS     Clang arguments for hipify-clang after `--` (defines and include dirs of ggml's CUDA units; README)
# OUT_DIR/<name>.time|.perf|.log per run, OUT_DIR/summary.txt one line per run, OUT_DIR/<name>-out the output tree.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd); shift
here=$(cd "$(dirname "$0")/../.." && pwd)
cli=${MIGRATE_CLI:-$here/build/bin/migrate-cli}
ggml=${GGML:-/tmp/ggml}
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(ours rerun perl clang)

line() {  # name
  local t=$out/$1.time user sys rss wall
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/{print $2}' "$t")
  user=$(awk -F': ' '/User time/{print $2}' "$t"); sys=$(awk -F': ' '/System time/{print $2}' "$t")
  rss=$(awk -F': ' '/Maximum resident/{print $2}' "$t")
  printf '%-8s wall %-8s cpu %6.1f s (user %s sys %s; task-clock %s s) peak %d MB load-before %s\n' "$1" "$wall" \
    "$(echo "$user + $sys" | bc)" "$user" "$sys" "$(awk -F, '/task-clock/{printf "%.1f", $1/1000}' "$out/$1.perf")" \
    $((rss / 1024)) "$2" | tee -a "$out/summary.txt"
}
timed() {  # name command...
  local name=$1 load; shift
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  /usr/bin/time -v -o "$out/$name.time" perf stat -e task-clock -x, -o "$out/$name.perf" "$@" >"$out/$name.log" 2>&1 ||
    echo "$name: exit $?" | tee -a "$out/summary.txt"
  line "$name" "$load"
}
cuda_files() { (cd "$1" && find . -name '*.cu' -o -name '*.cuh' | sort); }

echo "# $(date -u +%FT%TZ) $(nproc) cores; $(cd "$here" && git rev-parse --short HEAD); ggml $ggml" | tee -a "$out/summary.txt"
for target in "${targets[@]}"; do
  case $target in
    ours|noprefix|skip|norepeat)
      rm -rf "$out/cache-$target" "$out/$target-out"
      HIPFORGE_PREFIX_PCH=$([ "$target" = noprefix ] && echo 0 || echo 1) \
        HIPFORGE_SKIP_COVERED_UNITS=$([ "$target" = skip ] && echo 1 || echo 0) \
        HIPFORGE_SKIP_REPEATED_DEVICE_PARSES=$([ "$target" = norepeat ] && echo 0 || echo 1) \
        timed "$target" "$cli" translate "$ggml" \
        -o "$out/$target-out" --cache "$out/cache-$target" --hip-version 6.4 --report "$out/$target.json" \
        --patch "$out/$target.patch" --format json
      if [ "$target" != ours ] && [ -d "$out/ours-out" ]; then  # diffed against an earlier ours
        same=yes
        diff -r "$out/ours-out" "$out/$target-out" >"$out/$target.tree.diff" || same=no
        cmp -s "$out/ours.patch" "$out/$target.patch" || same=no
        # The reports, but for the build discovery's scratch directory (a random name per run).
        for run in ours "$target"; do
          jq -S . "$out/$run.json" | sed -E 's/hipforge-build-[0-9]+/hipforge-build-N/g' >"$out/$run.report.json"
        done
        diff "$out/ours.report.json" "$out/$target.report.json" >"$out/$target.report.diff" || same=no
        echo "$target: tree, patch and report identical to ours: $same" | tee -a "$out/summary.txt"
      fi ;;
    rerun)
      rm -rf "$out/rerun-out"
      timed rerun "$cli" translate "$ggml" -o "$out/rerun-out" --cache "$out/cache-ours" --hip-version 6.4 \
        --report "$out/rerun.json" --patch "$out/rerun.patch" --format json
      diff -r "$out/ours-out" "$out/rerun-out" >/dev/null && echo "rerun: output tree as cold" | tee -a "$out/summary.txt" ;;
    perl)  # one process over every CUDA file, in place on a copy (what hipconvertinplace-perl.sh does)
      rm -rf "$out/perl-out"; cp -r "$ggml" "$out/perl-out"
      mapfile -t files < <(cuda_files "$out/perl-out")
      (cd "$out/perl-out" && timed perl perl "${HIPIFY_PERL:?}" -inplace -quiet-warnings "${files[@]}")
      find "$out/perl-out" -name '*.prehip' -delete ;;
    clang)  # one process per CUDA file, in place on a copy: one process over all of them ends at the first crash
      # (it segfaulted on src/ggml-cuda/argsort.cu, 13 s in); OUT_DIR/clang.files.tsv: file, exit code
      rm -rf "$out/clang-out"; cp -r "$ggml" "$out/clang-out"
      mapfile -t files < <(cuda_files "$out/clang-out")
      # shellcheck disable=SC2016
      (cd "$out/clang-out" && timed clang bash -c 'tool=$1 args=$2 tsv=$3; shift 3
        for f in "$@"; do
          # shellcheck disable=SC2086
          "$tool" --inplace --cuda-path=/usr/local/cuda --clang-resource-directory=/usr/lib/llvm-16/lib/clang/16 \
            "$f" -- $args >/dev/null 2>&1
          printf "%s\t%s\n" "$f" "$?" >>"$tsv"
        done' _ "${HIPIFY_CLANG:?}" "${CUDA_ARGS:-}" "$out/clang.files.tsv" "${files[@]}")
      awk -F'\t' '{n++; if ($2 != 0) bad++} END {printf "clang: %d files, %d exited non-zero\n", n, bad}' \
        "$out/clang.files.tsv" | tee -a "$out/summary.txt"
      find "$out/clang-out" -name '*.prehip' -delete ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
  esac
done
