#include "worker/validate/nvidia_backend/hip_on_cuda_toolchain.h"

#include <sys/stat.h>

#include <fstream>
#include <regex>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "worker/translate/tables/mapping_index.h"
#include "worker/validate/nvidia_backend/hip_on_cuda_header.h"
#include "worker/validate/nvidia_backend/wave64_header.h"

namespace hipforge::validate {
namespace fs = std::filesystem;
namespace {

// kHipOnCudaHipRelease ("6.4") names the release whose HIP_VERSION macros the header set defines.
constexpr bool NamesRelease(std::string_view release, HipVersionNumbers v) {
  int major = 0, minor = 0, *part = &major;
  for (char c : release) {
    if (c == '.')
      part = &minor;
    else
      *part = *part * 10 + (c - '0');
  }
  return major == v.major && minor == v.minor;
}
static_assert(NamesRelease(kHipOnCudaHipRelease, kHipOnCudaHipVersion), "kHipOnCudaHipRelease != kHipOnCudaHipVersion");

// hipcc -> nvcc. hipcc's own options are mapped or dropped (AMD-only), GCC-style options nvcc does not take
// go to the host compiler, sources compile as CUDA (hipcc compiles .cpp as HIP), and an object/source mix is
// compiled source by source before the link (nvcc's -x applies to every input). HIPCC_COMPILE_FLAGS_APPEND is
// honoured as hipcc does.
constexpr const char* kScript = R"SCRIPT(#!/usr/bin/env bash
# hipcc for HIP's NVIDIA platform, written by migrate-worker (worker/validate/nvidia_backend/hip_on_cuda_toolchain.cc).
set -uo pipefail
nvcc=@NVCC@
layer=@INCLUDE@
if [ $# -eq 1 ] && { [ "$1" = "--version" ] || [ "$1" = "-v" ]; }; then
  echo "HIP version: @HIP@ (HIP's NVIDIA platform: the hipforge header set over nvcc)"
  exec "$nvcc" --version
fi
read -r -a appended <<< "${HIPCC_COMPILE_FLAGS_APPEND:-}"
flags=() sources=() others=() out="" compile_only=0 arch_given=0 lang=cu openmp=0 wave64=0
set -- "$@" "${appended[@]}"
while [ $# -gt 0 ]; do
  a=$1; shift
  case "$a" in
    # sm_90:wave64: AMD's 64-wide wavefront emulated on the NVIDIA GPU (the layer's hipforge_wave64.h).
    --offload-arch=sm_*:wave64|--cuda-gpu-arch=sm_*:wave64|-arch=sm_*:wave64)
      a=${a#*=}; flags+=("-arch=${a%:wave64}"); arch_given=1; wave64=1 ;;
    --offload-arch=sm_*|--cuda-gpu-arch=sm_*) flags+=("-arch=${a#*=}"); arch_given=1 ;;
    --offload-arch=*|--cuda-gpu-arch=*|-Rpass*|-fno-gpu-rdc|-munsafe-fp-atomics|-mno-unsafe-fp-atomics|-mcumode|-mno-cumode|\
    --rocm-path=*|--hip-path=*|-fhip-new-launch-api|-D__HIP_PLATFORM_AMD__|-D__HIP_PLATFORM_HCC__|-mwavefrontsize64|\
    -mno-wavefrontsize64|-fno-gpu-flush-denormals-to-zero|-fgpu-default-stream=*|\
    --hip-link|-fno-hip-new-launch-api|-mllvm|-amdgpu-*|-lamdhip64|-lhip_hcc|-lhiprtc|-lroctx64|-lroctracer64) ;;
    -fgpu-rdc) flags+=("-rdc=true") ;;
    -ffast-math) flags+=("--use_fast_math") ;;
    # nvcc's --use_fast_math in parts, as the translator maps it (build_tables.cc): each back to nvcc's own switch.
    -fgpu-flush-denormals-to-zero|-fcuda-flush-denormals-to-zero) flags+=("-ftz=true") ;;
    -fno-hip-fp32-correctly-rounded-divide-sqrt) flags+=("-prec-div=false" "-prec-sqrt=false") ;;
    -fcuda-approx-transcendentals|-fgpu-approx-transcendentals) flags+=("--use_fast_math") ;;
    -gline-tables-only) flags+=("-lineinfo") ;;
    -fopenmp|-fopenmp=*) flags+=("-Xcompiler" "-fopenmp"); openmp=1 ;;
    -std=gnu++*) flags+=("-std=c++${a#-std=gnu++}") ;;
    -lhipblas|-lrocblas) flags+=("-lcublas") ;;
    -lhipblaslt) flags+=("-lcublasLt") ;;
    -lhipfft|-lrocfft) flags+=("-lcufft") ;;
    -lhiprand|-lrocrand) flags+=("-lcurand") ;;
    -lhipsparse|-lrocsparse) flags+=("-lcusparse") ;;
    -lhipsolver|-lrocsolver) flags+=("-lcusolver") ;;
    # hipcc compiles C++ as HIP (HIP_COMPILE_CXX_AS_HIP, on by default): CMake's "-x c++" for .cu sources too.
    -x) lang=$1; shift; case "$lang" in hip|cuda|cu) lang=cu ;; c++) [ "${HIP_COMPILE_CXX_AS_HIP:-1}" = 0 ] || lang=cu ;; esac ;;
    -xhip|-xcuda|-xc++) lang=cu ;;
    -o) out=$1; shift ;;
    -c) compile_only=1 ;;
    -Wl,*) flags+=("-Xlinker" "${a#-Wl,}") ;;
    -MD|-MMD|-M|-MM) flags+=("$a") ;;
    -MF|-MT|-MQ|-I|-D|-U|-L|-l|-include|-isystem|-Xcompiler|-Xlinker|-arch|-gencode|-ccbin) flags+=("$a" "$1"); shift ;;
    -m64|-O*|-g|-G|-std=*|-shared|-I*|-D*|-U*|-L*|-l*|-isystem*|-arch=*|-gencode=*) flags+=("$a") ;;
    -W*|-f*|-m*|-pthread|-rdynamic|-pedantic|-pipe|-march=*|-mtune=*) flags+=("-Xcompiler" "$a") ;;
    -*) flags+=("$a") ;;
    *.hip|*.cu|*.cpp|*.cc|*.cxx|*.c++|*.C) sources+=("$a") ;;
    # A versioned shared library (CMake's libggml-base.so.0.21.0, with VERSION/SOVERSION): nvcc knows .so only.
    *.so.[0-9]*) others+=("-Xlinker" "$a") ;;
    *) others+=("$a") ;;
  esac
