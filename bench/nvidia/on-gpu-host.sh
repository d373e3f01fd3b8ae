#!/usr/bin/env bash
# Runs on the lent GPU host (device tool): unpacks the service bundle (scripts/make-gpu-bundle.sh) and measures
# through the product only: one migrate-server (embedded PostgreSQL, local translate + validate workers, which
# find the H200 and validate on HIP's NVIDIA platform), each repository submitted unchanged with
# `migrate-cli submit --wait --target sm_90` (TARGETS="sm_90 sm_90:wave64" for more; TARGETS= set empty: no
# --target, the repository's hipforge.yaml chooses), the reports kept. Nothing is
# built, patched or run by hand. MIGRATE_NO_PROFILE=1 leaves kernel profiles out (GPU time); MIGRATE_GPU_SLOTS=N lets
# N jobs' tests share the GPU (the pool's --gpu-slots; profiles off). A REPOSITORY written DIR=T1,T2 is submitted
# with those targets instead of TARGETS.
#   bench/nvidia/on-gpu-host.sh BUNDLE.tar.xz OUT_DIR REPOSITORY[=TARGETS]...
# OUT_DIR gets host.txt, summary.tsv (name, exit code, seconds), reports.tar.gz (JSON and text reports, CLI
# logs) and server.log.
set -uo pipefail
bundle=$1 out=$2
shift 2
root=/tmp/hipforge-bundle work=/tmp/hipforge-bench
# A warm host keeps the last call's files: a stale port file would send every client to a server that is gone.
rm -rf "$work"
mkdir -p "$root" "$out" "$work/reports"
tar -xJf "$bundle" -C "$root" && chmod 755 "$root" "$root/hipforge"
# PostgreSQL refuses to run as root; the embedded store runs it as this account.
id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
export PATH=$root/hipforge/bin:/usr/local/cuda/bin:$PATH
env=$root/hipforge/bin/hipforge-env
{
  echo "bundle $(cat "$root/hipforge/VERSION"); $(. /etc/os-release; echo "$PRETTY_NAME"); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  for b in migrate-server migrate-worker migrate-cli; do ldd "$root/hipforge/bin/$b" | grep "not found" | sed "s/^/$b: /"; done
} | tee "$out/host.txt"
"$env" migrate-server --listen 127.0.0.1:0 --data-dir "$work/data" --local-workers "${WORKERS:-4}" \
  --local-worker-roles translate,validate --port-file "$work/port" > "$out/server.log" 2>&1 &
server_pid=$!
# The reports so far come back even when the device call's time runs out and the script is killed.
trap 'tar -C "$work" -czf "$out/reports.tar.gz" reports 2>/dev/null' EXIT
trap 'exit 143' TERM INT
for _ in $(seq 1 120); do [ -s "$work/port" ] && break; sleep 0.5; done
"$env" migrate-server token create --data-dir "$work/data" --team bench --scopes submit,read --expires 1d \
  > "$work/token" 2>>"$out/server.log"
export MIGRATE_TOKEN_FILE=$work/token MIGRATE_SERVER=127.0.0.1:$(cat "$work/port")
submit_one() {
  local repository=${1%%=*} name start status wanted=${TARGETS-sm_90}
  [[ $1 == *=* ]] && wanted=${1#*=}
  name=$(basename "$repository")
  start=$(date +%s)
  local targets=()
  for t in ${wanted//,/ }; do targets+=(--target "$t"); done
  migrate-cli submit "$repository" --wait --wait-timeout "${JOB_TIMEOUT:-420}" "${targets[@]}" --name "$name" \
    > "$work/reports/$name.submit.out" 2> "$work/reports/$name.submit.err"
  status=$?
  job=$(head -n 1 "$work/reports/$name.submit.out")
  if [ -n "$job" ]; then
    migrate-cli report "$job" --format json --output "$work/reports/$name.json" 2>/dev/null
    migrate-cli report "$job" --format text --output "$work/reports/$name.txt" 2>/dev/null
  fi
  printf '%s\t%s\t%s\n' "$name" "$status" "$(( $(date +%s) - start ))"
}
export -f submit_one
export work TARGETS
# Bounded, so what finished is kept even when the device call's time runs out.
printf '%s\n' "$@" | timeout "${BUDGET_S:-480}" xargs -P "${PARALLEL:-4}" -I{} bash -c 'submit_one "$@"' _ {} |
  tee "$out/summary.tsv"
kill -TERM "$server_pid"; wait "$server_pid" 2>/dev/null
