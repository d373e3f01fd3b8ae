#!/usr/bin/env bash
# The wave64 mode's GPU check (docs/wave64.md), in two halves so that the build runs where there is no GPU:
#   wave64_check.sh build BUILD_DIR OUT   the worker's HIP-on-NVIDIA toolchain (gen_hip_on_cuda --toolchain), the
#                                         conformance test, planted mutants of the layer, and the kernel set of
#                                         examples/wave64-kernels in five forms: the CUDA original; a rename-only
#                                         port (naive_port.sh) for sm_90 and sm_90:wave64; the product's
#                                         translation (migrate-cli translate) for sm_90 and sm_90:wave64; and the
#                                         translation with the to-dos a person applies (hand_fixes/) for wave64
#   wave64_check.sh run OUT               on the GPU host: runs them all, writes OUT/results.txt (a table) and
#                                         exits 1 when the layer fails its conformance test or a mutant passes it
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
mode=${1:?build|run}

build() {
  local build_dir=$1 out=$2 jobs
  jobs=$(nproc)
  rm -rf "$out" && mkdir -p "$out"/bin "$out"/kernels
  "$build_dir/bin/gen_hip_on_cuda" --toolchain "$out/toolchain" sm_90 >/dev/null || return 1
  local hipcc="$out/toolchain/bin/hipcc" flags=(-O2 -std=c++17 --cudart=shared)
  "$hipcc" --offload-arch=sm_90:wave64 "${flags[@]}" "$here/conformance.hip" -o "$out/bin/conformance" || return 1
  # Mutants: each a one-line change of hipforge_wave64.h that the conformance test must catch.
  local -a mutants=(
    's/((self \& (width - 1)) + arg) >= width ? self : self + arg/((self \& (width - 1)) + arg) > width ? self : self + arg/'
    's/  if (!((e.active >> index) \& 1ull)) return 0u;/  (void)0;/'
    's/(static_cast<unsigned long long>(e.upper_word) << 32 | e.lower_word) \& e.active;/(static_cast<unsigned long long>(e.lower_word) << 32 | e.upper_word) \& e.active;/'
    's/    if (PartnerExists() \&\& !alone) {/    if (false) {/')
  local i=0
  for m in "${mutants[@]}"; do
    i=$((i + 1))
    local tc="$out/mutant$i"
    cp -r "$out/toolchain" "$tc"
    sed -i "s|$out/toolchain|$tc|g" "$tc/bin/hipcc"
    sed -i "$m" "$tc/include/hipforge_wave64.h"
    if cmp -s "$tc/include/hipforge_wave64.h" "$out/toolchain/include/hipforge_wave64.h"; then
      echo "mutant $i did not apply: $m" >&2
      return 1
    fi
    "$tc/bin/hipcc" --offload-arch=sm_90:wave64 "${flags[@]}" "$here/conformance.hip" -o "$out/bin/conformance-mutant$i" &
  done
  wait
  # The kernel set in its forms.
  local kernels="$repo/examples/wave64-kernels"
  "$here/naive_port.sh" "$kernels/src" "$out/src-naive"
  "$build_dir/bin/migrate-cli" -q translate "$kernels" -o "$out/translated" --hip-version 6.4 >/dev/null || return 1
  # What a person does with the to-dos the translation leaves: hand_fixes/ holds those files as fixed by hand.
  cp -r "$out/translated/src" "$out/src-fixed"
  cp "$here"/hand_fixes/*.cu "$out/src-fixed/"
  local forms=("cuda:$kernels/src" "naive-sm_90:$out/src-naive" "naive-wave64:$out/src-naive"
               "translated-sm_90:$out/translated/src" "translated-wave64:$out/translated/src"
               "fixed-wave64:$out/src-fixed")
  for form in "${forms[@]}"; do
    local name=${form%%:*} src=${form#*:}
    mkdir -p "$out/kernels/$name"
    for f in "$src"/k*.cu; do
      local k exe
      k=$(basename "$f" .cu)
      exe="$out/kernels/$name/$k"
      case $name in
        cuda) echo "/usr/local/cuda/bin/nvcc -arch=sm_90 ${flags[*]} -I$src $f -o $exe" ;;
        *-sm_90) echo "$hipcc --offload-arch=sm_90 ${flags[*]} -I$src $f -o $exe" ;;
        *-wave64) echo "$hipcc --offload-arch=sm_90:wave64 ${flags[*]} -I$src $f -o $exe" ;;
      esac
    done
  done | xargs -P "$jobs" -I{} sh -c '{} > /dev/null 2>&1 || echo "build failed: {}"'
  # The analyzer's warp-size goldens (HB101-HB105 fixed.cu, translated): they must build under wave64, nothing
  # refused. (They are kernels without a main; what each pattern computes is run by the kernel set above.)
  mkdir -p "$out/goldens"
  for rule in HB101 HB102 HB103 HB104 HB105; do
    local g="$repo/tests/analyze/rules/$rule"
    [ -f "$g/fixed.cu" ] || continue
    mkdir -p "$out/goldens/$rule-cuda" && cp "$g/fixed.cu" "$out/goldens/$rule-cuda/fixed.cu"
    "$build_dir/bin/migrate-cli" -q translate "$out/goldens/$rule-cuda" -o "$out/goldens/$rule" --no-fixes --hip-version 6.4 >/dev/null 2>&1
    if "$hipcc" --offload-arch=sm_90:wave64 "${flags[@]}" -c "$out/goldens/$rule/fixed.cu" -o "$out/goldens/$rule.o" \
         > "$out/goldens/$rule.log" 2>&1; then
      echo "golden $rule: fixed.cu builds under sm_90:wave64" >> "$out/goldens/results.txt"
    else
      echo "golden $rule: fixed.cu does NOT build under sm_90:wave64: $(grep -m1 -E 'error|refused' "$out/goldens/$rule.log")" >> "$out/goldens/results.txt"
    fi
  done
  "$hipcc" --offload-arch=sm_90 "${flags[@]}" "$repo/bench/nvidia/wave64_overhead.hip" -o "$out/bin/overhead-sm_90"
  "$hipcc" --offload-arch=sm_90:wave64 "${flags[@]}" "$repo/bench/nvidia/wave64_overhead.hip" -o "$out/bin/overhead-wave64"
  rm -rf "$out/mutant"*/lib "$out/toolchain/lib"
  echo "built into $out"
}