done
common=(-I "$layer" -D__HIP_PLATFORM_NVIDIA__ --expt-relaxed-constexpr --extended-lambda -Wno-deprecated-gpu-targets)
[ $arch_given -eq 1 ] || common+=("-arch=@ARCH@")
[ $wave64 -eq 0 ] || common+=("-DHIPFORGE_WAVE64=1")
link=()
[ $compile_only -eq 1 ] || [ $openmp -eq 0 ] || link+=("-lgomp")
# HIP's driver API (hipModule*, hipMemMap, ...) is libcuda's here, as hipcc links it on NVIDIA (libamdhip64 carries
# it on AMD). The toolkit's stub serves the link where no driver is installed; the driver's libcuda.so.1 loads.
stubs=$(dirname "$nvcc")/../lib64/stubs
[ $compile_only -eq 1 ] || { [ -d "$stubs" ] && link+=("-L$stubs"); link+=("-lcuda"); }
if [ ${#sources[@]} -eq 0 ]; then
  exec "$nvcc" "${common[@]}" "${flags[@]}" "${others[@]}" "${link[@]}" ${out:+-o "$out"}
fi
if [ $compile_only -eq 1 ]; then
  exec "$nvcc" "${common[@]}" "${flags[@]}" -x "$lang" -c "${sources[@]}" ${out:+-o "$out"}
fi
if [ ${#others[@]} -eq 0 ]; then
  exec "$nvcc" "${common[@]}" "${flags[@]}" -x "$lang" "${sources[@]}" "${link[@]}" ${out:+-o "$out"}
fi
# Sources and objects (or several sources) linked together: each source to an object first.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
objects=()
for s in "${sources[@]}"; do
  o="$tmp/$(basename "$s").o"
  "$nvcc" "${common[@]}" "${flags[@]}" -x "$lang" -c "$s" -o "$o" || exit $?
  objects+=("$o")
done
"$nvcc" "${common[@]}" "${flags[@]}" "${objects[@]}" "${others[@]}" "${link[@]}" ${out:+-o "$out"}
)SCRIPT";

constexpr const char* kReferenceScript = R"SCRIPT(#!/usr/bin/env bash
# nvcc for the automatic CUDA reference, written by migrate-worker (worker/validate/nvidia_backend/hip_on_cuda_toolchain.cc):
# the submitted CUDA tree's own build runs this as nvcc; its GPU-architecture options become -arch= the leased GPU's
# (HIPFORGE_CUDA_ARCH, set by the validate role; @ARCH@ otherwise).
set -uo pipefail
nvcc=@NVCC@
arch=${HIPFORGE_CUDA_ARCH:-@ARCH@}
case "${1:-}" in --version|-V|"") exec "$nvcc" "$@" ;; esac
args=()
while [ $# -gt 0 ]; do
  a=$1; shift
  case "$a" in
    -arch|--gpu-architecture|-code|--gpu-code|-gencode|--generate-code) shift ;;
    -arch=*|--gpu-architecture=*|-code=*|--gpu-code=*|-gencode=*|--generate-code=*|-arch*) ;;
    *) args+=("$a") ;;
  esac
