#!/usr/bin/env bash
# Runs on the lent GPU host (device tool): unpacks the service bundle (scripts/make-gpu-bundle.sh), then measures
# through the product only: run-demo.sh starts migrate-server (embedded PostgreSQL, local translate + validate
# workers, which find the H200 and validate on HIP's NVIDIA platform), submits each repository unchanged with
# `migrate-cli submit --wait --target sm_90`, and keeps the reports. Nothing is built or patched by hand.
#   bench/nvidia/on-gpu-host.sh BUNDLE.tar.xz OUT_DIR REPOSITORY...
set -uo pipefail
bundle=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
root=/tmp/hipforge-bundle
mkdir -p "$root" "$out"
tar -xJf "$bundle" -C "$root"
chmod 755 "$root" "$root/hipforge"
# PostgreSQL refuses to run as root; the embedded store runs it as this account.
id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
export PATH=$root/hipforge/bin:/usr/local/cuda/bin:$PATH
{
  echo "bundle $(cat "$root/hipforge/VERSION"), host $(. /etc/os-release; echo "$PRETTY_NAME"), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  for b in migrate-server migrate-worker migrate-cli; do ldd "$root/hipforge/bin/$b" | grep "not found" | sed "s/^/$b: /"; done
  ls -d /usr/lib/llvm-16/lib/clang/16/include 2>&1
} | tee "$out/host.txt"
for repository in "$@"; do
  name=$(basename "$repository")
  start=$(date +%s)
  DEMO_DIR=/tmp/hipforge-run-$name KEEP_DATA=1 DEMO_TARGETS=sm_90 HIPFORGE_TOOLCHAINS=none JOB_TIMEOUT=480 \
    SERVER_BIN=$root/hipforge/bin/migrate-server CLI_BIN=$root/hipforge/bin/migrate-cli \
    "$root/hipforge/bin/hipforge-env" "$here/scripts/run-demo.sh" "$repository" > "$out/$name.log" 2>&1
  echo "$name: run-demo exit $? in $(( $(date +%s) - start )) s" | tee -a "$out/summary.txt"
  for f in report.json report.txt; do cp "/tmp/hipforge-run-$name/out/$f" "$out/$name.$f" 2>/dev/null; done
  tail -n 200 "/tmp/hipforge-run-$name/server.log" > "$out/$name.server.log" 2>/dev/null
done
