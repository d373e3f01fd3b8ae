#include "worker/validate/toolchain.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

// Debian installs ROCm under /usr; AMD's packages under /opt/rocm.
constexpr const char* kIncludeDirs[] = {"usr/include", "opt/rocm/include"};
constexpr const char* kLibraryDirs[] = {"usr/lib/x86_64-linux-gnu", "usr/lib", "opt/rocm/lib"};

const RocmLibrary kLibraries[] = {
    {"hipblas", "hipBLAS", {"hipblas/hipblas.h", "hipblas.h"}, "libhipblas.so", {"hipblas/", "hipblas.h"}},
    {"hipblaslt", "hipBLASLt", {"hipblaslt/hipblaslt.h"}, "libhipblaslt.so", {"hipblaslt/", "hipblaslt.h"}},
    {"rocblas", "rocBLAS", {"rocblas/rocblas.h", "rocblas.h"}, "librocblas.so", {"rocblas/", "rocblas.h"}},
    {"rocthrust", "rocThrust", {"thrust/version.h"}, "", {"thrust/"}},
    {"hipcub", "hipCUB", {"hipcub/hipcub.hpp"}, "", {"hipcub/"}},
    {"rocprim", "rocPRIM", {"rocprim/rocprim.hpp"}, "", {"rocprim/"}},
    {"hipfft", "hipFFT", {"hipfft/hipfft.h", "hipfft.h"}, "libhipfft.so", {"hipfft/", "hipfft.h"}},
    {"hiprand", "hipRAND", {"hiprand/hiprand.h", "hiprand.h"}, "libhiprand.so", {"hiprand/", "hiprand.h"}},
    {"rocrand", "rocRAND", {"rocrand/rocrand.h", "rocrand.h"}, "librocrand.so", {"rocrand/", "rocrand.h"}},
    {"hipsparse",
     "hipSPARSE",
     {"hipsparse/hipsparse.h", "hipsparse.h"},
     "libhipsparse.so",
     {"hipsparse/", "hipsparse.h"}},
    {"rocsparse",
     "rocSPARSE",
     {"rocsparse/rocsparse.h", "rocsparse.h"},
     "librocsparse.so",
     {"rocsparse/", "rocsparse.h"}},
    {"hipsolver",
     "hipSOLVER",
     {"hipsolver/hipsolver.h", "hipsolver.h"},
     "libhipsolver.so",
     {"hipsolver/", "hipsolver.h"}},
    {"rocsolver", "rocSOLVER", {"rocsolver/rocsolver.h"}, "librocsolver.so", {"rocsolver/"}},
    {"miopen", "MIOpen", {"miopen/miopen.h"}, "libMIOpen.so", {"miopen/"}},
    {"rccl", "RCCL", {"rccl/rccl.h", "rccl.h"}, "librccl.so", {"rccl/", "rccl.h"}},
    {"hiptensor", "hipTensor", {"hiptensor/hiptensor.hpp"}, "libhiptensor.so", {"hiptensor/"}},
    {"roctracer",
     "roctracer (roctx)",
     {"roctracer/roctx.h", "roctracer/roctracer.h"},
     "libroctx64.so",
     {"roctracer/", "roctx.h"}},
    {"rocprofiler",
     "rocprofiler",
     {"rocprofiler/rocprofiler.h", "rocprofiler-sdk/rocprofiler.h"},
     "librocprofiler64.so",
     {"rocprofiler/", "rocprofiler-sdk/"}},
    {"rocm_smi", "ROCm SMI", {"rocm_smi/rocm_smi.h"}, "librocm_smi64.so", {"rocm_smi/"}},
};

fs::path Inside(const Toolchain& toolchain, std::string_view relative) {
  return (toolchain.rootfs.empty() ? fs::path("/") : toolchain.rootfs) / fs::path(relative);
}

