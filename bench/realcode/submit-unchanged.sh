#!/usr/bin/env bash
# The product path on a machine without a GPU (issue 29): one migrate-server (embedded PostgreSQL, local translate
# workers) and a validate worker on the AMD platform with the ROCm toolchains of scripts/make-toolchain.sh (it builds,
# and lists tests not_run: no GPU). Each repository is submitted unchanged with `migrate-cli submit --wait --target
# gfx942` (TARGETS for others); only the reports are read. Nothing is built, patched or given arguments here.
#   bench/realcode/submit-unchanged.sh BUILD_DIR OUT_DIR REPOSITORY...
# OUT_DIR gets summary.tsv (name, CLI exit code, seconds, job state, verdict), reports/ (JSON and text) and the logs.
# BUDGET_S bounds the whole run (what finished is kept); JOB_TIMEOUT bounds one job; PARALLEL submits at once.
set -uo pipefail
build=$(cd "$1" && pwd) out=$2
shift 2
mkdir -p "$out/reports"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/hipforge-realcode.XXXXXX)
id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
chmod 755 "$work"
"$build/bin/migrate-server" --listen 127.0.0.1:0 --data-dir "$work/data" --local-workers "${TRANSLATE_WORKERS:-1}" \
  --local-worker-roles translate --port-file "$work/port" > "$out/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 240); do [ -s "$work/port" ] && break; sleep 0.5; done
[ -s "$work/port" ] || { echo "submit-unchanged: the server did not start (see $out/server.log)" >&2; exit 1; }
export MIGRATE_SERVER=127.0.0.1:$(cat "$work/port")
"$build/bin/migrate-server" token create --data-dir "$work/data" --pool cpu-rocm --roles validate > "$work/pool-token" 2>>"$out/server.log"
"$build/bin/migrate-server" token create --data-dir "$work/data" --team bench --scopes submit,read --expires 1d \
  > "$work/token" 2>>"$out/server.log"
"$build/bin/migrate-worker" --role validate --gpu-platform amd --server "$MIGRATE_SERVER" \
  --token-file "$work/pool-token" > "$out/worker.log" 2>&1 &
worker_pid=$!
trap 'kill -TERM "$worker_pid" "$server_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 143' TERM INT
export MIGRATE_TOKEN_FILE=$work/token
submit_one() {
  local repository=$1 name start status job state verdict
  name=$(basename "$repository")
  start=$(date +%s)
  local targets=()
  for t in ${TARGETS:-gfx942}; do targets+=(--target "$t"); done
  "$build/bin/migrate-cli" submit "$repository" --wait --wait-timeout "${JOB_TIMEOUT:-900}" "${targets[@]}" \
    --name "$name" > "$out/reports/$name.submit.out" 2> "$out/reports/$name.submit.err"
  status=$?
  job=$(head -n 1 "$out/reports/$name.submit.out")
  state=- verdict=-
  if [ -n "$job" ]; then
    "$build/bin/migrate-cli" report "$job" --format json --output "$out/reports/$name.json" 2>/dev/null
    "$build/bin/migrate-cli" report "$job" --format text --output "$out/reports/$name.txt" 2>/dev/null
    state=$("$build/bin/migrate-cli" status "$job" 2>/dev/null | sed -n 's/^state: *//p' | head -n 1)
    verdict=$(sed -n 's/^Verdict: //p' "$out/reports/$name.txt" 2>/dev/null | head -n 1)
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$status" "$(( $(date +%s) - start ))" "${state:--}" "${verdict:--}"
}
export -f submit_one
export out build TARGETS JOB_TIMEOUT
printf '%s\n' "$@" | timeout "${BUDGET_S:-3600}" xargs -P "${PARALLEL:-1}" -I{} bash -c 'submit_one "$@"' _ {} |
  tee "$out/summary.tsv"
