#include "worker/validate/nvidia_backend/nvidia_inventory.h"

#include <regex>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace hipforge::validate {

namespace {
constexpr const char* kQuery =
    "--query-gpu=index,pci.bus_id,name,memory.total,utilization.gpu,temperature.gpu,compute_cap";
}  // namespace

std::vector<GpuDevice> ParseNvidiaSmiQuery(const std::string& csv) {
  std::vector<GpuDevice> gpus;
  for (absl::string_view line : absl::StrSplit(csv, '\n', absl::SkipWhitespace())) {
    std::vector<std::string> f;
    for (absl::string_view field : absl::StrSplit(line, ',')) f.emplace_back(absl::StripAsciiWhitespace(field));
    if (f.size() < 7) continue;
    GpuDevice d;
    if (!absl::SimpleAtoi(f[0], &d.hip_index)) continue;
    // nvidia-smi prints an 8-digit domain ("00000000:1B:00.0"); keep the usual 4-digit form.
    std::string bus = absl::AsciiStrToLower(f[1]);
    if (bus.size() == 16 && bus.rfind("0000", 0) == 0) bus = bus.substr(4);
    d.key = bus;
    d.name = f[2];
    int64_t mib = 0;
    if (absl::SimpleAtoi(f[3], &mib)) d.memory_bytes = mib << 20;
    int busy = -1;
    if (absl::SimpleAtoi(f[4], &busy)) d.busy_percent = busy;
    double temperature = -1;
    if (absl::SimpleAtod(f[5], &temperature)) d.temperature_c = temperature;
    std::string cap = f[6];
    cap.erase(std::remove(cap.begin(), cap.end(), '.'), cap.end());
    d.arch = d.arch_full = "sm_" + cap;
    gpus.push_back(std::move(d));
  }
  return gpus;
}

NvidiaSmiInventory::NvidiaSmiInventory(ProcessLauncher& launcher, std::filesystem::path nvidia_smi,
                                       std::filesystem::path nvcc)
    : launcher_(launcher), nvidia_smi_(std::move(nvidia_smi)), nvcc_(std::move(nvcc)) {}

absl::StatusOr<std::vector<GpuDevice>> NvidiaSmiInventory::ListGpus() {
  runtime_note_.clear();
  auto result = launcher_.Run(
      {.argv = {nvidia_smi_.string(), kQuery, "--format=csv,noheader,nounits"}, .timeout = std::chrono::seconds(30)});
  if (!result.ok() || result->exit_code != 0) {
    runtime_note_ = result.ok() ? "nvidia-smi failed: " + result->standard_error
                                : "nvidia-smi not runnable: " + std::string(result.status().message());
    return std::vector<GpuDevice>{};
  }
  auto gpus = ParseNvidiaSmiQuery(result->standard_output);
  if (gpus.empty()) runtime_note_ = "nvidia-smi lists no GPU";
  return gpus;
}

absl::StatusOr<std::vector<std::string>> NvidiaSmiInventory::CompileTargets() {
  auto result = launcher_.Run({.argv = {nvcc_.string(), "--list-gpu-arch"}, .timeout = std::chrono::seconds(30)});
  if (!result.ok()) return result.status();
  std::vector<std::string> targets;
  static const std::regex kArch(R"(compute_(\d+[a-z]?))");
  for (auto it = std::sregex_iterator(result->standard_output.begin(), result->standard_output.end(), kArch);
       it != std::sregex_iterator(); ++it) {
    targets.push_back("sm_" + (*it)[1].str());
  }
  return targets;
}

std::string NvidiaSmiInventory::ToolchainName() {
  auto result = launcher_.Run({.argv = {nvcc_.string(), "--version"}, .timeout = std::chrono::seconds(30)});
  std::smatch match;
  if (result.ok() && std::regex_search(result->standard_output, match, std::regex(R"(release (\d+\.\d+))"))) {
    return absl::StrCat("nvcc ", match[1].str(), " + hipforge HIP-on-CUDA headers");
  }
  return "nvcc (version unknown) + hipforge HIP-on-CUDA headers";
}

}  // namespace hipforge::validate
