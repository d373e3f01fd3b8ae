#!/usr/bin/env bash
# Builds the hipforge container images with podman, FROM bases made here (no registry is needed):
#   localhost/hipforge-base-bookworm-runtime   Debian 12 + the binaries' shared libraries + PostgreSQL 15
#   localhost/hipforge-toolchain-<name>         a ROCm toolchain rootfs (scripts/make-toolchain.sh)
# and then hipforge-server, hipforge-postgres, hipforge-translate-worker, hipforge-validate-worker-<name>.
#   scripts/make-images.sh [TOOLCHAIN...]      (default rocm-6.4; binaries from BUILD_DIR, default build/)
# A base is imported once per rootfs stamp (its tag is the stamp's hash); a rerun only rebuilds the small
# top layers.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-$here/build}
export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/deploy/podman/containers.conf}
toolchains=("$@"); [ ${#toolchains[@]} -gt 0 ] || toolchains=(rocm-6.4)
toolchain_cache=${HIPFORGE_TOOLCHAIN_CACHE:-/var/cache/hipforge/toolchains}
base_cache=${HIPFORGE_BASE_CACHE:-/var/cache/hipforge/bases}
command -v podman >/dev/null || { echo "make-images: podman is not installed (apt-get install podman runc)" >&2; exit 2; }
for binary in migrate-server migrate-worker migrate-cli; do
  [ -x "$build_dir/bin/$binary" ] || { echo "make-images: $build_dir/bin/$binary missing; run scripts/build.sh" >&2; exit 2; }
done

# Imports rootfs DIR as IMAGE:<stamp hash> (and :latest) unless that tag exists.
import_base() {
  local dir=$1 image=$2 tag
  tag=$(sha256sum "$dir/etc/hipforge-toolchain" | cut -c1-12)
  if ! podman image exists "$image:$tag"; then
    local started; started=$(date +%s)
    echo "make-images: importing $dir as $image:$tag"
    tar -C "$dir" --numeric-owner -cf - . | podman import --change 'CMD ["/bin/bash"]' - "$image:$tag" >/dev/null
    echo "make-images: $image:$tag imported in $(( $(date +%s) - started )) s"
  fi
  podman tag "$image:$tag" "$image:latest"
}

"$here/scripts/make-toolchain.sh" --cache "$base_cache" bookworm-runtime
import_base "$base_cache/bookworm-runtime" localhost/hipforge-base-bookworm-runtime
"$here/scripts/make-toolchain.sh" "${toolchains[@]}"
for toolchain in "${toolchains[@]}"; do
  import_base "$toolchain_cache/$toolchain" "localhost/hipforge-toolchain-$toolchain"
done

# Build context: the binaries, the worker's Debian 12 libraries (with their loader), the image files.
context=$(mktemp -d "${TMPDIR:-/tmp}/hipforge-images.XXXXXX")
trap 'rm -rf "$context"' EXIT
mkdir -p "$context/bin" "$context/worker-lib"
cp "$build_dir"/bin/{migrate-server,migrate-worker,migrate-cli} "$context/bin/"
ldd "$build_dir/bin/migrate-worker" | awk '/=> \//{print $3} /^[ \t]*\/lib/{print $1}' | sort -u \
  | while read -r lib; do cp -L "$lib" "$context/worker-lib/"; done
cp "$here"/deploy/docker/{postgres-entrypoint.sh,migrate-worker.sh} "$context/"

# Builds IMAGE and removes the image it replaces (a rebuild with new binaries would leave it untagged).
build() { local file=$1 image=$2 before after; shift 2
  echo "make-images: $image"
  before=$(podman image inspect -f '{{.Id}}' "$image" 2>/dev/null || true)
  podman build --quiet -f "$here/deploy/docker/$file" -t "$image" "$@" "$context" >/dev/null
  after=$(podman image inspect -f '{{.Id}}' "$image")
  if [ -n "$before" ] && [ "$before" != "$after" ]; then podman rmi "$before" >/dev/null 2>&1 || true; fi
}
build Dockerfile.server localhost/hipforge-server
build Dockerfile.postgres localhost/hipforge-postgres
build Dockerfile.translate-worker localhost/hipforge-translate-worker
for toolchain in "${toolchains[@]}"; do
  build Dockerfile.validate-worker "localhost/hipforge-validate-worker-$toolchain" --build-arg "TOOLCHAIN=$toolchain"
done
# Bases of older rootfs stamps (5 GB each for a toolchain) once nothing is built FROM them any more.
for base in localhost/hipforge-base-bookworm-runtime "${toolchains[@]/#/localhost/hipforge-toolchain-}"; do
  current=$(podman image inspect -f '{{.Id}}' "$base:latest")
  podman images --format '{{.ID}} {{.Repository}}:{{.Tag}}' --no-trunc "$base" | while read -r id ref; do
    [ "${id#sha256:}" = "${current#sha256:}" ] || podman rmi "$ref" >/dev/null 2>&1 || true
  done
done
podman images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep hipforge | sort
