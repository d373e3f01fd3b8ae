#include "worker/validate/resource_usage.h"
#include "worker/validate/text_util.h"

#include <cxxabi.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace hipforge::validate {
namespace {

constexpr absl::string_view kRemarkTag = "[-Rpass-analysis=kernel-resource-usage]";

std::string Demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status),
                                                   std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : name;
}

// "remark:     VGPRs Spill: 0 [-Rpass...]" -> {"VGPRs Spill", "0"}
bool SplitRemark(absl::string_view line, absl::string_view& key, absl::string_view& value) {
  size_t remark = line.find("remark:");
  size_t tag = line.rfind(kRemarkTag);
  if (remark == absl::string_view::npos || tag == absl::string_view::npos || tag < remark) return false;
  absl::string_view body = absl::StripAsciiWhitespace(line.substr(remark + 7, tag - remark - 7));
  size_t colon = body.rfind(": ");
  if (colon == absl::string_view::npos) return false;
  key = absl::StripAsciiWhitespace(body.substr(0, colon));
  value = absl::StripAsciiWhitespace(body.substr(colon + 2));
  return true;
}

}  // namespace

std::vector<KernelResources> ParseKernelResourceRemarks(std::string_view compiler_output_std) {
  const absl::string_view compiler_output = ToAbsl(compiler_output_std);
  std::vector<KernelResources> kernels;
  std::set<std::string> seen;
  KernelResources* current = nullptr;
  bool skipping_duplicate = false;
  KernelResources discard;

  for (absl::string_view line : absl::StrSplit(compiler_output, '\n')) {
    absl::string_view key, value;
    if (!SplitRemark(line, key, value)) continue;
    if (key == "Function Name" || key == "Kernel Name") {
      std::string name = Demangle(std::string(value));
      skipping_duplicate = !seen.insert(name).second;
      if (skipping_duplicate) {
        discard = KernelResources{};
        current = &discard;
      } else {
        kernels.push_back(KernelResources{.name = name});
        current = &kernels.back();
      }
      continue;
    }
    if (current == nullptr) continue;
    int64_t number = 0;
    if (!absl::SimpleAtoi(value, &number)) continue;  // "Dynamic Stack: False" and the like
    if (key == "SGPRs" || key == "TotalSGPRs") {
      current->sgprs = static_cast<int>(number);
    } else if (key == "VGPRs") {
      current->vgprs = static_cast<int>(number);
    } else if (key == "AGPRs") {
      current->agprs = static_cast<int>(number);
    } else if (absl::StartsWith(key, "ScratchSize")) {
      current->scratch_bytes = number;
    } else if (absl::StartsWith(key, "Occupancy")) {
      current->occupancy = static_cast<int>(number);
    } else if (key == "SGPRs Spill" || key == "VGPRs Spill") {
      current->spills += static_cast<int>(number);
    } else if (absl::StartsWith(key, "LDS Size")) {
      current->lds_bytes = number;
    }
  }
  return kernels;
}

}  // namespace hipforge::validate
