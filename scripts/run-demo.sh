#!/usr/bin/env bash
# End-to-end demo: start migrate-server (embedded PostgreSQL, two in-process workers) in a temporary
# data directory, submit the bundled example CUDA repository with migrate-cli, wait for the job,
# fetch the translated tree and the patch, print the report, stop the server.
#
#   scripts/run-demo.sh [--keep] [REPOSITORY]   # default: examples/cuda-vector-stats
#
# --keep leaves the server (and its dashboard, whose URL is printed) running after the demo, until Ctrl-C.
#
# Environment: BUILD_DIR (default build/; SERVER_BIN / CLI_BIN override single binaries),
# DEMO_DIR (where outputs go; default a new /tmp dir), STARTUP_TIMEOUT (s, default 180), JOB_TIMEOUT (s, default 1200), KEEP_DATA=1 keeps the server's
# data directory (database, artifacts) for inspection, DEMO_TARGETS (default "gfx90a gfx942"),
# TRANSLATE_ONLY=1 skips the validate step (hipcc builds per target arch), HIPFORGE_TOOLCHAINS (default
# rocm-6.4; none: the host's hipcc) the ROCm toolchains the validate worker builds in.
# Exit status: migrate-cli's (0 when the job succeeded; see docs/cli.md), or 10 when the demo itself
# could not run (binaries missing, server did not start).
set -Eeuo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$here/build}
server_bin=${SERVER_BIN:-$build_dir/bin/migrate-server}
cli_bin=${CLI_BIN:-$build_dir/bin/migrate-cli}
keep=0
if [[ ${1:-} == --keep ]]; then keep=1; shift; fi
repository=${1:-$here/examples/cuda-vector-stats}
startup_timeout=${STARTUP_TIMEOUT:-180}
job_timeout=${JOB_TIMEOUT:-1200}
read -r -a targets <<<"${DEMO_TARGETS:-gfx90a gfx942}"

say() { printf '\n==> %s\n' "$*" >&2; }
die() { printf 'run-demo: %s\n' "$*" >&2; exit 10; }

for binary in "$server_bin" "$cli_bin"; do
  [[ -x $binary ]] || die "$binary not found; build first (scripts/build.sh, or set BUILD_DIR)"
done
[[ -d $repository ]] || die "repository $repository does not exist"

work=${DEMO_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/hipforge-demo.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)
data_dir=$work/data
out_dir=$work/out
port_file=$work/server.port
token_file=$work/demo.token
server_log=$work/server.log
[[ ! -e $out_dir ]] || die "$out_dir already exists; use a fresh DEMO_DIR"
mkdir -p "$out_dir"

