#include "worker/validate/gpu_inventory.h"
#include "worker/validate/text_util.h"
#include "worker/validate/toolchain.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

// Only C entry points with plain signatures, stable across ROCm 5 and 6 (hipDeviceProp_t changed
// layout in 6.0, so the arch comes from the KFD topology instead of the properties struct).
using HipGetDeviceCount = int (*)(int*);
using HipDeviceGetName = int (*)(char*, int, int);
using HipDeviceTotalMem = int (*)(size_t*, int);
using HipDeviceGetPCIBusId = int (*)(char*, int, int);
using RsmiInit = int (*)(uint64_t);
using RsmiShutDown = int (*)();
using RsmiNumDevices = int (*)(uint32_t*);
using RsmiPciId = int (*)(uint32_t, uint64_t*);
using RsmiMemoryTotal = int (*)(uint32_t, int, uint64_t*);
using RsmiBusyPercent = int (*)(uint32_t, uint32_t*);
using RsmiTemperature = int (*)(uint32_t, uint32_t, int, int64_t*);

class Library {
 public:
  explicit Library(std::initializer_list<const char*> names) {
    for (const char* name : names) {
      handle_ = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (handle_ != nullptr) return;
      error_ = dlerror();
    }
  }
  ~Library() {
    if (handle_ != nullptr) dlclose(handle_);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  bool loaded() const { return handle_ != nullptr; }
  const std::string& error() const { return error_; }
  template <typename F>
  F Symbol(const char* name) const {
    return handle_ ? reinterpret_cast<F>(dlsym(handle_, name)) : nullptr;
  }

 private:
  void* handle_ = nullptr;
  std::string error_;
};

std::string FormatBdf(uint64_t bdfid) {
  // rocm-smi packs domain<<32 | bus<<8 | device<<3 | function.
  return absl::StrFormat("%04x:%02x:%02x.%x", (bdfid >> 32) & 0xffffffff, (bdfid >> 8) & 0xff, (bdfid >> 3) & 0x1f,
                         bdfid & 0x7);
}

// "gfx_target_version 90010" -> "gfx90a" (major*10000 + minor*100 + stepping; minor/stepping in hex).
std::string ArchFromTargetVersion(int64_t version) {
  if (version <= 0) return "";
  return absl::StrFormat("gfx%d%x%x", version / 10000, (version / 100) % 100, version % 100);
}

// KFD topology: PCI "domain:bus:dev.fn" -> arch, for every GPU node.
std::map<std::string, std::string> KfdArchByBdf() {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (const auto& node : fs::directory_iterator("/sys/class/kfd/kfd/topology/nodes", ec)) {
    std::ifstream in(node.path() / "properties");
    std::map<std::string, int64_t> props;
    std::string key;
    int64_t value;
    while (in >> key >> value) props[key] = value;
    if (props["gfx_target_version"] == 0) continue;  // CPU node
    const int64_t location = props["location_id"];   // bus<<8 | devfn
    const std::string bdf = absl::StrFormat("%04x:%02x:%02x.%x", props["domain"], (location >> 8) & 0xff,
                                            (location >> 3) & 0x1f, location & 0x7);
    out[bdf] = ArchFromTargetVersion(props["gfx_target_version"]);
  }
  return out;
}

std::string RenderNodeFor(const std::string& bdf) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(fs::path("/sys/bus/pci/devices") / bdf / "drm", ec)) {
    const std::string name = entry.path().filename().string();
    if (absl::StartsWith(name, "renderD")) return "/dev/dri/" + name;
  }
  return "";
}

struct SmiReading {
  int64_t vram_bytes = 0;
  int busy_percent = -1;
  double temperature_c = -1;
};

std::map<std::string, SmiReading> ReadRocmSmi() {
  std::map<std::string, SmiReading> out;
  Library smi({"librocm_smi64.so", "librocm_smi64.so.1", "librocm_smi64.so.6", "librocm_smi64.so.7"});
  auto init = smi.Symbol<RsmiInit>("rsmi_init");
  auto shut_down = smi.Symbol<RsmiShutDown>("rsmi_shut_down");
  auto count = smi.Symbol<RsmiNumDevices>("rsmi_num_monitor_devices");
  auto pci = smi.Symbol<RsmiPciId>("rsmi_dev_pci_id_get");
  if (!init || !count || !pci || init(0) != 0) return out;
  auto memory = smi.Symbol<RsmiMemoryTotal>("rsmi_dev_memory_total_get");
  auto busy = smi.Symbol<RsmiBusyPercent>("rsmi_dev_busy_percent_get");
  auto temperature = smi.Symbol<RsmiTemperature>("rsmi_dev_temp_metric_get");
  uint32_t n = 0;
  if (count(&n) == 0) {
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t bdfid = 0;
      if (pci(i, &bdfid) != 0) continue;
      SmiReading reading;
      uint64_t bytes = 0;
      if (memory && memory(i, /*RSMI_MEM_TYPE_VRAM*/ 0, &bytes) == 0) reading.vram_bytes = static_cast<int64_t>(bytes);
      uint32_t percent = 0;
      if (busy && busy(i, &percent) == 0) reading.busy_percent = static_cast<int>(percent);
      int64_t millidegrees = 0;
      if (temperature && temperature(i, /*EDGE*/ 0, /*CURRENT*/ 0, &millidegrees) == 0) {
        reading.temperature_c = millidegrees / 1000.0;
      }
      out[FormatBdf(bdfid)] = reading;
    }
  }
  if (shut_down) shut_down();
  return out;
}

}  // namespace

