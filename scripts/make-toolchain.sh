#!/usr/bin/env bash
# Makes ROCm toolchain root filesystems from Debian packages with mmdebstrap:
#   scripts/make-toolchain.sh NAME... [--cache DIR] [--force]
# Each NAME names deploy/toolchains/NAME.packages (package list, "# suite:", "# extra-suite:" and "# aptopt:"
# lines). Packages come from the suite; an extra suite (sid) adds what the suite lacks, the suite's own versions
# win (APT::Default-Release), so only packages missing from the suite and their missing dependencies come from
# the extra one. The rootfs is
# published unpacked at DIR/NAME (default /var/cache/hipforge/toolchains) by an atomic rename, so a reader sees
# either no toolchain or a complete one. DIR/NAME/etc/hipforge-toolchain records the name, suite and the
# package list's hash; a rootfs whose hash matches is reused, one that differs is remade. Downloaded .deb files
# are kept in DIR/.debs/SUITE so a remake downloads only what changed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: $0 NAME... [--cache DIR] [--force]" >&2; exit 2; }
cache=${HIPFORGE_TOOLCHAIN_CACHE:-/var/cache/hipforge/toolchains}
force=0
names=()
while [ $# -gt 0 ]; do
  case $1 in
    --cache) cache=$2; shift 2 ;;
    --force) force=1; shift ;;
    -*) usage ;;
    *) names+=("$1"); shift ;;
  esac
done
[ ${#names[@]} -ge 1 ] || usage
if [ ${#names[@]} -gt 1 ]; then
  # One after the other: each run downloads ~1 GB; in parallel they only compete for the mirror.
  extra=(--cache "$cache"); [ $force -eq 0 ] || extra+=(--force)
  for name in "${names[@]}"; do "$0" "$name" "${extra[@]}"; done
  exit 0
fi
name=${names[0]}
list=$here/deploy/toolchains/$name.packages
[ -f "$list" ] || { echo "make-toolchain: no package list $list" >&2; exit 2; }
command -v mmdebstrap >/dev/null || { echo "make-toolchain: mmdebstrap is not installed (apt-get install mmdebstrap)" >&2; exit 2; }

suite=$(sed -n 's/^# suite: *//p' "$list" | head -1)
[ -n "$suite" ] || { echo "make-toolchain: $list has no '# suite:' line" >&2; exit 2; }
mapfile -t extra_suites < <(sed -n 's/^# extra-suite: *//p' "$list")
mapfile -t aptopts < <(sed -n 's/^# aptopt: *//p' "$list")
mapfile -t packages < <(grep -vE '^\s*(#|$)' "$list")
list_hash=$(sha256sum "$list" | cut -c1-16)

target=$cache/$name
stamp=$target/etc/hipforge-toolchain
if [ $force -eq 0 ] && [ -f "$stamp" ] && grep -qx "packages_sha256=$list_hash" "$stamp"; then
  echo "make-toolchain: $name is current at $target"
  exit 0
fi

mkdir -p "$cache" "$cache/.debs/$suite"
work=$(mktemp -d "$cache/.$name.tmp.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
rootfs=$work/rootfs
debs=$cache/.debs/$suite

args=(--variant=apt --format=directory)
for opt in "${aptopts[@]}"; do args+=("--aptopt=$opt"); done
mirrors=()
if [ ${#extra_suites[@]} -gt 0 ]; then
  mirror=${HIPFORGE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
  args+=("--aptopt=APT::Default-Release \"$suite\"")
  for each in "$suite" "${extra_suites[@]}"; do mirrors+=("deb $mirror $each main"); done
fi
include=$(IFS=,; echo "${packages[*]}")
started=$(date +%s)
echo "make-toolchain: $name from Debian $suite${extra_suites:+ (+ ${extra_suites[*]})} (${#packages[@]} packages) into $target"
mmdebstrap "${args[@]}" --include="$include" \
  --skip=download/empty --skip=essential/unlink \
  --setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
  --setup-hook="sync-in $debs /var/cache/apt/archives/" \
  --customize-hook="sync-out /var/cache/apt/archives $debs" \
  --customize-hook='rm -f "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/*_Packages' \
  "$suite" "$rootfs" "${mirrors[@]}"

hip_version=$(cat "$rootfs/opt/rocm/.info/version" 2>/dev/null \
  || chroot "$rootfs" dpkg-query -W -f='${Version}' libamdhip64-dev 2>/dev/null || echo unknown)
cat > "$rootfs/etc/hipforge-toolchain" <<STAMP
name=$name
suite=$suite
extra_suites=${extra_suites[*]}
packages_sha256=$list_hash
made=$(date -u +%Y-%m-%dT%H:%M:%SZ)
libamdhip64-dev=$hip_version
STAMP

# Publish: the old tree (if any) moves aside first so the rename of the new one is atomic.
if [ -e "$target" ]; then mv "$target" "$work/previous"; fi
mv "$rootfs" "$target"
size=$(du -sh "$target" | cut -f1)
echo "make-toolchain: $name ready at $target ($size, $(( ($(date +%s) - started) )) s)"
