#pragma once
// What kind of file a repository path is, and whether C/C++ text uses CUDA: the one place the server (is there
// any CUDA in this upload?), the repository pass (which files go to the translator, which rewriter) and the
// analyzer (which files get which rules, which are worth a Clang parse) decide it. tests/common/source_files_test.cc.
#include <filesystem>
#include <string_view>

namespace hipforge {

enum class FileKind {
  kCudaSource,
  kHeader,
  kCppSource,
  kCMake,
  kMakefile,
  kShellScript,
  kDockerfile,
  kCiConfig,
  kPython,
  kOther
};
const char* FileKindName(FileKind kind);  // "cuda-source", "header", ... as in the report (report-schema.json)
bool IsSourceKind(FileKind kind);         // C, C++, CUDA sources and headers

// The kind a file has by its name (a shebang line decides for files whose name does not): C/C++ files by
// extension whatever they contain (.cu sources, .cuh/.h/.hpp/.inc/... headers, .cpp/.cc/.c/... sources).
// CI configuration is a file where a CI service reads it: .github/workflows/*.yml|yaml, .gitlab-ci.yml,
// .gitlab/ci/*.yml|yaml, Jenkinsfile. Other YAML (compose files, manifests, conda environments) is kOther.
FileKind FileKindOf(const std::filesystem::path& relative_path, std::string_view content);

// True if C/C++ text refers to CUDA, i.e. needs the translator: runtime/driver/library names (cudaMalloc,
// CUDA_R_32F, cublasSgemm, ncclAllReduce, __nv_bfloat16), warp-synchronous intrinsics (__shfl_down_sync,
// __syncwarp), nvcuda/cooperative_groups, CUDA headers (#include <cuda_runtime.h>, <thrust/...>, <cub/...>) or
// nvcc's macros (__CUDACC__, __CUDA_ARCH__). Kernel code alone (__global__, threadIdx) is not: HIP has it too, so
// HIP sources stay untranslated and the pass stays idempotent. Words in comments count (errs on looking).
bool UsesCuda(std::string_view content);

// UsesCuda, or GPU kernel code in CUDA's or HIP's spelling (__global__, __device__, __shared__, threadIdx, ...,
// a <<<...>>> launch): what the analyzer finds worth a Clang parse.
bool HasGpuCode(std::string_view content);

// True if some file below `root` is CUDA: a .cu/.cuh file, or a C/C++ file whose first MiB uses CUDA.
bool TreeUsesCuda(const std::filesystem::path& root);

}  // namespace hipforge
