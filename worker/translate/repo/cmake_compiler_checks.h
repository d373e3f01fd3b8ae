#pragma once
// CMake's compiler checks (identification, ABI and features of C, C++ and CUDA: ~4.5 s of a small project's 5 s
// configure, the same for every project on one machine) done once per toolchain and kept in a DiskCache. A build
// dir seeded with their results (CMakeFiles/<version>/CMake<LANG>Compiler.cmake, CMakeSystem.cmake and
// CMAKE_PLATFORM_INFO_INITIALIZED in its cache) is configured as CMake configures one it has configured before:
// without the checks. The results come from a probe project of ours, run under the same sandbox and command line
// as a user's configure; never from a user's build dir, whose files its CMake code could have written and which
// would then run in other users' configures. tests/repo/cmake_compiler_checks_test.cc.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "common/disk_cache.h"

namespace hipforge::translate {

// True when the checks of a configure of the project whose top-level CMakeLists.txt is `top_level`, with the
// user's extra `options`, are the probe's: nothing before its first project() and no option names a compiler,
// flags, a toolchain file, a target system or CUDA architectures (each changes what the checks find).
bool CompilerChecksAreShared(const std::string& top_level, const std::vector<std::string>& options);

// False when `cmake_file` sets a C, C++ or CUDA compiler, host compiler or flags (or a toolchain file) before it
// enables one of those languages (`enable_language(CUDA)` in a sub-directory, after the top-level project()).
bool LaterLanguagesShareChecks(const std::string& cmake_file);

class CMakeCompilerChecks {
 public:
  // Configures `source` into `build` under the sandbox with the toolchain arguments every configure gets; true on
  // success.
  using RunConfigure = std::function<bool(const std::filesystem::path& source, const std::filesystem::path& build)>;

  // `directory` empty: disabled (Seed does nothing). `toolchain`: what makes one machine's checks differ from
  // another's (the configure's toolchain arguments, the compilers' identities: ToolchainIdentity).
  CMakeCompilerChecks(std::filesystem::path directory, std::vector<std::string> toolchain);

  // Seeds the empty `build_dir` with the checks (probing first, into `probe_dir`, when none are kept); false when
  // nothing was seeded (disabled, or the probe failed: the configure then runs its own checks).
  bool Seed(const std::filesystem::path& build_dir, const std::filesystem::path& probe_dir,
            const RunConfigure& run) const;

 private:
  DiskCache cache_;
  std::string key_;
};

// The configure's toolchain arguments and each tool's path, size and modification time, and the environment
// variables CMake reads compilers and flags from: a changed compiler is a new key.
std::vector<std::string> ToolchainIdentity(const std::vector<std::string>& arguments,
                                           const std::vector<std::filesystem::path>& tools);

}  // namespace hipforge::translate
