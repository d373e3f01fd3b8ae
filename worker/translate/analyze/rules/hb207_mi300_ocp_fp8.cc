#include "worker/translate/analyze/rules/hb207_mi300_ocp_fp8.h"

#include <set>

#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/analyze/rules/hb206_mi300_texture.h"

namespace hipforge::translate::analyze {
namespace {

// cuda_fp8.h's OCP (E4M3/E5M2 as in the OCP 8-bit floating point specification) types and conversion functions.
bool IsOcpFp8Name(std::string_view word) {
  static const std::set<std::string_view, std::less<>> kNames = {"__nv_fp8_e4m3",
                                                                 "__nv_fp8_e5m2",
                                                                 "__nv_fp8x2_e4m3",
                                                                 "__nv_fp8x2_e5m2",
                                                                 "__nv_fp8x4_e4m3",
                                                                 "__nv_fp8x4_e5m2",
                                                                 "__nv_fp8_storage_t",
                                                                 "__nv_fp8x2_storage_t",
                                                                 "__nv_fp8x4_storage_t",
                                                                 "__nv_cvt_float_to_fp8",
                                                                 "__nv_cvt_float2_to_fp8x2",
                                                                 "__nv_cvt_double_to_fp8",
                                                                 "__nv_cvt_double2_to_fp8x2",
                                                                 "__nv_cvt_halfraw_to_fp8",
                                                                 "__nv_cvt_halfraw2_to_fp8x2",
                                                                 "__nv_cvt_bfloat16raw_to_fp8",
                                                                 "__nv_cvt_bfloat16raw2_to_fp8x2",
                                                                 "__nv_cvt_fp8_to_halfraw",
                                                                 "__nv_cvt_fp8x2_to_halfraw2"};
  return kNames.count(word) > 0;
}

// What in `file` is not CUDA's fp8 though it bears its name: a type the file defines itself (`struct
// __nv_fp8_e4m3 {...}`: ggml's SYCL backend emulates CUDA's) and the lines that alias one (`typedef __hip_fp8_e4m3
// __nv_fp8_e4m3;`, `using __nv_fp8x2_e4m3 = ...;`): naming a type is no conversion.
struct OwnNames {
  std::set<std::string_view, std::less<>> types;
  std::set<uint32_t> alias_lines;
};

OwnNames FindOwnNames(const TextFile& file) {
  OwnNames own;
  const auto& tokens = file.tokens();
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kIdentifier || tokens[i].in_directive) continue;
    const std::string_view word = tokens[i].text;
    if ((word == "struct" || word == "class") && IsOcpFp8Name(tokens[i + 1].text)) {
      own.types.insert(tokens[i + 1].text);
    } else if (word == "typedef" || (word == "using" && IsOcpFp8Name(tokens[i + 1].text) && i + 2 < tokens.size() &&
                                     tokens[i + 2].text == "=")) {
      own.alias_lines.insert(file.LineColumn(tokens[i].offset).first);
    }
  }
  return own;
}

}  // namespace

Mi300OcpFp8Rule::Mi300OcpFp8Rule(FindingSink& sink, std::span<const std::string> target_architectures)
    : Rule(sink), mi300_target_(FirstMi300Target(target_architectures)) {}

const RuleInfo& Mi300OcpFp8Rule::info() const {
  static const RuleInfo kInfo{kRuleMi300OcpFp8, Severity::kError, RuleClass::kArchitecture,
                              "OCP fp8 types on MI300 (gfx94x converts only FNUZ fp8 in device code)"};
  return kInfo;
}

void Mi300OcpFp8Rule::CheckTokens(const TextFile& file) {
  if (mi300_target_.empty()) return;
  const auto& tokens = file.tokens();
  const OwnNames own = FindOwnNames(file);
  std::set<uint32_t> lines;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::kIdentifier || (token.in_directive && token.directive != "define")) continue;
    if (i > 0 && (tokens[i - 1].text == "." || tokens[i - 1].text == "->")) continue;
    if (!IsOcpFp8Name(token.text) || own.types.count(token.text)) continue;
    const uint32_t line = file.LineColumn(token.offset).first;
    if (own.alias_lines.count(line) || !lines.insert(line).second) continue;
    Report(file, token.offset,
           "`" + std::string(token.text) + "` is OCP fp8; on " + mi300_target_ +
               " (MI300) HIP converts OCP fp8 on the host only (its device fp8 is FNUZ, with another range: e4m3 "
               "tops out at 240, not 448), so device code that converts it does not build: needs a person",
           "Use the FNUZ types (__hip_fp8_e4m3_fnuz, __hip_fp8_e5m2_fnuz) after checking that the values fit "
           "their range (rescale if not), keep the OCP conversions on the host, or build the program for "
           "gfx950/gfx12 only.");
  }
}

}  // namespace hipforge::translate::analyze
