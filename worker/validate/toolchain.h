#pragma once
// A toolchain is a named ROCm installation that builds and tests run inside: the host's own ROCm
// (`host`) or a root filesystem made from Debian packages by scripts/make-toolchain.sh (`rocm-5.7`,
// `rocm-6.4`), entered with bubblewrap. Each is probed once: HIP and clang versions, offload archs, and
// which ROCm libraries (header + shared library) it really has.
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/process.h"
#include "worker/userbuild/sandbox.h"

namespace hipforge::validate {

// A ROCm library a migrated program can need. Data: one record per library.
struct RocmLibrary {
  std::string_view name;     // "hipblas": also the -l name, the CMake package and the include directory
  std::string_view display;  // "hipBLAS"
  // Headers that identify it, as a program includes them; the first one found marks it present.
  std::vector<std::string_view> headers;
  std::string_view shared_library;                 // "libhipblas.so"; empty for header-only libraries
  std::vector<std::string_view> include_prefixes;  // an #include starting so means the program needs it
};
std::span<const RocmLibrary> RocmLibraries();
const RocmLibrary* FindRocmLibrary(std::string_view name);

struct ToolchainProbe {
  std::string hip_version;                 // "6.4.3": the libamdhip64-dev package version, else hipcc's major.minor
  std::string clang_version;               // "21.1.8"
  std::vector<std::string> offload_archs;  // what its clang accepts for --offload-arch
  std::vector<std::string> libraries;      // RocmLibrary::name of each library present
  std::vector<std::string> headers;        // the library headers found, as included ("hipblas/hipblas.h")
  // The C compiler of hipcc's family (the `clang` beside the clang++ it drives), as seen inside the toolchain;
  // empty when unknown. CMake builds get it with hipcc as C++ compiler: projects pick C flags by the C++
  // compiler's id (ggml gives C sources clang-only warnings), so C and C++ must be one family.
  std::filesystem::path c_compiler;
};

struct Toolchain {
  std::string name;                       // "rocm-6.4", "host"
  std::filesystem::path rootfs;           // empty: the host's own filesystem
  std::filesystem::path hipcc = "hipcc";  // as seen inside the toolchain
  ToolchainProbe probe;
  // Set for a toolchain known only through a GpuInventory (no probe): Describe() returns it as is.
  std::string description;
  // Host directories its commands need inside a sandbox (the hip-on-cuda toolchain's own dir: headers, hipcc).
  std::vector<std::filesystem::path> sandbox_paths;
  // hip-on-cuda only: an nvcc that builds the submitted CUDA tree for the GPU's arch (the automatic CUDA
  // reference, CudaReferenceNvccScript); empty elsewhere.
  std::filesystem::path cuda_reference_nvcc;

  // "rocm-6.4: HIP 6.4.3, clang 21.1.8" (what reports name per build).
  std::string Describe() const;
  // "6.4": what jobs ask for (JobOptions.hip_version) and the translator targets.
  std::string HipRelease() const;
  bool HasArch(std::string_view arch) const;  // processor part of a target ID ("gfx90a:xnack+")
  bool HasLibrary(std::string_view library) const;
};

// How to run a command inside `toolchain`: its rootfs as the system under bubblewrap (no network,
// only `work_dir` writable), the host as it is when it has no rootfs and `sandbox` is false.
ExecutionContext ToolchainContext(const Toolchain& toolchain, const std::filesystem::path& work_dir, bool sandbox);

// The clang++ that `hipcc` drives (run through `context`), as hipcc names it when HIPCC_VERBOSE=1.
absl::StatusOr<std::filesystem::path> HipccClang(ProcessLauncher& launcher, const ExecutionContext& context,
                                                 const std::filesystem::path& hipcc);
// Asks the clang that `hipcc` drives which offload archs it accepts (run through `context`).
absl::StatusOr<std::vector<std::string>> QueryOffloadArchs(ProcessLauncher& launcher, const ExecutionContext& context,
                                                           const std::filesystem::path& hipcc);

// Fills toolchain.probe; an error when its hipcc does not run there.
absl::Status ProbeToolchain(ProcessLauncher& launcher, Toolchain& toolchain, const std::filesystem::path& scratch,
                            bool sandbox);

// Where toolchains come from. The real one looks at the disk; tests use FixedToolchainSource.
class ToolchainSource {
 public:
  virtual ~ToolchainSource() = default;
  // Usable, probed toolchains, newest HIP first; why the others were left out goes to `problems`.
  virtual std::vector<Toolchain> Discover(std::vector<std::string>& problems) = 0;
};

struct LocalToolchainOptions {
  // Unpacked rootfs directories made by scripts/make-toolchain.sh (each holds etc/hipforge-toolchain).
  std::filesystem::path cache_dir = "/var/cache/hipforge/toolchains";
  std::filesystem::path host_hipcc = "hipcc";  // the `host` toolchain; empty: no host toolchain
  std::string host_name = "host";              // e.g. "rocm-6.4" in a validate image built FROM that toolchain
  std::filesystem::path scratch = std::filesystem::temp_directory_path() / "hipforge-toolchain-probe";
  bool sandbox = true;  // rootfs toolchains need bubblewrap; without it only `host` is usable
};

class LocalToolchainSource final : public ToolchainSource {
 public:
  LocalToolchainSource(ProcessLauncher& launcher, LocalToolchainOptions options);
  std::vector<Toolchain> Discover(std::vector<std::string>& problems) override;

 private:
  ProcessLauncher& launcher_;
  LocalToolchainOptions options_;
};

class FixedToolchainSource final : public ToolchainSource {
 public:
  explicit FixedToolchainSource(std::vector<Toolchain> toolchains) : toolchains_(std::move(toolchains)) {}
  std::vector<Toolchain> Discover(std::vector<std::string>&) override { return toolchains_; }

 private:
  std::vector<Toolchain> toolchains_;
};

// Newest HIP release first ("6.4.3" before "5.7.1" before "5.2.3"), then by name.
void SortNewestFirst(std::vector<Toolchain>& toolchains);

// -1, 0, 1 comparing dotted versions numerically ("6.4" vs "6.10").
int CompareVersions(std::string_view a, std::string_view b);

}  // namespace hipforge::validate