server_pid=""
stop_server() {
  [[ -n $server_pid ]] || return 0
  if kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    # The server stops its workers and its PostgreSQL cluster on SIGTERM; give it time to do so.
    for _ in $(seq 1 60); do
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.5
    done
    if kill -0 "$server_pid" 2>/dev/null; then
      echo "run-demo: server did not stop in 30 s; killing it" >&2
      kill -KILL "$server_pid" 2>/dev/null || true
    fi
  fi
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}
on_exit() {
  local status=$?
  stop_server
  if [[ $status -ne 0 && -f $server_log ]]; then
    echo "run-demo: failed (exit $status); last server log lines ($server_log):" >&2
    tail -n 30 "$server_log" >&2 || true
  fi
  if [[ ${KEEP_DATA:-0} != 1 ]]; then
    rm -rf "$data_dir" "$token_file"
  fi
  exit "$status"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

roles=translate,validate
[[ ${TRANSLATE_ONLY:-0} == 1 ]] && roles=translate

# The validate worker builds inside ROCm toolchains (gfx942 as gfx942, hipBLAS/rocThrust): make the default
# one from Debian packages when it is not cached yet (a few minutes, once). HIPFORGE_TOOLCHAINS=none skips it
# (then the host's hipcc builds, gfx942 as the labelled gfx940 stand-in).
demo_toolchains=${HIPFORGE_TOOLCHAINS-rocm-6.4}
if [[ $roles == *validate* && -n $demo_toolchains && $demo_toolchains != none ]]; then
  say "toolchains: $demo_toolchains (scripts/make-toolchain.sh, cached under /var/cache/hipforge/toolchains)"
  # shellcheck disable=SC2086 # a list of names
  "$here/scripts/make-toolchain.sh" $demo_toolchains \
    || echo "run-demo: toolchains not made; validation uses the host's hipcc" >&2
fi
start_server() {
  say "starting migrate-server (embedded PostgreSQL, 2 local workers: $roles) in $data_dir"
  rm -f "$port_file" "$token_file"
  "$server_bin" --listen 127.0.0.1:0 --http-listen 127.0.0.1:0 --data-dir "$data_dir" --local-workers 2 --local-worker-roles "$roles" \
    --port-file "$port_file" >>"$server_log" 2>&1 &
  server_pid=$!
}
start_server

deadline=$((SECONDS + startup_timeout))
server=""
until [[ -n $server ]]; do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    # A server built without the validation library cannot run validate workers: demo the
    # translation alone rather than nothing.
    if [[ $roles == *validate* ]] && grep -q "no validation library" "$server_log"; then
      echo "run-demo: this migrate-server has no validate role; running translate-only" >&2
      roles=translate
      TRANSLATE_ONLY=1
      start_server
      continue
    fi
    die "migrate-server exited during start-up (log: $server_log)"
  fi
  (( SECONDS < deadline )) || die "migrate-server not ready after ${startup_timeout}s (log: $server_log)"
  if [[ -s $port_file ]]; then
    port=$(tr -dc '0-9' <"$port_file")
    # Every call needs an API token, on loopback too: the demo makes its own, as an operator would,
    # against the running server's database. It lives in a 0600 file, never on a command line.
    if [[ -n $port && ! -s $token_file ]]; then
      (umask 077; "$server_bin" token create --data-dir "$data_dir" --team demo --scopes submit,read,cancel \
        --expires 1d --description "scripts/run-demo.sh" >"$token_file" 2>>"$server_log") ||
        die "could not create the demo's API token (log: $server_log)"
      export MIGRATE_TOKEN_FILE=$token_file
    fi
    # Listening is not enough: wait until the API answers (store migrated, services up).
    if [[ -n $port ]] && "$cli_bin" --server "127.0.0.1:$port" --timeout 5 list --page-size 1 >/dev/null 2>&1; then
      server=127.0.0.1:$port
      break
    fi
  fi
  sleep 0.5
done
echo "server ready at $server (pid $server_pid, log $server_log)" >&2

submit_args=(--wait --wait-timeout "$job_timeout" --name "$(basename "$repository")" --label demo=true
             --out "$out_dir/translated")
for target in "${targets[@]}"; do submit_args+=(--target "$target"); done
[[ ${TRANSLATE_ONLY:-0} == 1 ]] && submit_args+=(--translate-only)
say "migrate-cli submit $repository ${submit_args[*]}"
submit_status=0
job_id=$("$cli_bin" --server "$server" submit "$repository" "${submit_args[@]}") || submit_status=$?
job_id=$(printf '%s\n' "$job_id" | head -n 1)
[[ -n $job_id ]] || exit "$submit_status"
echo "job $job_id finished with migrate-cli exit code $submit_status" >&2

say "migrate-cli fetch $job_id --patch"
# Also after a failed validation: the translation and its patch exist once the translate step is done.
"$cli_bin" --server "$server" fetch "$job_id" --patch "$out_dir/translation.patch" ||
  echo "run-demo: no patch for job $job_id" >&2

say "migrate-cli report $job_id --format text"
report_status=0
"$cli_bin" --server "$server" report "$job_id" --format text --output "$out_dir/report.txt" || report_status=$?
if [[ $report_status -eq 0 ]]; then
  cat "$out_dir/report.txt"
  "$cli_bin" --server "$server" report "$job_id" --format sarif --output "$out_dir/report.sarif" || true
  "$cli_bin" --server "$server" report "$job_id" --format json --output "$out_dir/report.json" || true
fi

say "outputs in $out_dir"
if [[ -f $out_dir/translation.patch ]]; then
  echo "patch: $out_dir/translation.patch ($(grep -c '^+++ ' "$out_dir/translation.patch" || true) files changed)"
  head -n 40 "$out_dir/translation.patch"
  echo "..."
fi
[[ -d $out_dir/translated ]] && echo "translated tree: $out_dir/translated"
[[ -f $out_dir/report.sarif ]] && echo "SARIF: $out_dir/report.sarif"

if [[ -s $port_file.http ]]; then
  dashboard="http://127.0.0.1:$(tr -dc '0-9' <"$port_file.http")/"
  echo "dashboard: $dashboard (job: $dashboard#/job/$job_id)"
  # The token stays in its 0600 file rather than on the terminal; a #token= link signs the browser in.
  echo "  sign in with the demo's API token (team demo) in $token_file, or open: $dashboard#token=\$(cat $token_file)"
else
  echo "dashboard: not served by this migrate-server (see $server_log)"
fi
if [[ $keep == 1 ]]; then
  echo "server left running (pid $server_pid, gRPC $server, data $data_dir); Ctrl-C stops it" >&2
  KEEP_DATA=1
  while kill -0 "$server_pid" 2>/dev/null; do sleep 1; done
fi

if [[ $submit_status -ne 0 ]]; then
  exit "$submit_status"
fi
exit "$report_status"
