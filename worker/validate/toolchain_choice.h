#pragma once
// Which toolchain builds a job's tree for one arch, and which ROCm libraries the tree needs.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "worker/validate/arch_selection.h"
#include "worker/validate/toolchain.h"

namespace hipforge::validate {

// One place the translated tree asks for a ROCm library: an #include, a -l flag or a find_package call.
struct LibraryUse {
  std::string library;         // RocmLibrary::name
  std::filesystem::path file;  // relative to the tree
  int line = 0;
  std::string text;  // the line, trimmed
};

// Every library the tree needs, one use each (the first found, in path order).
std::vector<LibraryUse> FindLibraryUses(const std::filesystem::path& tree);

struct ToolchainChoice {
  const Toolchain* toolchain = nullptr;  // null when the list is empty
  ArchChoice arch;                       // the arch built with it (maybe a labelled stand-in)
  std::vector<LibraryUse> missing;       // needed libraries the chosen toolchain lacks
  std::string note;                      // why this toolchain, when it is not a clean fit
};

// Best toolchain for `requested_arch`: one with the job's HIP release (when it names one), every needed
// library, and the arch itself; among equals the newest HIP. A stand-in arch only when no toolchain has
// the arch. `toolchains` must outlive the result.
ToolchainChoice ChooseToolchain(const std::string& requested_arch, std::string_view hip_release,
                                const std::vector<LibraryUse>& needed, const std::vector<Toolchain>& toolchains);

// "needs hipBLASLt (src/gemm.hip:3: #include <hipblaslt/hipblaslt.h>), which no toolchain here has; tried
// rocm-6.4: HIP 6.4.3, clang 21.1.8; host: HIP 5.2.3, clang 15.0.6"
std::string MissingLibraryMessage(const LibraryUse& use, const std::vector<Toolchain>& tried);

}  // namespace hipforge::validate
