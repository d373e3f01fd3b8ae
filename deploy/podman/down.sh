#!/usr/bin/env bash
# Stops and removes the pod deploy/podman/up.sh started (its containers and their data).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/deploy/podman/containers.conf}
pod=hipforge
[ "${1:-}" = --pod ] && pod=$2
podman pod rm -f "$pod" >/dev/null 2>&1 || true
