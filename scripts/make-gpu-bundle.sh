#!/usr/bin/env bash
# Makes a relocatable bundle of the service for a GPU host without our Debian packages (docs/operations.md,
# "The service on a GPU host"): migrate-server, migrate-worker and migrate-cli with every shared library they
# load that such a host may lack, PostgreSQL 15's server binaries for the embedded store, and clang 16's builtin
# headers for the translator. Executables and libraries get RPATH $ORIGIN-relative, so nothing needs
# LD_LIBRARY_PATH; the host's glibc and libstdc++ (newer there) and LLVM 16 (libclang-cpp.so.16, libLLVM-16) are
# used as they are.
#   scripts/make-gpu-bundle.sh [OUT.tar.xz]      default: build/hipforge-gpu-bundle.tar.xz
# On the host: tar xf hipforge-gpu-bundle.tar.xz -C /opt && /opt/hipforge/bin/hipforge-env migrate-server ...
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-$here/build}
out=${1:-$build_dir/hipforge-gpu-bundle.tar.xz}
command -v patchelf >/dev/null || { echo "make-gpu-bundle: needs patchelf (apt-get install patchelf)" >&2; exit 2; }
pg_bin=$(pg_config --bindir 2>/dev/null || echo /usr/lib/postgresql/15/bin)
pg_root=$(dirname "$pg_bin")                     # /usr/lib/postgresql/15
pg_share=$(pg_config --sharedir 2>/dev/null || echo /usr/share/postgresql/15)
stage=$(mktemp -d /tmp/hipforge-bundle.XXXXXX)
trap 'rm -rf "$stage"' EXIT
root=$stage/hipforge
mkdir -p "$root/bin" "$root/lib" "$root$pg_root/bin" "$root$pg_root/lib" "$root$pg_share" "$root/clang/16"

# Loaded from the host: the C and C++ runtimes (the host's are newer) and LLVM/clang 16 with what they pull in.
keep_host='^(linux-vdso|ld-linux|libc\.so|libm\.so|libpthread|libdl\.so|librt\.so|libresolv|libstdc\+\+|libgcc_s|libLLVM|libclang-cpp|libz3|libedit|libtinfo|libbsd|libmd\.so)'
copy_libs() {  # copy_libs BINARY...: its non-host shared libraries into lib/
  ldd "$@" 2>/dev/null | awk '/=> \// {print $1, $3}' | sort -u | while read -r name path; do
    [[ $name =~ $keep_host ]] && continue
    [ -e "$root/lib/$name" ] || cp -L "$path" "$root/lib/$name"
  done
}

for binary in migrate-server migrate-worker migrate-cli; do
  cp "$build_dir/bin/$binary" "$root/bin/"
  patchelf --force-rpath --set-rpath '$ORIGIN/../lib:/usr/lib/llvm-16/lib' "$root/bin/$binary"
done
# The sandbox's seccomp helper (static), found beside migrate-worker.
[ ! -x "$build_dir/bin/hipforge-sandbox-exec" ] || cp "$build_dir/bin/hipforge-sandbox-exec" "$root/bin/"
# bubblewrap: the GPU host has none, and without it the translate role does not run a project's CMake to find its
# build commands (user code runs only sandboxed), so every unit there fell back to the token pass.
if command -v bwrap >/dev/null; then
  cp "$(command -v bwrap)" "$root/bin/bwrap"
  patchelf --force-rpath --set-rpath '$ORIGIN/../lib' "$root/bin/bwrap"
fi
copy_libs "$root"/bin/migrate-* "$root"/bin/bwrap

# PostgreSQL keeps its compiled-in layout under the bundle root: initdb and postgres find share/ and lib/ relative
# to their own directory. The JIT (LLVM 14 here) is left out; the embedded store does not use it.
cp "$pg_bin"/{initdb,pg_ctl,postgres} "$root$pg_root/bin/"
find "$pg_root/lib" -maxdepth 1 -name '*.so' ! -name 'llvmjit*' -exec cp {} "$root$pg_root/lib/" \;
cp -r "$pg_share"/. "$root$pg_share/"
copy_libs "$root$pg_root"/bin/* "$root$pg_root"/lib/*.so
for file in "$root$pg_root"/bin/* "$root$pg_root"/lib/*.so; do
  rel=$(realpath --relative-to="$(dirname "$file")" "$root/lib")
  patchelf --force-rpath --set-rpath "\$ORIGIN/$rel" "$file"
done
for lib in "$root"/lib/*.so*; do patchelf --force-rpath --set-rpath '$ORIGIN' "$lib" 2>/dev/null || true; done

# clang's builtin headers: the translator parses with -resource-dir /usr/lib/llvm-16/lib/clang/16, which a host
# with only the LLVM 16 runtime libraries lacks (hipforge-env links it from here).
cp -r /usr/lib/llvm-16/lib/clang/16/include "$root/clang/16/"

# pg_config for the server's lookup of PostgreSQL's binaries; an environment wrapper for every command.
cat > "$root/bin/pg_config" <<EOF
#!/bin/sh
case "\$1" in --bindir) echo "\$(cd "\$(dirname "\$0")/.." && pwd)$pg_root/bin" ;; *) echo "pg_config (hipforge bundle): only --bindir" >&2; exit 1 ;; esac
EOF
cat > "$root/bin/hipforge-env" <<'EOF'
#!/bin/sh
# Runs a command with the bundle's bin/ first on PATH (pg_config, migrate-*); links clang 16's builtin headers
# where the translator looks for them when the host has none (needs write access to /usr/lib/llvm-16/lib).
bundle=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -e /usr/lib/llvm-16/lib/clang/16/include/stddef.h ] && [ -d /usr/lib/llvm-16/lib ]; then
  mkdir -p /usr/lib/llvm-16/lib/clang/16 2>/dev/null && ln -sfn "$bundle/clang/16/include" /usr/lib/llvm-16/lib/clang/16/include 2>/dev/null ||
    echo "hipforge-env: clang 16's builtin headers are missing in /usr/lib/llvm-16/lib/clang/16 (copy $bundle/clang/16 there)" >&2
fi
PATH="$bundle/bin:$PATH" exec "$@"
EOF
chmod +x "$root/bin/pg_config" "$root/bin/hipforge-env"
git -C "$here" rev-parse --short HEAD > "$root/VERSION" 2>/dev/null || echo unknown > "$root/VERSION"
tar -C "$stage" -cJf "$out" hipforge
echo "make-gpu-bundle: $out ($(du -h "$out" | cut -f1); $(find "$root/lib" -name '*.so*' | wc -l) libraries)"
