#!/usr/bin/env bash
# Stops and removes what deploy/podman/up.sh started: the pod (its containers and their data), its podman
# secrets and its state dir (CA certificate, team token).
#   deploy/podman/down.sh [--pod NAME] [--state-dir DIR]   (the same NAME/DIR as given to up.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/deploy/podman/containers.conf}
pod=hipforge state=
while [ $# -gt 0 ]; do
  case $1 in
    --pod) pod=$2; shift 2 ;;
    --state-dir) state=$2; shift 2 ;;
    *) echo "down.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
state=${state:-${XDG_STATE_HOME:-$HOME/.local/state}/hipforge/pods/$pod}
podman pod rm -f "$pod" >/dev/null 2>&1 || true
if [ -f "$state/secrets" ]; then
  while read -r name; do podman secret rm "$name" >/dev/null 2>&1 || true; done < "$state/secrets"
fi
# Only the files up.sh wrote: a --state-dir given by mistake loses nothing else.
rm -f "$state"/{ca.pem,team-token,cli.env,secrets}
rmdir "$state" 2>/dev/null || true