run() {
  local out=$1 status=0
  cd "$out" || return 1
  {
    echo "# wave64 conformance ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null))"
    local t0=$SECONDS
    timeout 300 ./bin/conformance 20000 || status=1
    echo "conformance wall time: $((SECONDS - t0)) s, exit ${status}"
    for m in bin/conformance-mutant*; do
      if timeout 120 "./$m" 2000 > "$m.log" 2>&1; then
        echo "MUTANT NOT CAUGHT: $m"
        status=1
      else
        echo "mutant caught: $m ($(grep -c '^FAIL' "$m.log") FAIL lines; first: $(grep -m1 '^FAIL' "$m.log"))"
      fi
    done
    echo
    echo "# kernel set (examples/wave64-kernels): PASS/FAIL per form"
    printf '%-28s' kernel
    local forms=(cuda naive-sm_90 naive-wave64 translated-sm_90 translated-wave64 fixed-wave64)
    for f in "${forms[@]}"; do printf ' %-18s' "$f"; done
    echo
    for exe in kernels/cuda/k*; do
      local k
      k=$(basename "$exe")
      printf '%-28s' "$k"
      for f in "${forms[@]}"; do
        local r
        if [ ! -x "kernels/$f/$k" ]; then r=no-build
        elif timeout 60 "kernels/$f/$k" > "kernels/$f/$k.log" 2>&1; then r=pass
        else r="FAIL($?)"
        fi
        grep -q "hipforge-wave64: approximate" "kernels/$f/$k.log" 2>/dev/null && r="$r~"
        printf ' %-18s' "$r"
      done
      echo
    done
    echo "(~: the layer printed a hipforge-wave64: approximate line)"
    echo
    echo "# overhead: the same warp-reduction kernels, HIP on sm_90 vs sm_90:wave64"
    ./bin/overhead-sm_90
    ./bin/overhead-wave64
  } > results.txt 2>&1
  cat results.txt
  return $status
}

case $mode in
  build) build "${2:?BUILD_DIR}" "${3:?OUT}" ;;
  run) run "${2:?OUT}" ;;
  *) echo "usage: $0 build BUILD_DIR OUT | run OUT" >&2; exit 2 ;;
esac
