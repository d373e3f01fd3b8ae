#include "worker/translate/analyze/rules/hb503_cuda_env_var.h"

#include <set>

namespace hipforge::translate::analyze {
namespace {

struct EnvVar {
  std::string_view name;
  std::string_view replacement;
};
constexpr EnvVar kVariables[] = {
    {"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES (or ROCR_VISIBLE_DEVICES)"},
    {"CUDA_LAUNCH_BLOCKING", "AMD_SERIALIZE_KERNEL=3 (and HIP_LAUNCH_BLOCKING on older ROCm)"},
    {"CUDA_DEVICE_ORDER", "nothing: HIP enumerates devices in PCI bus order; drop it"},
    {"CUDA_DEVICE_MAX_CONNECTIONS", "GPU_MAX_HW_QUEUES"},
    {"CUDA_CACHE_DISABLE", "AMD_COMGR_CACHE=0 / no kernel cache setting (code objects are not JIT-compiled)"},
    {"CUDA_CACHE_PATH", "nothing (HIP code objects are not JIT-compiled from PTX)"},
    {"CUDA_CACHE_MAXSIZE", "nothing (HIP code objects are not JIT-compiled from PTX)"},
    {"CUDA_MODULE_LOADING", "nothing (HIP loads code objects eagerly)"},
    {"CUDA_FORCE_PTX_JIT", "nothing (no PTX on AMD)"},
    {"CUDA_DISABLE_PTX_JIT", "nothing (no PTX on AMD)"},
    {"CUDA_AUTO_BOOST", "nothing"},
    {"CUDA_MPS_PIPE_DIRECTORY", "nothing (no MPS on AMD)"},
    {"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "nothing (no MPS; use CU masking with HSA_CU_MASK)"},
    {"NVIDIA_VISIBLE_DEVICES", "container device flags: --device=/dev/kfd --device=/dev/dri"},
    {"NVIDIA_DRIVER_CAPABILITIES", "nothing (ROCm containers pass /dev/kfd and /dev/dri)"},
    {"NVIDIA_TF32_OVERRIDE", "nothing (no TF32 on MI250; hipBLASLt settings on MI300)"},
};

// The first mention that is a use: `is_prose(text, offset)` filters printed messages and prose strings.
template <typename ProseTest>
const EnvVar* FindVariable(std::string_view text, size_t* position, ProseTest is_prose) {
  for (const EnvVar& variable : kVariables) {
    for (size_t hit : FindWord(text, variable.name)) {
      if (is_prose(text, hit)) continue;
      *position = hit;
      return &variable;
    }
  }
  return nullptr;
}

std::string Message(const EnvVar& variable) {
  return std::string(variable.name) + ": CUDA environment variable; the ROCm runtime ignores or interprets it differently";
}

std::string Fix(const EnvVar& variable) { return "Use " + std::string(variable.replacement) + "."; }

}  // namespace

const RuleInfo& CudaEnvVarRule::info() const {
  static const RuleInfo kInfo{"HB503", Severity::kWarning, RuleClass::kBuild,
                              "CUDA environment variables (CUDA_VISIBLE_DEVICES, CUDA_LAUNCH_BLOCKING, ...)"};
  return kInfo;
}

void CudaEnvVarRule::checkLines(const TextFile& file) {
  for (uint32_t line = 1; line <= file.LineCount(); ++line) {
    const std::string_view code = CodePart(file.Line(line));
    size_t position = 0;
    const EnvVar* variable = FindVariable(code, &position, IsProseMention);
    if (!variable) continue;
    Report(file, file.LineStart(line) + static_cast<uint32_t>(position), Message(*variable), Fix(*variable));
  }
}

void CudaEnvVarRule::checkTokens(const TextFile& file) {
  std::set<uint32_t> lines_done;
  for (const Token& token : file.tokens()) {
    if (token.kind != TokenKind::kString || token.in_directive) continue;
    size_t position = 0;
    const std::string_view body = StringLiteralBody(token.text);
    const EnvVar* variable = FindVariable(body, &position, IsProseInString);
    if (!variable) continue;
    const uint32_t offset = token.offset + static_cast<uint32_t>(body.data() - token.text.data() + position);
    if (!lines_done.insert(file.LineColumn(offset).first).second) continue;
    Report(file, offset, Message(*variable), Fix(*variable));
  }
}

}  // namespace hipforge::translate::analyze
