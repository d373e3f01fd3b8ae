#!/usr/bin/env bash
# Installs every Debian bookworm package the build, the demo and the tests need (.ci/packages.txt).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
mapfile -t packages < <(grep -vE '^\s*(#|$)' "$here/.ci/packages.txt" | sort -u)
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}"
echo "install-deps: ${#packages[@]} packages present"
# The dashboard's front end (web/package-lock.json); Node.js from Debian when the machine has none.
if ! command -v npm >/dev/null; then "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends nodejs npm; fi
npm ci --prefix "$here/web" --no-audit --no-fund --loglevel=error
echo "install-deps: web/node_modules installed"