done
exec "$nvcc" -arch="$arch" "${args[@]}"
)SCRIPT";

// CMake packages: find_package(hip) and the libraries' packages succeed; the hipcc above does the work.
constexpr const char* kHipConfig =
    R"CMAKE(# hip's CMake package on HIP's NVIDIA platform (written by migrate-worker): the targets carry nothing because
# the hipcc next to ../../../include (nvcc underneath) already knows everything.
set(HIP_PLATFORM nvidia)
set(HIP_COMPILER nvcc)
set(HIP_RUNTIME cuda)
foreach(target IN ITEMS hip::device hip::host hip::amdhip64)
  if(NOT TARGET ${target})
    add_library(${target} INTERFACE IMPORTED)
  endif()
endforeach()
)CMAKE";

struct LibraryPackage {
  const char* package;       // find_package name
  const char* target;        // the target ROCm's package defines
  const char* cuda_library;  // what links it on NVIDIA ("" for header-only)
};
constexpr LibraryPackage kLibraryPackages[] = {
    {"hipblas", "roc::hipblas", "cublas"},
    {"hipblaslt", "roc::hipblaslt", "cublasLt"},
    {"hipfft", "hip::hipfft", "cufft"},
    {"hiprand", "hip::hiprand", "curand"},
    {"hipsparse", "roc::hipsparse", "cusparse"},
    {"hipsolver", "roc::hipsolver", "cusolver"},
    {"hipcub", "hip::hipcub", ""},
    {"rocprim", "roc::rocprim", ""},
    {"rocthrust", "roc::rocthrust", ""},
};

void WriteText(const fs::path& path, const std::string& text, std::error_code& ec) {
  fs::create_directories(path.parent_path(), ec);
  std::ofstream(path, std::ios::trunc) << text;
}

void WritePackage(const fs::path& cmake_dir, const std::string& name, const std::string& body, std::error_code& ec) {
  WriteText(cmake_dir / name / (name + "-config.cmake"), body, ec);
  WriteText(cmake_dir / name / (name + "-config-version.cmake"),
            absl::StrCat("set(PACKAGE_VERSION ", kHipOnCudaHipRelease, ".0)\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n"),
            ec);
}

fs::path FindNvcc(const fs::path& given) {
  if (!given.empty()) return given;
  if (fs::path on_path = FindProgram("nvcc"); !on_path.empty()) return on_path;
  if (fs::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return {};
}

std::string ShellQuoted(const std::string& text) { return "'" + absl::StrReplaceAll(text, {{"'", "'\\''"}}) + "'"; }

}  // namespace

std::string CudaReferenceNvccScript(const fs::path& nvcc, const std::string& arch) {
  return absl::StrReplaceAll(kReferenceScript, {{"@NVCC@", ShellQuoted(nvcc.string())}, {"@ARCH@", arch}});
}

std::string HipccOverNvccScript(const fs::path& nvcc, const fs::path& include_dir, const std::string& default_arch) {
  return absl::StrReplaceAll(kScript, {{"@NVCC@", ShellQuoted(nvcc.string())},
                                       {"@INCLUDE@", ShellQuoted(include_dir.string())},
                                       {"@HIP@", kHipOnCudaHipRelease},
                                       {"@ARCH@", default_arch}});
}

