#pragma once
// One rewriter per kind of non-source file (CMake, Makefile, shell script, Dockerfile, CI config, Python).
// Each is a small class behind this interface; the registry (rewriter_registry.h) lists them explicitly.
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "worker/translate/repo/migration_types.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

// What a rewriter may know about the rest of the repository. Built once per pass by the orchestrator.
struct RewriteContext {
  const MigrationOptions* options = nullptr;
  // Relative paths (input tree) of CUDA sources that are renamed: "src/a.cu" -> "src/a.hip".
  std::map<std::string, std::string> renamed;
  // True when the repository has CUDA device sources (decides whether CMake needs the HIP language block).
  bool has_cuda_sources = false;
  // CUDA libraries referenced anywhere in the repository's CMake files ("cublas", "curand", ...), so the
  // `find_package(CUDAToolkit)` site can find the matching ROCm packages even when a subdirectory links them.
  std::set<std::string> cmake_cuda_libraries;
  // False when no CUDA source or header declares a __device__ function or an extern device variable without
  // defining it (code that another file defines): -rdc=true / CUDA_SEPARABLE_COMPILATION are then dropped.
  bool relocatable_device_code_needed = true;
  // False when no source or header of the repository names cuBLASLt (cublasLt*): -lcublasLt is then dropped.
  bool cublaslt_used = true;
  // C/C++ sources other than .cu that include HIP after the pass (relative paths): a host compiler (g++) that
  // compiles one needs -D__HIP_PLATFORM_AMD__, which hipcc would have defined.
  std::set<std::string> hip_host_sources;
  // Translates a CUDA source snippet (CuPy kernels); empty when the source translator is not available.
  std::function<std::optional<std::string>(const std::string& cuda_source)> translate_snippet;
};

// Something the rewriter did or could not do, with the rule or table that drove it.
struct RewriteNote {
  std::string origin;  // analyzer rule id (HB501..HB504) where one applies, else the table/rewriter name
  uint32_t line = 0;   // 1-based line in the original file
  std::string message;
  bool left_for_person = false;  // true: a manual step remains
};

struct RewriteResult {
  std::string output;
  std::set<std::string> changed_by;  // origins of the applied changes
  std::vector<RewriteNote> notes;
  std::set<uint32_t> changed_lines;  // 1-based lines of the original that were edited
  // New files for the output tree, by path relative to the repository root (the CMake rewriter's HIP module);
  // the same path from several files has the same content.
  std::map<std::string, std::string> generated_files;
};

class BuildFileRewriter {
 public:
  virtual ~BuildFileRewriter() = default;
  virtual RepoFileKind kind() const = 0;
  // A short stable name ("cmake", "makefile", ...), used in changed_by and in the cache key.
  virtual std::string name() const = 0;
  // Bumped whenever the rewriter's output for the same input changes (invalidates cached results).
  virtual int version() const = 0;
  virtual RewriteResult Rewrite(const std::string& relative_path, const std::string& content,
                                const RewriteContext& context) const = 0;
};

}  // namespace hipforge::translate