bool LibraryFilePresent(const Toolchain& toolchain, std::string_view shared_library) {
  std::error_code ec;
  for (const char* dir : kLibraryDirs) {
    if (fs::exists(Inside(toolchain, dir) / shared_library, ec)) return true;
  }
  return false;
}

// "5.7.1-6+deb13u1" -> "5.7.1", "1:6.4.3-2" -> "6.4.3".
std::string UpstreamVersion(std::string version) {
  if (const size_t colon = version.find(':'); colon != std::string::npos) version.erase(0, colon + 1);
  if (const size_t dash = version.rfind('-'); dash != std::string::npos) version.erase(dash);
  if (const size_t tilde = version.find('~'); tilde != std::string::npos) version.erase(tilde);
  return version;
}

// The HIP release as packaged: dpkg's record of libamdhip64-dev (Debian), else AMD's /opt/rocm/.info/version.
// Read from the files: the sandbox does not show /var.
std::string PackagedHipVersion(const Toolchain& toolchain) {
  std::ifstream status(Inside(toolchain, "var/lib/dpkg/status"));
  std::string line;
  bool in_record = false;
  while (std::getline(status, line)) {
    if (absl::StartsWith(line, "Package: ")) in_record = line == "Package: libamdhip64-dev";
    if (in_record && absl::StartsWith(line, "Version: ")) return UpstreamVersion(line.substr(9));
  }
  std::ifstream info(Inside(toolchain, "opt/rocm/.info/version"));
  if (std::getline(info, line) && !line.empty()) return UpstreamVersion(line);
  return "";
}

absl::StatusOr<ProcessResult> RunInside(ProcessLauncher& launcher, const ExecutionContext& context,
                                        const std::vector<std::string>& argv, const fs::path& cwd) {
  auto result = launcher.Run(PrepareCommand(context, argv, cwd, std::chrono::seconds(60)));
  if (!result.ok()) return result.status();
  return result;
}

}  // namespace

std::span<const RocmLibrary> RocmLibraries() { return kLibraries; }

const RocmLibrary* FindRocmLibrary(std::string_view name) {
  for (const RocmLibrary& library : kLibraries) {
    if (library.name == name) return &library;
  }
  return nullptr;
}

std::string Toolchain::Describe() const {
  if (!description.empty()) return description;
  std::string text = absl::StrCat(name, ": HIP ", probe.hip_version.empty() ? "?" : probe.hip_version);
  if (!probe.clang_version.empty()) absl::StrAppend(&text, ", clang ", probe.clang_version);
  return text;
}

std::string Toolchain::HipRelease() const {
  std::vector<std::string> parts = absl::StrSplit(probe.hip_version, '.');
  if (parts.size() < 2) return probe.hip_version;
  return absl::StrCat(parts[0], ".", parts[1]);
}

bool Toolchain::HasArch(std::string_view arch) const {
  const std::string_view processor = arch.substr(0, arch.find(':'));
  return std::find(probe.offload_archs.begin(), probe.offload_archs.end(), processor) != probe.offload_archs.end();
}

bool Toolchain::HasLibrary(std::string_view library) const {
  return std::find(probe.libraries.begin(), probe.libraries.end(), library) != probe.libraries.end();
}

ExecutionContext ToolchainContext(const Toolchain& toolchain, const fs::path& work_dir, bool sandbox) {
  ExecutionContext context;
  context.environment = {{"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", work_dir.string()}, {"LANG", "C.UTF-8"}};
  if (sandbox || !toolchain.rootfs.empty())
    context.sandbox = SandboxSpec{.work_dir = work_dir, .root = toolchain.rootfs};
  return context;
}

