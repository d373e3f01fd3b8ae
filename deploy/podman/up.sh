#!/usr/bin/env bash
# Starts the whole system as one podman pod (the compose-style start): PostgreSQL, migrate-server (TLS), a
# translate worker and a validate worker per toolchain image, sharing the pod's network, with credentials:
#   deploy/podman/up.sh [--port PORT[,PORT...]] [--servers N] [--pod NAME] [--team TEAM] [--state-dir DIR]
#                       [TOOLCHAIN...]
#   (defaults: port 50051, 1 server, pod hipforge, team hipforge, toolchain rocm-6.4,
#    state dir ${XDG_STATE_HOME:-~/.local/state}/hipforge/pods/POD)
# --servers 2 starts two migrate-servers on the one PostgreSQL as a replica set (docs/operations.md, "Several
# servers"): both with --artifact-store postgres (no shared disk), server i on pod port 50050+i published on the
# i-th PORT (ports not given follow the last one given), the workers and cli.env listing all of them.
# It makes a CA and the server's certificate (openssl), mints with `migrate-server token create` a worker
# credential per pool (pool translate: role translate; pool validate-TOOLCHAIN: role validate, that
# toolchain only) and a team token, and hands every secret to its container as a podman secret (a 0400 file
# of the container's user under /run/secrets; the database URL too). The host keeps only what migrate-cli
# needs, in the state dir (0700): ca.pem, team-token (0600) and cli.env, e.g.
#   . ~/.local/state/hipforge/pods/hipforge/cli.env && build/bin/migrate-cli submit examples/cuda-vector-stats --wait
# Stop with deploy/podman/down.sh [--pod NAME] (removes the pod, its secrets and the state dir). GPUs: with
# /dev/kfd present the validate workers get /dev/kfd and /dev/dri; without, they compile for every target
# and report tests not_run.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/deploy/podman/containers.conf}
port=50051 servers=1 pod=hipforge team=hipforge state= toolchains=()
while [ $# -gt 0 ]; do
  case $1 in
    --port) port=$2; shift 2 ;;
    --servers) servers=$2; shift 2 ;;
    --pod) pod=$2; shift 2 ;;
    --team) team=$2; shift 2 ;;
    --state-dir) state=$2; shift 2 ;;
    *) toolchains+=("$1"); shift ;;
  esac
