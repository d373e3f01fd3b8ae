#!/usr/bin/env bash
# Starts the whole system as one podman pod (the compose-style start): PostgreSQL, migrate-server, a
# translate worker and a validate worker per toolchain image, sharing the pod's network.
#   deploy/podman/up.sh [--port PORT] [--pod NAME] [TOOLCHAIN...]   (default port 50051, toolchain rocm-6.4)
# Then: build/bin/migrate-cli --server localhost:PORT submit examples/cuda-vector-stats --wait
# Stop with deploy/podman/down.sh [--pod NAME]. GPUs: with /dev/kfd present the validate workers get
# /dev/kfd and /dev/dri; without, they compile for every target and report tests not_run.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/deploy/podman/containers.conf}
port=50051 pod=hipforge toolchains=()
while [ $# -gt 0 ]; do
  case $1 in
    --port) port=$2; shift 2 ;;
    --pod) pod=$2; shift 2 ;;
    *) toolchains+=("$1"); shift ;;
  esac
done
[ ${#toolchains[@]} -gt 0 ] || toolchains=(rocm-6.4)
password=${HIPFORGE_DB_PASSWORD:-hipforge-$(head -c 6 /dev/urandom | od -An -tx1 | tr -d ' \n')}
cuda=${CUDA_PATH:-/usr/local/cuda}

podman pod create --name "$pod" -p "127.0.0.1:$port:50051" >/dev/null
podman run -d --pod "$pod" --name "$pod-postgres" -e POSTGRES_PASSWORD="$password" localhost/hipforge-postgres >/dev/null
ready=0
for _ in $(seq 1 60); do
  if podman exec "$pod-postgres" /usr/lib/postgresql/15/bin/pg_isready -h 127.0.0.1 -q 2>/dev/null; then
    ready=1; break
  fi
  [ "$(podman inspect -f '{{.State.Running}}' "$pod-postgres")" = true ] || break
  sleep 1
done
[ $ready -eq 1 ] || { podman logs "$pod-postgres" >&2; echo "up.sh: PostgreSQL did not start" >&2; exit 1; }
url="postgresql://hipforge:$password@127.0.0.1:5432/hipforge"
podman run -d --pod "$pod" --name "$pod-server" -e MIGRATE_DATABASE_URL="$url" localhost/hipforge-server \
  --listen 0.0.0.0:50051 >/dev/null
cuda_mount=(); [ -d "$cuda" ] && cuda_mount=(-v "$cuda:/usr/local/cuda:ro")
podman run -d --pod "$pod" --name "$pod-translate" "${cuda_mount[@]}" localhost/hipforge-translate-worker \
  --server 127.0.0.1:50051 >/dev/null
gpu=(); [ -e /dev/kfd ] && gpu=(--device /dev/kfd --device /dev/dri --group-add keep-groups)
for toolchain in "${toolchains[@]}"; do
  podman run -d --pod "$pod" --name "$pod-validate-$toolchain" "${gpu[@]}" \
    "localhost/hipforge-validate-worker-$toolchain" --server 127.0.0.1:50051 >/dev/null
done
echo "hipforge pod $pod: server at 127.0.0.1:$port"
