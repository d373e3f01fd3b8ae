#include "worker/translate/analyze/rules/hb502_cuda_cmake.h"

#include <cctype>

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& CudaCmakeRule::info() const {
  static const RuleInfo kInfo{kRuleCudaCmake, Severity::kError, RuleClass::kBuild,
                              "CUDA-only CMake (LANGUAGES CUDA, find_package(CUDA), CUDAToolkit, CUDA:: targets, "
                              "CMAKE_CUDA_ARCHITECTURES)"};
  return kInfo;
}

void CudaCmakeRule::CheckLines(const TextFile& file) {
  if (file.kind() != FileKind::kCMake) return;
  static constexpr std::string_view kWords[] = {"CUDAToolkit",
                                                "CMAKE_CUDA_ARCHITECTURES",
                                                "CUDA_ARCHITECTURES",
                                                "CMAKE_CUDA_STANDARD",
                                                "CMAKE_CUDA_COMPILER",
                                                "CMAKE_CUDA_HOST_COMPILER",
                                                "CMAKE_CUDA_SEPARABLE_COMPILATION",
                                                "CUDA_SEPARABLE_COMPILATION",
                                                "CUDA_RESOLVE_DEVICE_SYMBOLS",
                                                "CUDA_TOOLKIT_ROOT_DIR",
                                                "CUDA_INCLUDE_DIRS",
                                                "CUDA_LIBRARIES",
                                                "CUDA_CUBLAS_LIBRARIES",
                                                "CUDA_curand_LIBRARY",
                                                "CUDA_cusparse_LIBRARY",
                                                "cuda_add_executable",
                                                "cuda_add_library",
                                                "CUDA_ADD_EXECUTABLE",
                                                "CUDA_ADD_LIBRARY",
                                                "cuda_add_cublas_to_target",
                                                "CUDA_STANDARD",
                                                "CMAKE_CUDA_STANDARD_REQUIRED",
                                                "CUDA_PTX_COMPILATION",
                                                "CMAKE_CUDA_RUNTIME_LIBRARY",
                                                "CUDA_RUNTIME_LIBRARY"};
  for (uint32_t line = 1; line <= file.LineCount(); ++line) {
    const std::string_view code = CodePart(file.Line(line));
    // message(STATUS "... ${CMAKE_CUDA_ARCHITECTURES}") only prints: not a CUDA-only construct.
    if (const size_t first = code.find_first_not_of(" \t");
        first != std::string_view::npos && IsProseMention(code, code.size())) {
      continue;
    }
    std::string what;
    for (std::string_view word : kWords) {
      if (!FindWord(code, word).empty()) {
        what = word;
        break;
      }
    }
    if (what.empty() && code.find("CUDA::") != std::string_view::npos) what = "CUDA:: imported targets";
    if (what.empty() && code.find("COMPILE_LANGUAGE:CUDA") != std::string_view::npos) what = "$<COMPILE_LANGUAGE:CUDA>";
    if (what.empty() && !FindWord(code, "CUDA").empty()) {
      const std::string lower = [&] {
        std::string out(code);
        for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return out;
      }();
      if (code.find("LANGUAGES") != std::string_view::npos || lower.find("project(") != std::string::npos ||
          lower.find("enable_language(") != std::string::npos || lower.find("check_language(") != std::string::npos) {
        what = "CUDA language";
      } else if (lower.find("find_package(") != std::string::npos) {
        what = "find_package(CUDA)";
      } else if (code.find("LANGUAGE CUDA") != std::string_view::npos) {
        what = "LANGUAGE CUDA source property";
      }
    }
    if (what.empty()) continue;
    const size_t first = code.find_first_not_of(" \t");
    Report(file, file.LineStart(line) + static_cast<uint32_t>(first == std::string_view::npos ? 0 : first),
           "CUDA-only CMake (" + what + "): a ROCm build needs the HIP language or hip:: targets",
           "Use enable_language(HIP) / project(... LANGUAGES CXX HIP), set_source_files_properties(... LANGUAGE HIP), "
           "CMAKE_HIP_ARCHITECTURES (" +
               TargetList(targets_, ";") +
               "), find_package(hip) and hip::host/hip::device or roc::/hip:: "
               "library targets instead of CUDA::.");
  }
}

}  // namespace hipforge::translate::analyze
