#!/usr/bin/env python3
"""Golden test runner: translate one input with migrate-hipify and FileCheck the results against its own lines.

Directives in the input (all `//` comments):
  // ARGS: <migrate-hipify options>            (default none; `-- <clang args>` may follow)
  // ENV: NAME=VALUE                             (extra environment, e.g. to hide the CUDA toolkit)
  // RUNS: N                                     (translate N times with one cache dir; checks see the last run)
  // EXIT: N                                     (expected exit status, default 0; 1 where a file went through the
                                                  token-level fallback, as hipify-clang exits on a file that does
                                                  not parse)
  // CHECK...:      checked against the output (comments blanked first, as HIPIFY's run_test.sh does)
  // STDERR...:     checked against the diagnostics (prefix STDERR)
  // JSON...:       checked against --o-stats-json output (prefix JSON)
  // COMPILE: <hipcc options>                    (the output must compile: hipcc OPTIONS -c OUTPUT; needs hipcc)
  // COMPILE-C: <cc options>                     (the output must compile as C: cc OPTIONS -fsyntax-only -x c)
  // COMPILE-TOOLCHAIN: <name> <hipcc options>   (the output must compile with the hipcc of the ROCm rootfs
                                                  /var/cache/hipforge/toolchains/<name> under bubblewrap; checked
                                                  only where that rootfs and bwrap exist, else said and skipped)
usage: run_golden.py MIGRATE_HIPIFY FILECHECK INPUT
"""
import os, re, shlex, shutil, subprocess, sys, tempfile

def main():
    tool, filecheck, source = sys.argv[1:4]
    text = open(source).read()
    args, env, runs, compile_args, toolchain_compile, c_args = [], dict(os.environ), 1, None, None, None
    expected_exit = 0
    for line in text.splitlines():
        m = re.match(r"\s*//\s*ARGS:(.*)$", line)
        if m:
            args += shlex.split(m.group(1))
        m = re.match(r"\s*//\s*ENV:\s*(\w+)=(.*)$", line)
        if m:
            env[m.group(1)] = m.group(2).strip()
        m = re.match(r"\s*//\s*COMPILE:(.*)$", line)
        if m:
            compile_args = shlex.split(m.group(1))
        m = re.match(r"\s*//\s*COMPILE-C:(.*)$", line)
        if m:
            c_args = shlex.split(m.group(1))
        m = re.match(r"\s*//\s*COMPILE-TOOLCHAIN:(.*)$", line)
        if m:
            toolchain_compile = shlex.split(m.group(1))
        m = re.match(r"\s*//\s*RUNS:\s*(\d+)", line)
        if m:
            runs = int(m.group(1))
        m = re.match(r"\s*//\s*EXIT:\s*(\d+)", line)
        if m:
            expected_exit = int(m.group(1))
    own, clang = args, []
    if "--" in args:
        i = args.index("--")
        own, clang = args[:i], args[i + 1:]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out" + os.path.splitext(source)[1])
        stats = os.path.join(tmp, "stats.json")
        cache = os.path.join(tmp, "cache")
        for _ in range(runs):
            cmd = [tool, "-o=" + out, source, "--o-stats-json=" + stats, "--cache-dir=" + cache] + own + ["--"] + clang
            p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if p.returncode != expected_exit:
            print("migrate-hipify exited %d, expected %d:\n%s" % (p.returncode, expected_exit, p.stderr))
            return 1
        if not os.path.exists(out):
            print("migrate-hipify wrote no output:\n%s" % p.stderr)
            return 1
        checks = []
        if re.search(r"//\s*CHECK", text):
            checks.append(("CHECK", re.sub(r"//.+", "// ", open(out).read())))
        if re.search(r"//\s*STDERR", text):
            checks.append(("STDERR", p.stderr))
        if re.search(r"//\s*JSON", text):
            checks.append(("JSON", open(stats).read()))
        for prefix, data in checks:
            fc = subprocess.run([filecheck, source, "--check-prefix=" + prefix], input=data, capture_output=True,
                                text=True)
            if fc.returncode != 0:
                print("FileCheck %s failed:\n%s\n--- input was:\n%s" % (prefix, fc.stderr, data))
                return 1
        if compile_args is not None:
            hipcc = shutil.which("hipcc")
            if not hipcc:
                print("COMPILE needs hipcc on PATH (Debian: hipcc)")
                return 1
            # TMPDIR inside tmp: clang leaves an empty out-XXXXXX directory there for each offload compile.
            compiler_tmp = os.path.join(tmp, "compiler-tmp")
            os.makedirs(compiler_tmp, exist_ok=True)
            c = subprocess.run([hipcc] + compile_args + ["-c", "-x", "hip", out, "-o", out + ".o"],
                               capture_output=True, text=True, env=dict(os.environ, TMPDIR=compiler_tmp))
            if c.returncode != 0:
                print("the translated output does not compile (%d):\n%s\n--- output was:\n%s" %
                      (c.returncode, c.stderr, open(out).read()))
                return 1
        if c_args is not None:
            c = subprocess.run(["cc"] + c_args + ["-fsyntax-only", "-x", "c", out], capture_output=True, text=True)
            if c.returncode != 0:
                print("the translated output does not compile as C (%d):\n%s\n--- output was:\n%s" %
                      (c.returncode, c.stderr, open(out).read()))
                return 1
        if toolchain_compile is not None and not compile_with_toolchain(out, toolchain_compile):
            return 1
    return 0

def compile_with_toolchain(out, directive):
    name, options = directive[0], directive[1:]
    root = os.path.join("/var/cache/hipforge/toolchains", name)
    bwrap = shutil.which("bwrap")
    if not os.path.isdir(os.path.join(root, "usr")) or not bwrap:
        print("COMPILE-TOOLCHAIN %s: skipped (no rootfs at %s or no bwrap)" % (name, root))
        return True
    r = os.path.join(root, "usr")
    cmd = [bwrap, "--unshare-net", "--ro-bind", r, "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib",
           "/lib", "--symlink", "usr/lib64", "/lib64", "--ro-bind", os.path.join(root, "etc"), "/etc", "--proc",
           "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--ro-bind", out, "/src/" + os.path.basename(out), "--",
           "hipcc"] + options + ["-x", "hip", "/src/" + os.path.basename(out)]
    if "-fsyntax-only" not in options:
        cmd += ["-c", "-o", "/tmp/out.o"]
    c = subprocess.run(cmd, capture_output=True, text=True)
    if c.returncode != 0:
        print("the translated output does not compile with %s (%d):\n%s\n--- output was:\n%s" %
              (name, c.returncode, c.stderr, open(out).read()))
        return False
    print("COMPILE-TOOLCHAIN %s: compiled" % name)
    return True

if __name__ == "__main__":
    sys.exit(main())