done
[ ${#toolchains[@]} -gt 0 ] || toolchains=(rocm-6.4)
[[ $servers =~ ^[1-9]$ ]] || { echo "up.sh: --servers takes 1 to 9, not '$servers'" >&2; exit 2; }
# Host ports, one per server: those given, then one after the other.
IFS=, read -r -a ports <<< "$port"
for ((i = ${#ports[@]}; i < servers; i++)); do ports+=($((ports[i - 1] + 1))); done
state=${state:-${XDG_STATE_HOME:-$HOME/.local/state}/hipforge/pods/$pod}
cuda=${CUDA_PATH:-/usr/local/cuda}
# The hipforge images run as uid 1000 (deploy/docker); the postgres image as Debian's postgres user.
app_uid=1000
command -v openssl >/dev/null || { echo "up.sh: openssl is needed for the server certificate" >&2; exit 2; }
podman pod exists "$pod" && { echo "up.sh: pod $pod exists (deploy/podman/down.sh --pod $pod)" >&2; exit 1; }

if [ -d "$state" ] && [ -n "$(ls -A "$state")" ]; then
  echo "up.sh: state dir $state is not empty (deploy/podman/down.sh --pod $pod --state-dir $state)" >&2; exit 1
fi
umask 077
mkdir -p "$state"
# secret NAME: a podman secret "$pod.NAME" from stdin, listed in the state dir for down.sh. (podman 4.3
# takes "-" only from a pipe, hence the cat.)
secret() { echo "$pod.$1" >> "$state/secrets"; cat | podman secret create "$pod.$1" - >/dev/null; }
# given NAME UID: the --secret option giving the container's user UID the file /run/secrets/NAME, mode 0400.
given() { printf -- '--secret=%s,target=/run/secrets/%s,uid=%s,gid=%s,mode=0400' "$pod.$1" "$1" "$2" "$2"; }

# TLS: a CA for this pod and the server's certificate for localhost (the workers in the pod and the host's
# migrate-cli through the published port both connect as "localhost"). Only the CA certificate stays on disk.
tls=$(mktemp -d)
trap 'rm -rf "$tls"' EXIT
(
  cd "$tls"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem \
    -days 30 -subj "/CN=hipforge pod $pod CA" 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr \
    -subj /CN=localhost 2>/dev/null
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > server.ext
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 30 \
    -extfile server.ext 2>/dev/null
)
cp "$tls/ca.pem" "$state/ca.pem"
secret ca < "$tls/ca.pem"
secret server.pem < "$tls/server.pem"
secret server.key < "$tls/server.key"

password=${HIPFORGE_DB_PASSWORD:-$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')}
printf '%s' "$password" | secret postgres-password
printf 'postgresql://hipforge:%s@127.0.0.1:5432/hipforge' "$password" | secret database-url
postgres_uid=$(podman run --rm --entrypoint id localhost/hipforge-postgres -u)

published=() pod_servers=() host_servers=()
for ((i = 1; i <= servers; i++)); do
  published+=(-p "127.0.0.1:${ports[i - 1]}:$((50050 + i))")
  pod_servers+=("localhost:$((50050 + i))")
  host_servers+=("127.0.0.1:${ports[i - 1]}")
done
list() { local IFS=,; echo "$*"; }
podman pod create --name "$pod" "${published[@]}" >/dev/null
podman run -d --pod "$pod" --name "$pod-postgres" "$(given postgres-password "$postgres_uid")" \
  -e POSTGRES_PASSWORD_FILE=/run/secrets/postgres-password localhost/hipforge-postgres >/dev/null
ready=0
for _ in $(seq 1 60); do
  if podman exec "$pod-postgres" /usr/lib/postgresql/15/bin/pg_isready -h 127.0.0.1 -q 2>/dev/null; then
    ready=1; break
  fi
  [ "$(podman inspect -f '{{.State.Running}}' "$pod-postgres")" = true ] || break
  sleep 1
done
[ $ready -eq 1 ] || { podman logs "$pod-postgres" >&2; echo "up.sh: PostgreSQL did not start" >&2; exit 1; }

# Credentials, minted in the database before the server starts (the command applies the migrations).
database=("$(given database-url $app_uid)" -e MIGRATE_DATABASE_URL_FILE=/run/secrets/database-url)
mint() { podman run --rm --pod "$pod" "${database[@]}" localhost/hipforge-server token create "$@"; }
mint --pool translate --roles translate --expires 90d --description "pod $pod" | secret translate-token
for toolchain in "${toolchains[@]}"; do
  mint --pool "validate-$toolchain" --roles validate --toolchains "$toolchain" --expires 90d \
    --description "pod $pod" | secret "validate-$toolchain-token"
done
mint --team "$team" --scopes submit,read,cancel --expires 30d --description "pod $pod, up.sh" > "$state/team-token"
[ -s "$state/team-token" ] || { echo "up.sh: no team token was minted" >&2; exit 1; }

# Server i: container $pod-server (the first) or $pod-server-i; several share the pod's network, so each has its own
# gRPC and dashboard port, and artifacts go to PostgreSQL, which every one of them reaches.
store=(); [ "$servers" -gt 1 ] && store=(--artifact-store postgres)
for ((i = 1; i <= servers; i++)); do
  name=$pod-server; [ "$i" -gt 1 ] && name=$pod-server-$i
  podman run -d --pod "$pod" --name "$name" "${database[@]}" "$(given server.pem $app_uid)" \
    "$(given server.key $app_uid)" localhost/hipforge-server --listen "0.0.0.0:$((50050 + i))" \
    --http-listen "127.0.0.1:$((8079 + i))" "${store[@]}" \
    --tls-cert /run/secrets/server.pem --tls-key /run/secrets/server.key >/dev/null
done
worker_tls=("$(given ca $app_uid)" -e MIGRATE_TLS_CA=/run/secrets/ca -e "MIGRATE_SERVER=$(list "${pod_servers[@]}")")
cuda_mount=(); [ -d "$cuda" ] && cuda_mount=(-v "$cuda:/usr/local/cuda:ro")
# Worker ids are per container: the default (hostname-pid) is the same for all of them in a pod.
podman run -d --pod "$pod" --name "$pod-translate" -e "MIGRATE_WORKER_ID=$pod-translate" "${cuda_mount[@]}" "${worker_tls[@]}" \
  "$(given translate-token $app_uid)" -e MIGRATE_WORKER_TOKEN_FILE=/run/secrets/translate-token \
  localhost/hipforge-translate-worker >/dev/null
gpu=(); [ -e /dev/kfd ] && gpu=(--device /dev/kfd --device /dev/dri --group-add keep-groups)
for toolchain in "${toolchains[@]}"; do
  podman run -d --pod "$pod" --name "$pod-validate-$toolchain" -e "MIGRATE_WORKER_ID=$pod-validate-$toolchain" \
    "${gpu[@]}" "${worker_tls[@]}" \
    "$(given "validate-$toolchain-token" $app_uid)" \
    -e "MIGRATE_WORKER_TOKEN_FILE=/run/secrets/validate-$toolchain-token" \
    "localhost/hipforge-validate-worker-$toolchain" >/dev/null
done
cat > "$state/cli.env" <<EOF
export MIGRATE_SERVER=$(list "${host_servers[@]}") MIGRATE_TLS_CA=$state/ca.pem MIGRATE_TLS_SERVER_NAME=localhost
export MIGRATE_TOKEN_FILE=$state/team-token
EOF
echo "hipforge pod $pod: $servers server(s) at $(list "${host_servers[@]}") (TLS, name localhost); team $team: . $state/cli.env"