bool IsInstinctArch(const std::string& arch) {
  static const std::set<std::string> kInstinct = {"gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950"};
  return kInstinct.count(arch.substr(0, arch.find(':'))) > 0;
}

HipRocmSmiInventory::HipRocmSmiInventory(ProcessLauncher& launcher, fs::path hipcc)
    : launcher_(launcher), hipcc_(std::move(hipcc)) {}

absl::StatusOr<std::vector<GpuDevice>> HipRocmSmiInventory::ListGpus() {
  runtime_note_.clear();
  std::error_code ec;
  if (!fs::exists("/dev/kfd", ec)) {
    runtime_note_ = "no /dev/kfd: no AMD GPU driver on this host";
    return std::vector<GpuDevice>{};
  }
  Library hip({"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so.7"});
  if (!hip.loaded()) {
    runtime_note_ = "HIP runtime not loadable: " + hip.error();
    return std::vector<GpuDevice>{};
  }
  auto get_count = hip.Symbol<HipGetDeviceCount>("hipGetDeviceCount");
  auto get_name = hip.Symbol<HipDeviceGetName>("hipDeviceGetName");
  auto total_mem = hip.Symbol<HipDeviceTotalMem>("hipDeviceTotalMem");
  auto bus_id = hip.Symbol<HipDeviceGetPCIBusId>("hipDeviceGetPCIBusId");
  if (!get_count || !bus_id) return absl::InternalError("libamdhip64 lacks hipGetDeviceCount/hipDeviceGetPCIBusId");
  int count = 0;
  if (int rc = get_count(&count); rc != 0) {
    runtime_note_ = absl::StrCat("hipGetDeviceCount failed with hipError ", rc);
    return std::vector<GpuDevice>{};
  }
  const auto kfd_arch = KfdArchByBdf();
  const auto smi = ReadRocmSmi();
  std::vector<GpuDevice> gpus;
  for (int i = 0; i < count; ++i) {
    GpuDevice device;
    device.hip_index = i;
    char buffer[256] = {};
    if (bus_id(buffer, sizeof buffer, i) == 0) device.key = absl::AsciiStrToLower(buffer);
    if (get_name && get_name(buffer, sizeof buffer, i) == 0) device.name = buffer;
    size_t bytes = 0;
    if (total_mem && total_mem(&bytes, i) == 0) device.memory_bytes = static_cast<int64_t>(bytes);
    if (auto it = kfd_arch.find(device.key); it != kfd_arch.end()) device.arch = device.arch_full = it->second;
    if (auto it = smi.find(device.key); it != smi.end()) {
      if (it->second.vram_bytes > 0) device.memory_bytes = it->second.vram_bytes;
      device.busy_percent = it->second.busy_percent;
      device.temperature_c = it->second.temperature_c;
    }
    device.render_node = RenderNodeFor(device.key);
    device.instinct = IsInstinctArch(device.arch) || absl::StrContains(device.name, "Instinct");
    if (device.key.empty()) device.key = absl::StrCat("hip-index-", i);
    gpus.push_back(std::move(device));
  }
  if (gpus.empty()) runtime_note_ = "HIP runtime reports no devices";
  return gpus;
}

absl::StatusOr<std::vector<std::string>> HipRocmSmiInventory::CompileTargets() {
  ExecutionContext host;  // the worker's own environment, no sandbox
  if (const char* path = std::getenv("PATH")) host.environment["PATH"] = path;
  return QueryOffloadArchs(launcher_, host, hipcc_);
}

std::string HipRocmSmiInventory::ToolchainName() {
  ProcessSpec spec;
  spec.argv = {hipcc_.string(), "--version"};
  spec.timeout = std::chrono::seconds(60);
  auto result = launcher_.Run(spec);
  if (!result.ok() || result->exit_code != 0) return hipcc_.string() + " (version unknown)";
  std::smatch match;
  std::string hip_version, clang_version;
  const std::string& out = result->standard_output;
  if (std::regex_search(out, match, std::regex(R"(HIP version:\s*(\d+)\.(\d+)\.(\d+))"))) {
    // HIP encodes the patch as YYWWP (e.g. 21153); ROCm names the release by major.minor.
    hip_version = absl::StrCat(match[1].str(), ".", match[2].str());
  }
  if (std::regex_search(out, match, std::regex(R"((\S*)\s*clang version\s*(\S+))"))) {
    clang_version = absl::StrCat(match[1].str().empty() ? "" : match[1].str() + " ", "clang ", match[2].str());
  }
  return absl::StrCat("hipcc ", hip_version.empty() ? "?" : hip_version, " (", clang_version, ", ", hipcc_.string(),
                      ")");
}

std::string HipRocmSmiInventory::RuntimeNote() { return runtime_note_; }

Capabilities DescribeCapabilities(GpuInventory& inventory) {
  Capabilities caps;
  if (auto gpus = inventory.ListGpus(); gpus.ok()) caps.gpus = *gpus;
  if (auto targets = inventory.CompileTargets(); targets.ok()) caps.compile_targets = *targets;
  caps.toolchain = inventory.ToolchainName();
  caps.runtime_note = inventory.RuntimeNote();
  if (caps.gpus.empty() && caps.runtime_note.empty()) caps.runtime_note = "no AMD GPU";
  return caps;
}

}  // namespace hipforge::validate
