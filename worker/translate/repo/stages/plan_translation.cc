#include "worker/translate/repo/stages/plan_translation.h"

#include <algorithm>
#include <regex>
#include <set>

#include "worker/translate/repo/cmake_rewriter.h"
#include "worker/translate/repo/file_classifier.h"
#include "worker/translate/repo/line_rewriters.h"

namespace hipforge::translate {
namespace fs = std::filesystem;

namespace {

// A C++ source that uses no CUDA itself but includes a project header that does (HeCBench pad: host_task.cpp
// includes support/partitioner.h, which has __device__ functions and system atomics): nvcc compiled it with
// cuda_runtime.h included before its first line. It is translated as a unit too, so that it meets HIP's headers
// before its own macros (token_pass.cc puts the runtime above a main file's first #define).
void AddCppIncludersOfCudaHeaders(CollectedFiles& files, TranslationPlan& plan) {
  // CUDA code: what the translator needs, or kernel code (__device__, __global__), which only nvcc compiled.
  static const std::regex kKernelCode(R"(\b__(?:device|global|host)__\b)");
  // A header that tests __CUDACC__ is written for both compilers (ggml.h keeps its __host__ __device__ helper under
  // it): including it does not make a host compiler's source CUDA.
  static const std::regex kTestsCudacc(R"(#\s*(?:if|ifdef|ifndef|elif)\b[^\n]*\b__CUDACC__\b)");
  const auto is_cuda = [&](const std::string& header) {
    const auto content = files.contents.find(header);
    return content != files.contents.end() && !std::regex_search(content->second, kTestsCudacc) &&
           (UsesCuda(content->second) || std::regex_search(content->second, kKernelCode));
  };
  const std::set<std::string> planned(plan.to_translate.begin(), plan.to_translate.end());
  for (auto& [path, kind] : files.kinds) {
    // The classifier files C++ sources without CUDA names as kOther (copied as they are).
    const std::string& text = files.contents[path];
    // C sources are out: nvcc hands .c files to the host's C compiler, and HIP's headers are C++ (ggml's ggml.c got
    // <hip/hip_runtime.h> and stopped building).
    if (kind != RepoFileKind::kOther || FileKindOf(path, text) != FileKind::kCppSource || planned.count(path) ||
        plan.extension_sources.count(path) || fs::path(path).extension() == ".c") {
      continue;
    }
    for (const std::vector<std::string>& candidates : QuotedIncludeCandidates(path, text)) {
      if (std::any_of(candidates.begin(), candidates.end(), is_cuda)) {
        plan.to_translate.push_back(path);
        kind = RepoFileKind::kCppSource;
        break;
      }
    }
  }
}

}  // namespace

absl::Status PlanTranslation(MigrationState& state, const MigrationTools&) {
  const MigrationOptions& options = state.options;
  CollectedFiles& files = *state.files;
  std::map<std::string, std::string>& contents = files.contents;
  const std::map<std::string, RepoFileKind>& kinds = files.kinds;
  TranslationPlan& plan = state.plan.emplace();
  RewriteContext& context = plan.context;

  // PyTorch extensions stay CUDA: ROCm PyTorch hipifies them itself when it builds them.
  for (const auto& [path, kind] : kinds) {
    if (kind != RepoFileKind::kPython || fs::path(path).filename() != "setup.py") continue;
    for (const auto& source : CudaExtensionSources(contents[path])) {
      const std::string key = (fs::path(path).parent_path() / source).lexically_normal().generic_string();
      if (contents.count(key)) plan.extension_sources.insert(key);
    }
  }

  context.options = &options;
  for (const auto& [path, kind] : kinds) {
    if (!IsTranslatableKind(kind) || plan.extension_sources.count(path)) continue;
    // Already-HIP files (no CUDA references, HIP runtime included) need no translation; this also keeps the
    // pass idempotent over its own output.
    const bool uses_cuda = UsesCuda(contents[path]);
    static const std::regex kHipInclude(R"re(#\s*include\s*[<"]hip/hip_runtime(_api)?\.h[>"])re");
    if (uses_cuda || (kind == RepoFileKind::kCudaSource && !std::regex_search(contents[path], kHipInclude))) {
      plan.to_translate.emplace_back(path);
    }
    if (uses_cuda) plan.needs_translator.push_back(path);
    if (kind == RepoFileKind::kCudaSource) {
      context.has_cuda_sources = true;
      if (options.rename_to_hip && fs::path(path).extension() == ".cu") {
        context.renamed[path] = fs::path(path).replace_extension(".hip").generic_string();
      }
    }
  }
  AddCppIncludersOfCudaHeaders(files, plan);
  for (const auto& [path, kind] : kinds) {
    if (kind != RepoFileKind::kCMake) continue;
    for (const auto& lib : CudaLibrariesInCMake(contents[path])) context.cmake_cuda_libraries.insert(lib);
  }
  context.relocatable_device_code_needed = false;
  context.cublaslt_used = false;
  static const std::regex kCublasLt(R"(\bcublasLt)");
  static const std::regex kHipInclude(R"re(#\s*include\s*[<"]hip/)re");
  for (const auto& [path, kind] : kinds) {
    if (!IsTranslatableKind(kind)) continue;
    const std::string& text = contents[path];
    if (DeclaresDeviceCodeDefinedElsewhere(text)) context.relocatable_device_code_needed = true;
    if (std::regex_search(text, kCublasLt)) context.cublaslt_used = true;
  }
  // Sources other than .cu that hold HIP after the pass: those it translates, and those already written for HIP.
  for (const auto& [path, kind] : kinds) {
    const std::string extension = fs::path(path).extension().string();
    if (extension == ".cu" || FileKindOf(path, contents[path]) != FileKind::kCppSource) continue;
    if (kind == RepoFileKind::kCppSource || std::regex_search(contents[path], kHipInclude)) {
      context.hip_host_sources.insert(path);
    }
  }
  return absl::OkStatus();
}

}  // namespace hipforge::translate
