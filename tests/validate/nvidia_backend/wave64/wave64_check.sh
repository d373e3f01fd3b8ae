#!/usr/bin/env bash
# The wave64 mode's GPU check (docs/wave64.md), in two halves so that the build runs where there is no GPU:
#   wave64_check.sh build BUILD_DIR OUT   the worker's HIP-on-NVIDIA toolchain (gen_hip_on_cuda --toolchain), the
#                                         conformance test, planted mutants of the layer, and the kernel set of
#                                         examples/wave64-kernels in five forms: the CUDA original; a rename-only
#                                         port (naive_port.sh) for sm_90 and sm_90:wave64; the product's
#                                         translation (migrate-cli translate) for sm_90 and sm_90:wave64; and the
#                                         translation with the to-dos a person applies (hand_fixes/) for wave64;
#                                         and the analyzer's warp-size goldens (HB101-HB105) in drivers that run
#                                         their kernels (golden_drivers/), as warp32 reference, fixed and unfixed
#   wave64_check.sh run OUT               on the GPU host: runs them all, writes OUT/results.txt (tables) and
#                                         exits 1 when the layer fails its conformance test or a mutant passes it
#                                         (a golden's FAIL shows in results.txt and does not change the status)
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
  # The analyzer's warp-size goldens (tests/analyze/rules/HB101-HB105), run: golden_drivers/HB10N.hip includes one
  # translated golden (GOLDEN_SOURCE) and launches each of its kernels, one `kernel` line each. Three builds per
  # rule: reference = input.cu for sm_90 (warp32: the CUDA author's meaning), checked = fixed.cu for sm_90:wave64,
  # unfixed = input.cu for sm_90:wave64. A golden without fixed.cu (the rule only reports) is checked as its input.
  # Each file is translated alone (a directory holding only it), without the analyzer's fixes.
  mkdir -p "$out/goldens/bin" "$out/goldens/logs"
  : > "$out/goldens/results.txt"
  local -a golden_builds=()
  for rule in HB101 HB102 HB103 HB104 HB105; do
    local g="$repo/tests/analyze/rules/$rule" driver="$here/golden_drivers/$rule.hip" variant
    [ -f "$g/input.cu" ] && [ -f "$driver" ] || continue
    for variant in input fixed; do
      [ -f "$g/$variant.cu" ] || continue
      mkdir -p "$out/goldens/$rule-$variant-cuda" && cp "$g/$variant.cu" "$out/goldens/$rule-$variant-cuda/$variant.cu"
      "$build_dir/bin/migrate-cli" -q translate "$out/goldens/$rule-$variant-cuda" -o "$out/goldens/$rule-$variant" \
        --no-fixes --hip-version 6.4 >/dev/null 2>&1
    done
    local checked=$out/goldens/$rule-fixed/fixed.cu
    [ -f "$g/fixed.cu" ] || checked=$out/goldens/$rule-input/input.cu
    golden_builds+=("$rule reference sm_90 $out/goldens/$rule-input/input.cu"
                    "$rule checked sm_90:wave64 $checked")
    [ -f "$g/fixed.cu" ] && golden_builds+=("$rule unfixed sm_90:wave64 $out/goldens/$rule-input/input.cu")
  done
  local spec running=0
  for spec in "${golden_builds[@]}"; do
    local rule form arch src
    read -r rule form arch src <<< "$spec"
    "$hipcc" --offload-arch="$arch" "${flags[@]}" -DGOLDEN_SOURCE="\"$src\"" "$here/golden_drivers/$rule.hip" \
      -o "$out/goldens/bin/$rule-$form" > "$out/goldens/logs/$rule-$form.build.log" 2>&1 &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  done
  wait
  for spec in "${golden_builds[@]}"; do
    local rule form arch src line
    read -r rule form arch src <<< "$spec"
    if [ -x "$out/goldens/bin/$rule-$form" ]; then
      line="golden $rule: $(basename "$src") builds under $arch -> goldens/bin/$rule-$form"
    else
      line="golden $rule: $(basename "$src") does NOT build under $arch ($form): $(grep -m1 -E 'error|refused' \
        "$out/goldens/logs/$rule-$form.build.log")"
    fi
    echo "$line" >> "$out/goldens/results.txt"
  done
  cat "$out/goldens/results.txt"
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
    goldens
    echo
    echo "# overhead: the same warp-reduction kernels, HIP on sm_90 vs sm_90:wave64"
    ./bin/overhead-sm_90
    ./bin/overhead-wave64
  } > results.txt 2>&1
  cat results.txt
  return $status
}