absl::StatusOr<Toolchain> MakeHipOnCudaToolchain(ProcessLauncher& launcher, const HipOnCudaToolchainOptions& options) {
  const fs::path nvcc = FindNvcc(options.nvcc);
  if (nvcc.empty())
    return absl::NotFoundError("nvcc not found (PATH, /usr/local/cuda/bin): no HIP-on-NVIDIA toolchain");
  ProcessSpec version;
  version.argv = {nvcc.string(), "--version"};
  version.timeout = std::chrono::seconds(30);
  absl::StatusOr<ProcessResult> probed = launcher.Run(version);
  if (!probed.ok()) return probed.status();
  if (probed->exit_code != 0) return absl::FailedPreconditionError(absl::StrCat(nvcc.string(), " --version failed"));
  std::smatch match;
  static const std::regex kRelease(R"(release ([0-9]+\.[0-9]+))");
  const std::string nvcc_release =
      std::regex_search(probed->standard_output, match, kRelease) ? match[1].str() : std::string("?");

  const std::vector<std::string> archs = options.archs.empty() ? std::vector<std::string>{"sm_90"} : options.archs;
  const fs::path dir = fs::absolute(options.dir);
  std::error_code ec;
  fs::remove_all(dir, ec);
  ec.clear();
  for (const auto& [relative, text] : GenerateHipOnCudaHeaders(translate::AllTables())) {
    WriteText(dir / "include" / relative, text, ec);
  }
  const fs::path hipcc = dir / "bin" / "hipcc";
  WriteText(hipcc, HipccOverNvccScript(nvcc, dir / "include", archs.front()), ec);
  const fs::path reference_nvcc = dir / "reference" / "bin" / "nvcc";
  WriteText(reference_nvcc, CudaReferenceNvccScript(nvcc, archs.front()), ec);
  for (const fs::path& script : {hipcc, reference_nvcc}) {
    fs::permissions(script,
                    fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                        fs::perms::others_exec,
                    ec);
  }
  // CMake finds <prefix>/lib/cmake/<name> for every PATH entry's parent: the build's PATH starts with dir/bin.
  const fs::path cmake_dir = dir / "lib" / "cmake";
  WritePackage(cmake_dir, "hip", kHipConfig, ec);
  Toolchain toolchain;
  toolchain.name = kHipOnCudaToolchainName;
  toolchain.hipcc = hipcc;
  toolchain.sandbox_paths = {dir};
  toolchain.cuda_reference_nvcc = reference_nvcc;
  toolchain.probe.hip_version = kHipOnCudaHipRelease;
  toolchain.probe.clang_version = "nvcc " + nvcc_release;
  toolchain.probe.offload_archs = archs;
  // Each GPU also as itself with AMD's 64-wide wavefront (docs/wave64.md): sm_90:wave64.
  for (const std::string& arch : archs) toolchain.probe.offload_archs.push_back(arch + kWave64Feature);
  const fs::path cuda_lib = nvcc.parent_path().parent_path() / "lib64";
  for (const LibraryPackage& library : kLibraryPackages) {
    const bool present =
        library.cuda_library[0] == '\0' || fs::exists(cuda_lib / absl::StrCat("lib", library.cuda_library, ".so"), ec);
    if (!present) continue;
    std::string body =
        absl::StrCat("if(NOT TARGET ", library.target, ")\n  add_library(", library.target, " INTERFACE IMPORTED)\n");
    if (library.cuda_library[0] != '\0') {
      absl::StrAppend(&body, "  set_target_properties(", library.target, " PROPERTIES INTERFACE_LINK_LIBRARIES ",
                      library.cuda_library, ")\n");
    }
    absl::StrAppend(&body, "endif()\n");
    WritePackage(cmake_dir, library.package, body, ec);
    toolchain.probe.libraries.push_back(library.package);
  }
  if (ec)
    return absl::InternalError(
        absl::StrCat("writing the HIP-on-NVIDIA toolchain in ", dir.string(), ": ", ec.message()));
  toolchain.description = absl::StrCat(kHipOnCudaToolchainName, ": HIP ", kHipOnCudaHipRelease,
                                       " on NVIDIA (hipforge header set), nvcc ", nvcc_release);
  return toolchain;
}

}  // namespace hipforge::validate
