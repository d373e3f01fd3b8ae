#!/usr/bin/env bash
# Builds (incrementally) and runs the whole test suite with ctest. Starts a throwaway PostgreSQL 15 cluster
# for the database tests (each test then works in its own schema) and stops it afterwards.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-$here/build}
"$here/scripts/build.sh"
# libFuzzer targets for the fuzz.* smoke tests (clang-16 + libclang-rt-16-dev).
BUILD_DIR="$build_dir" "$here/scripts/fuzz.sh" build

# ROCm toolchains the validate tests build in, made from Debian packages and cached under
# /var/cache/hipforge/toolchains (rocm-6.4 from an empty cache: 121-508 s measured here, mostly the ~0.5 GB
# download; a rerun finds it and takes ~0 s). HIPFORGE_TOOLCHAINS
# names them (default rocm-6.4; "rocm-6.4 rocm-5.7" for both; none to skip); the tests then require them.
toolchains=${HIPFORGE_TOOLCHAINS-rocm-6.4}
if [ -n "$toolchains" ] && [ "$toolchains" != none ]; then
  toolchain_start=$(date +%s)
  # shellcheck disable=SC2086 # a list of names
  "$here/scripts/make-toolchain.sh" $toolchains
  echo "test.sh: toolchains ($toolchains) ready in $(( $(date +%s) - toolchain_start )) s"
  export HIPFORGE_REQUIRE_TOOLCHAINS="$toolchains"
fi

# ctest's containers_example builds the podman images (scripts/make-images.sh; the bases are cached by rootfs
# stamp) and runs the example through the containerised system: ~7-12 min on a fresh machine, ~3.5 min with
# the images there. HIPFORGE_CONTAINER_TESTS=0 skips it.
pg_bin=$(pg_config --bindir 2>/dev/null || true)
[ -x "$pg_bin/initdb" ] || pg_bin=/usr/lib/postgresql/15/bin
pg_dir=$(mktemp -d /tmp/hipforge-test-pg.XXXXXX)
pg_port=${HIPFORGE_TEST_PG_PORT:-55432}
run_pg=()
if [ "$(id -u)" -eq 0 ]; then
  # PostgreSQL refuses to run as root: the cluster belongs to the postgres user.
  chown postgres "$pg_dir"
  run_pg=(runuser -u postgres --)
fi
stop_pg() { "${run_pg[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$pg_dir"; }
trap stop_pg EXIT
"${run_pg[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -U postgres -A trust -E UTF8 >"$pg_dir/initdb.log" 2>&1 \
  || { cat "$pg_dir/initdb.log"; exit 1; }
"${run_pg[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $pg_port -k $pg_dir -c max_connections=200 -c fsync=off" start >/dev/null \
  || { cat "$pg_dir/server.log"; exit 1; }
export HIPFORGE_TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:$pg_port/postgres"
echo "test.sh: PostgreSQL for tests at $HIPFORGE_TEST_DATABASE_URL"

ctest --test-dir "$build_dir" --output-on-failure -j "${JOBS:-$(nproc)}" ${CTEST_ARGS:-}
