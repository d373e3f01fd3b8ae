#!/usr/bin/env bash
# Configures and builds everything into build/ (override with BUILD_DIR, BUILD_TYPE, JOBS).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-$here/build}
jobs=${JOBS:-$(nproc)}
# Let ccache share objects between clones of the repository (paths made relative to the checkout).
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$here}
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
# The analyzer's precompiled header (target_precompile_headers): without these ccache refuses to cache any
# compile that includes it, so every fresh clone recompiled all analyzer rules (~40 min on 2 cores).
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
# The dashboard's npm packages (web/package-lock.json): installed by install-deps.sh; refreshed here when the
# lockfile changed, so later builds work offline.
if command -v npm >/dev/null && { [ ! -f "$here/web/node_modules/.package-lock.json" ] ||
     [ "$here/web/package-lock.json" -nt "$here/web/node_modules/.package-lock.json" ]; }; then
  npm ci --prefix "$here/web" --no-audit --no-fund --loglevel=error
fi
cmake -S "$here" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release}
cmake --build "$build_dir" -j "$jobs"