absl::StatusOr<fs::path> HipccClang(ProcessLauncher& launcher, const ExecutionContext& context, const fs::path& hipcc) {
  // hipcc (the perl script or the binary) names the clang it drives when HIPCC_VERBOSE=1.
  ExecutionContext verbose = context;
  verbose.environment["HIPCC_VERBOSE"] = "1";
  const fs::path cwd = context.sandbox ? context.sandbox->work_dir : fs::path();
  auto version = RunInside(launcher, verbose, {hipcc.string(), "--version"}, cwd);
  if (!version.ok()) return version.status();
  std::smatch match;
  const std::string out = version->standard_output + version->standard_error;
  if (std::regex_search(out, match, std::regex(R"(hipcc-cmd:\s*"?([^\s"]+))"))) return fs::path(match[1].str());
  if (std::regex_search(out, match, std::regex(R"(InstalledDir:\s*(\S+))"))) {
    return fs::path(match[1].str()) / "clang++";
  }
  return absl::NotFoundError("cannot tell which clang hipcc drives: " + out);
}

namespace {

absl::StatusOr<std::vector<std::string>> ClangOffloadArchs(ProcessLauncher& launcher, const ExecutionContext& context,
                                                           const fs::path& clang) {
  const fs::path cwd = context.sandbox ? context.sandbox->work_dir : fs::path();
  auto cpus = RunInside(launcher, context,
                        {clang.string(), "--target=amdgcn-amd-amdhsa", "-nogpulib", "--print-supported-cpus"}, cwd);
  if (!cpus.ok()) return cpus.status();
  std::vector<std::string> targets;
  std::smatch match;
  const std::string listing = cpus->standard_output + cpus->standard_error;
  static const std::regex kTarget(R"(^\s*(gfx[0-9a-f]+)\b)");
  for (absl::string_view line : absl::StrSplit(listing, '\n')) {
    std::string l(line);
    if (std::regex_search(l, match, kTarget)) targets.push_back(match[1]);
  }
  if (targets.empty()) return absl::NotFoundError("no gfx targets in `" + clang.string() + " --print-supported-cpus`");
  return targets;
}

// "/usr/lib/llvm-21/bin/clang++" -> "/usr/lib/llvm-21/bin/clang" when that exists in the toolchain.
fs::path CCompilerBeside(const Toolchain& toolchain, const fs::path& clangxx) {
  if (clangxx.filename() != "clang++" || !clangxx.is_absolute()) return {};
  const fs::path c = clangxx.parent_path() / "clang";
  std::error_code ec;
  return fs::exists(Inside(toolchain, c.relative_path().string()), ec) ? c : fs::path();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> QueryOffloadArchs(ProcessLauncher& launcher, const ExecutionContext& context,
                                                           const fs::path& hipcc) {
  auto clang = HipccClang(launcher, context, hipcc);
  if (!clang.ok()) return clang.status();
  return ClangOffloadArchs(launcher, context, *clang);
}

absl::Status ProbeToolchain(ProcessLauncher& launcher, Toolchain& toolchain, const fs::path& scratch, bool sandbox) {
  std::error_code ec;
  fs::create_directories(scratch, ec);
  const ExecutionContext context = ToolchainContext(toolchain, scratch, sandbox);
  auto version = RunInside(launcher, context, {toolchain.hipcc.string(), "--version"}, scratch);
  if (!version.ok()) return version.status();
  if (version->exit_code != 0) {
    return absl::UnavailableError(
        absl::StrCat(toolchain.name, ": `hipcc --version` exited ", version->exit_code, ": ", version->standard_error));
  }
  ToolchainProbe& probe = toolchain.probe;
  std::smatch match;
  const std::string& out = version->standard_output;
  if (std::regex_search(out, match, std::regex(R"(clang version\s*(\d+(\.\d+)*))"))) probe.clang_version = match[1];
  probe.hip_version = PackagedHipVersion(toolchain);
  if (probe.hip_version.empty() && std::regex_search(out, match, std::regex(R"(HIP version:\s*(\d+)\.(\d+))"))) {
    probe.hip_version = absl::StrCat(match[1].str(), ".", match[2].str());  // the patch is a build number
  }
  auto clang = HipccClang(launcher, context, toolchain.hipcc);
  if (!clang.ok()) return clang.status();
  probe.c_compiler = CCompilerBeside(toolchain, *clang);
  auto archs = ClangOffloadArchs(launcher, context, *clang);
  if (!archs.ok()) return archs.status();
  probe.offload_archs = *std::move(archs);
  for (const RocmLibrary& library : kLibraries) {
    std::string found;
    for (std::string_view header : library.headers) {
      for (const char* dir : kIncludeDirs) {
        if (fs::exists(Inside(toolchain, dir) / header, ec)) {
          probe.headers.emplace_back(header);
          if (found.empty()) found = header;
        }
      }
    }
    if (!found.empty() && (library.shared_library.empty() || LibraryFilePresent(toolchain, library.shared_library))) {
      probe.libraries.emplace_back(library.name);
    }
  }
  return absl::OkStatus();
}

int CompareVersions(std::string_view a, std::string_view b) {
  const std::vector<absl::string_view> left = absl::StrSplit(absl::string_view(a.data(), a.size()), '.');
  const std::vector<absl::string_view> right = absl::StrSplit(absl::string_view(b.data(), b.size()), '.');
  for (size_t i = 0; i < std::max(left.size(), right.size()); ++i) {
    int x = 0, y = 0;
    if (i < left.size() && !absl::SimpleAtoi(left[i], &x)) x = 0;
    if (i < right.size() && !absl::SimpleAtoi(right[i], &y)) y = 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

void SortNewestFirst(std::vector<Toolchain>& toolchains) {
  std::stable_sort(toolchains.begin(), toolchains.end(), [](const Toolchain& a, const Toolchain& b) {
    const int order = CompareVersions(a.probe.hip_version, b.probe.hip_version);
    return order != 0 ? order > 0 : a.name < b.name;
  });
}

LocalToolchainSource::LocalToolchainSource(ProcessLauncher& launcher, LocalToolchainOptions options)
    : launcher_(launcher), options_(std::move(options)) {}

std::vector<Toolchain> LocalToolchainSource::Discover(std::vector<std::string>& problems) {
  std::vector<Toolchain> found;
  std::error_code ec;
  std::vector<fs::path> roots;
  for (const auto& entry :
       options_.cache_dir.empty() ? fs::directory_iterator() : fs::directory_iterator(options_.cache_dir, ec)) {
    // Hidden entries are unfinished builds and the .deb cache; a rootfs carries the script's stamp.
    const std::string name = entry.path().filename().string();
    if (name.empty() || name[0] == '.' || !entry.is_directory()) continue;
    if (fs::exists(entry.path() / "etc/hipforge-toolchain", ec)) roots.push_back(entry.path());
  }
  std::sort(roots.begin(), roots.end());
  for (const fs::path& root : roots) {
    Toolchain toolchain{.name = root.filename().string(), .rootfs = root, .hipcc = "/usr/bin/hipcc"};
    if (!options_.sandbox) {
      problems.push_back(absl::StrCat(toolchain.name, " at ", root.string(), " left out: it needs bubblewrap"));
      continue;
    }
    if (absl::Status probed = ProbeToolchain(launcher_, toolchain, options_.scratch / toolchain.name, true);
        !probed.ok()) {
      problems.push_back(absl::StrCat(toolchain.name, " at ", root.string(), " left out: ", probed.message()));
      continue;
    }
    found.push_back(std::move(toolchain));
  }
  if (!options_.host_hipcc.empty()) {
    Toolchain host{.name = options_.host_name.empty() ? "host" : options_.host_name, .hipcc = options_.host_hipcc};
    if (absl::Status probed = ProbeToolchain(launcher_, host, options_.scratch / "host", options_.sandbox);
        probed.ok()) {
      found.push_back(std::move(host));
    } else {
      problems.push_back(
          absl::StrCat(host.name, " toolchain (", options_.host_hipcc.string(), ") left out: ", probed.message()));
    }
  }
  SortNewestFirst(found);
  return found;
}

}  // namespace hipforge::validate
