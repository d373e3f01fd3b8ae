#pragma once
// CUDA -> ROCm mapping tables for build files, scripts and containers. Data only; the rewriters read them.
// docs/repository-migration.md describes the choices; tests/repo/build_tables_test.cc checks them.
#include <span>
#include <string_view>

namespace hipforge::translate {

// What to do with an nvcc flag.
enum class NvccFlagAction : uint8_t {
  kReplace,         // emit `replacement` (may be several space-separated flags)
  kDrop,            // no HIP equivalent needed; removed with a note
  kDropManual,      // removed, but a person must check (the note says what)
  kOffloadArch,     // -arch/-gencode/--gpu-architecture: the configured --offload-arch list (once per line)
  kUnwrapHost,      // -Xcompiler/--compiler-options: the host flags themselves (comma list split)
  kUnwrapLinker,    // -Xlinker: -Wl,<value>
};

enum class NvccFlagForm : uint8_t {
  kExact,        // the flag alone: `-lineinfo`
  kWithValue,    // `-flag=value`, `-flag value` or (for short flags) `-flagvalue`
};

struct NvccFlagRule {
  std::string_view spelling;  // as nvcc spells it, with leading dashes
  NvccFlagForm form = NvccFlagForm::kExact;
  NvccFlagAction action = NvccFlagAction::kReplace;
  std::string_view replacement;  // kReplace: the hipcc/clang flag(s); `{}` is the value
  std::string_view note;         // why, or the manual step
  bool nvcc_context_only = false;  // ambiguous with host-compiler flags: rewritten only where nvcc is meant
};
std::span<const NvccFlagRule> NvccFlagRules();

// A CUDA library and its ROCm counterpart in each build-file dialect.
struct LibraryMapping {
  std::string_view cuda_name;      // "cublas" (as in -lcublas, CUDA::cublas, CUDA_cublas_LIBRARY)
  std::string_view rocm_link_flag; // "-lhipblas"; empty: nothing to link (part of the HIP runtime or dropped)
  std::string_view cmake_target;   // "roc::hipblas"
  std::string_view cmake_package;  // "hipblas" (find_package); empty for the HIP runtime itself
  std::string_view note;           // non-empty: a person must look (no equivalent, semantics differ)
};
std::span<const LibraryMapping> LibraryMappings();
const LibraryMapping* FindLibraryMapping(std::string_view cuda_name);

// Environment variables.
struct EnvVarMapping {
  std::string_view cuda_name;
  std::string_view rocm_name;  // empty: no equivalent (left, with a note)
  std::string_view value_from; // when non-empty: only this value maps ...
  std::string_view value_to;   // ... to this one (CUDA_LAUNCH_BLOCKING=1 -> AMD_SERIALIZE_KERNEL=3)
  std::string_view note;
};
std::span<const EnvVarMapping> EnvVarMappings();

// Variables and paths naming the CUDA installation.
std::span<const std::string_view> CudaRootVariables();  // CUDA_HOME, CUDA_PATH, ... -> ROCM_PATH

// NVIDIA command-line tools in scripts.
struct ToolMapping {
  std::string_view cuda_tool;
  std::string_view rocm_tool;        // ROCm >= 6.2 name; empty: no drop-in, left for a person
  std::string_view legacy_rocm_tool; // the name before ROCm 6.2 (rocm-smi, rocprof); empty: same
  std::string_view note;
};
std::span<const ToolMapping> ToolMappings();

}  // namespace hipforge::translate
