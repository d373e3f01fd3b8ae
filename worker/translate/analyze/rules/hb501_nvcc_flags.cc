#include "worker/translate/analyze/rules/hb501_nvcc_flags.h"

#include <cctype>

#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/tables/build_tables.h"

namespace hipforge::translate::analyze {
namespace {

bool IsFlagBoundary(char c) {
  return std::isspace(static_cast<unsigned char>(c)) || c == '"' || c == '\'' || c == '=' || c == '(' || c == '[' ||
         c == ',' || c == '{' || c == ';';
}

// nvcc's options are the build table's (tables/build_tables.h: the flags the rewriters map), matched at an
// argument boundary; flags another tool may share (-G, -dc, -arch, -Xlinker) count only on a line that means nvcc.
bool EndsFlag(std::string_view code, size_t end, NvccFlagForm form) {
  if (end >= code.size()) return true;
  const char next = code[end];
  if (form == NvccFlagForm::kWithValue && (next == '=' || next == '"' || next == '\'')) return true;
  return !(std::isalnum(static_cast<unsigned char>(next)) || next == '_' || next == '-' || next == '=' || next == '.');
}

std::vector<std::string> NvccFlagsIn(std::string_view code) {
  std::vector<std::string> found;
  const bool nvcc_context = IsNvccContext(code);
  for (const NvccFlagRule& flag : NvccFlagRules()) {
    if (flag.nvcc_context_only && !nvcc_context) continue;
    for (size_t at = code.find(flag.spelling); at != std::string_view::npos; at = code.find(flag.spelling, at + 1)) {
      if (at > 0 && !IsFlagBoundary(code[at - 1])) continue;
      if (!EndsFlag(code, at + flag.spelling.size(), flag.form)) continue;
      found.emplace_back(flag.spelling);
      break;
    }
  }
  for (size_t at : FindWord(code, "nvcc", "-.")) {
    (void)at;
    found.insert(found.begin(), "nvcc");
    break;
  }
  // Bare NVIDIA architecture names (ARCH = sm_80, CUDA_ARCH ?= compute_70).
  for (std::string_view prefix : {std::string_view("sm_"), std::string_view("compute_")}) {
    for (size_t at = code.find(prefix); at != std::string_view::npos; at = code.find(prefix, at + 1)) {
      if (at > 0 && (std::isalnum(static_cast<unsigned char>(code[at - 1])) || code[at - 1] == '_')) continue;
      const size_t digit = at + prefix.size();
      if (digit < code.size() && std::isdigit(static_cast<unsigned char>(code[digit]))) {
        size_t end = digit;
        while (end < code.size() && std::isalnum(static_cast<unsigned char>(code[end]))) ++end;
        found.emplace_back(code.substr(at, end - at));
        break;
      }
    }
  }
  return found;
}

}  // namespace

const RuleInfo& NvccFlagsRule::info() const {
  static const RuleInfo kInfo{kRuleNvccFlags, Severity::kError, RuleClass::kBuild,
                              "nvcc invocations and flags (-arch=sm_XX, -gencode, -Xptxas, -rdc, --use_fast_math)"};
  return kInfo;
}

void NvccFlagsRule::CheckLines(const TextFile& file) {
  for (uint32_t line = 1; line <= file.LineCount(); ++line) {
    const std::string_view text = file.Line(line);
    const std::string_view code = CodePart(text);
    const auto flags = NvccFlagsIn(code);
    if (flags.empty()) continue;
    std::string list;
    for (const auto& flag : flags) list += (list.empty() ? "" : ", ") + flag;
    const size_t first = code.find_first_not_of(" \t");
    Report(file, file.LineStart(line) + static_cast<uint32_t>(first == std::string_view::npos ? 0 : first),
           "nvcc invocation/flags (" + list + "): hipcc/amdclang++ do not accept them",
           "Build with hipcc (or CMake's HIP language) and translate the flags: --offload-arch=" +
               TargetList(targets_, ";") +
               " for -arch/-gencode, -fgpu-rdc for -rdc=true, for --use_fast_math its parts "
               "(-fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt "
               "-fcuda-approx-transcendentals; -ffast-math would also assume no NaN or Inf), drop -Xptxas/-Xcompiler "
               "wrappers (pass host flags directly).");
  }
}

}  // namespace hipforge::translate::analyze