# One `kernel NAME ...` line of a golden driver (goldens/bin/RULE-FORM KERNEL; its output in goldens/logs/), or
# why there is none: no-build, timeout, crash(RC), no-line.
golden_line() {
  local rule=$1 form=$2 k=$3 exe=goldens/bin/$1-$2 log=goldens/logs/$1-$2-$3.log rc line
  [ -x "$exe" ] || { echo no-build; return; }
  timeout 120 "./$exe" "$k" > "$log" 2>&1
  rc=$?
  line=$(grep -m1 "^kernel $k " "$log")
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then echo timeout
  elif [ $rc -ne 0 ]; then echo "crash($rc)"
  elif [ -z "$line" ]; then echo no-line
  else echo "$line"
  fi
}

# A table cell: "=ref" when LINE is the reference's line REF, else the digest of RULE and LINE (or why there is no
# line).
golden_cell() {
  local rule=$1 line=$2 ref=$3
  case $line in
    kernel\ *) if [ -n "$ref" ] && [ "$line" = "$ref" ]; then echo "=ref"
               else printf '%08x' "$(printf '%s %s' "$rule" "$line" | cksum | cut -d' ' -f1)"; fi ;;
    *) echo "$line" ;;
  esac
}

# The analyzer's goldens under wave64: per kernel, the reference's line (input.cu, sm_90) against the checked
# (fixed.cu, sm_90:wave64) and unfixed (input.cu, sm_90:wave64) builds' lines. pass: checked = reference.
goldens() {
  echo "# analyzer goldens under wave64 (tests/analyze/rules/HB101-HB105 through golden_drivers/): reference ="
  echo "# input.cu on sm_90 (warp32), checked = fixed.cu on sm_90:wave64 (a golden without fixed.cu: input.cu),"
  echo "# unfixed = input.cu on sm_90:wave64. A cell is the digest of the kernel's line, =ref when it is the reference's."
  [ -f goldens/results.txt ] && cat goldens/results.txt
  printf '%-6s %-20s %-8s %-10s %-10s %-12s %s\n' rule kernel compare reference checked unfixed verdict
  local n=0 pass=0 fail=0 differ=0 details="" ref rule k r c u kind rcell ccell ucell verdict
  for ref in goldens/bin/HB*-reference; do
    [ -x "$ref" ] || continue
    rule=$(basename "$ref" -reference)
    for k in $("./$ref" --list); do
      r=$(golden_line "$rule" reference "$k")
      c=$(golden_line "$rule" checked "$k")
      u=-
      [ -f "goldens/logs/$rule-unfixed.build.log" ] && u=$(golden_line "$rule" unfixed "$k")
      kind=-
      case $r in kernel\ *) kind=$(echo "$r" | cut -d' ' -f3) ;; *) r="reference:$r" ;; esac
      rcell=$(golden_cell "$rule" "$r" "")
      ccell=$(golden_cell "$rule" "$c" "$r")
      ucell=$(golden_cell "$rule" "$u" "$r")
      [ "$u" != - ] || ucell="-(no fixes)"
      grep -q "hipforge-wave64: approximate" "goldens/logs/$rule-checked-$k.log" 2>/dev/null && ccell="$ccell~"
      grep -q "hipforge-wave64: approximate" "goldens/logs/$rule-unfixed-$k.log" 2>/dev/null && ucell="$ucell~"
      n=$((n + 1))
      if [ "$c" = "$r" ]; then
        verdict=pass
        pass=$((pass + 1))
      else
        verdict=FAIL
        fail=$((fail + 1))
        details+="FAIL $rule $k"$'\n'"  reference: ${r:0:600}"$'\n'"  checked:   ${c:0:600}"$'\n'
      fi
      [ "$u" = - ] || [ "$u" = "$r" ] || differ=$((differ + 1))
      printf '%-6s %-20s %-8s %-10s %-10s %-12s %s\n' "$rule" "$k" "$kind" "$rcell" "$ccell" "$ucell" "$verdict"
    done
  done
  echo "(~: the layer printed a hipforge-wave64: approximate line; every run's output: goldens/logs/)"
  printf '%s' "$details"
  echo "goldens: $n kernels, $pass pass under wave64, $fail fail; $differ where the unfixed translation differs"
}

case $mode in
  build) build "${2:?BUILD_DIR}" "${3:?OUT}" ;;
  run) run "${2:?OUT}" ;;
  *) echo "usage: $0 build BUILD_DIR OUT | run OUT" >&2; exit 2 ;;
esac
