#pragma once
// Errors out of a build log (clang/hipcc diagnostics, linker errors, CMake errors), mapped back to
// the original CUDA file and line.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "worker/validate/report.h"
#include "worker/validate/source_map.h"

namespace hipforge::validate {

struct RawDiagnostic {
  std::string path;  // as printed; empty for linker errors
  int line = 0;
  int column = 0;
  std::string message;
};

// Error-level diagnostics only ("error:" and "fatal error:"), in order, deduplicated (hipcc prints a
// device and a host pass for the same line).
std::vector<RawDiagnostic> ParseBuildErrors(std::string_view build_log);

// At most `limit` errors; paths/lines mapped through `mapper`; `cwd` is where the compiler ran.
std::vector<BuildError> MapBuildErrors(const std::vector<RawDiagnostic>& diagnostics, const SourceMapper& mapper,
                                       const std::filesystem::path& cwd, size_t limit = 50);

}  // namespace hipforge::validate
