#!/usr/bin/env bash
# ggml's test-backend-ops through the product on the lent GPU host (device tool), in calls of at most 10 minutes:
# the job (translate, migrated build through HIP's NVIDIA layer, the CUDA original's build, test-backend-ops in both)
# runs longer than one call, so `start` leaves bench/nvidia/on-gpu-host.sh running in its own session and `wait`
# calls collect what it has so far. The repository submitted is ggml as fetched plus the user configuration in
# bench/ggml/repo-config (hipforge.yaml and the per-op summary script); nothing is built or run by hand.
#   [BACKEND_OPS_LIMIT_S=N] [BACKEND_OPS_NO_VMM=1] h200-backend-ops.sh start BUNDLE.tar.xz GGML.tar.gz  (GGML.tar.gz holds ggml/ at its top)
#   h200-backend-ops.sh wait SECONDS OUT_DIR                (returns when the job ended or SECONDS passed)
set -uo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
state=/tmp/ggml-h200 work=/tmp/hipforge-bench
case ${1:-} in
  start)
    rm -rf "$state" && mkdir -p "$state/repo"
    tar -xzf "$3" -C "$state/repo" || exit 2
    cp "$here/bench/ggml/repo-config/hipforge.yaml" "$state/repo/ggml/"
    # BACKEND_OPS_LIMIT_S: the user's time limit for test-backend-ops (the yaml's 360 s) set lower, for a session
    # whose device time left cannot hold the whole suite; the summary then counts the cases run so far.
    [ -z "${BACKEND_OPS_LIMIT_S:-}" ] ||
      sed -i "s/test-backend-ops.log 360/test-backend-ops.log $BACKEND_OPS_LIMIT_S/" "$state/repo/ggml/hipforge.yaml"
    # BACKEND_OPS_NO_VMM=1: ggml's CUDA pool without virtual memory (GGML_CUDA_NO_VMM=ON, as on 2026-12-06), which
    # the suite runs through faster on the NVIDIA layer (warp32: 283 s without, more than 360 s with).
    [ "${BACKEND_OPS_NO_VMM:-0}" != 1 ] ||
      sed -i 's/"-DGGML_NATIVE=OFF"]/"-DGGML_NATIVE=OFF", "-DGGML_CUDA_NO_VMM=ON"]/' "$state/repo/ggml/hipforge.yaml"
    mkdir -p "$state/repo/ggml/hipforge" && cp "$here/bench/ggml/repo-config/backend-ops-summary.sh" "$state/repo/ggml/hipforge/"
    date +%s >"$state/started"
    # The host's CMake lives in a virtual environment (shared/facts/gpu-host.md); the workers find it on PATH.
    command -v cmake >/dev/null || export PATH=$PATH:/opt/torch/.venv/bin
    # The targets are the repository's (repo-config/hipforge.yaml: sm_90:wave64): TARGETS set empty submits without
    # --target. Left unset, the runner's default `--target sm_90` overrode the yaml (the warp32 run of 15:10 UTC).
    TARGETS=${TARGETS-} MIGRATE_NO_PROFILE=1 WORKERS=2 PARALLEL=1 JOB_TIMEOUT=3000 BUDGET_S=3100 \
      setsid nohup bash "$here/bench/nvidia/on-gpu-host.sh" "$2" "$state/out" "$state/repo/ggml" \
      >"$state/runner.log" 2>&1 </dev/null &
    echo "started job runner (pid $!)" ;;
  wait)
    out=$3 deadline=$((SECONDS + $2))
    mkdir -p "$out"
    while [ $SECONDS -lt $deadline ] && ! [ -s "$state/out/summary.tsv" ]; do sleep 5; done
    sleep 2  # the runner's EXIT trap writes reports.tar.gz after summary.tsv
    job=$(head -n 1 "$work/reports/ggml.submit.out" 2>/dev/null)
    if [ -n "$job" ]; then
      MIGRATE_TOKEN_FILE=$work/token MIGRATE_SERVER=127.0.0.1:$(cat "$work/port") \
        /tmp/hipforge-bundle/hipforge/bin/hipforge-env migrate-cli status "$job" >"$out/status.txt" 2>&1
    fi
    echo "elapsed $(( $(date +%s) - $(cat "$state/started") )) s" >>"$out/status.txt"
    cp "$work/reports/ggml.submit.err" "$out/" 2>/dev/null
    for f in summary.tsv reports.tar.gz host.txt; do cp "$state/out/$f" "$out/" 2>/dev/null; done
    tail -c 200000 "$state/out/server.log" >"$out/server-tail.log" 2>/dev/null
    cp "$state/runner.log" "$out/" 2>/dev/null
    cat "$out/status.txt" ;;
  *) echo "usage: $0 start BUNDLE GGML.tar.gz | wait SECONDS OUT_DIR" >&2; exit 2 ;;
esac
