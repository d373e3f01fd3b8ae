#pragma once
// CUDA -> ROCm build-tool knowledge (nvcc flags, libraries, environment variables, command-line tools) as data:
// the one table the repository pass's rewriters and the analyzer's build rules (HB501, HB503, HB504) read.
// docs/repository-migration.md describes the choices; tests/repo/line_rewriters_test.cc checks them.
#include <span>
#include <string>
#include <string_view>

#include "worker/translate/tables/api_mapping.h"

namespace hipforge::translate {

// What to do with an nvcc flag.
enum class NvccFlagAction : uint8_t {
  kReplace,       // emit `replacement` (may be several space-separated flags)
  kDrop,          // no HIP equivalent needed; removed with a note
  kDropManual,    // removed, but a person must check (the note says what)
  kOffloadArch,   // -arch/-gencode/--gpu-architecture: the configured --offload-arch list (once per line)
  kUnwrapHost,    // -Xcompiler/--compiler-options: the host flags themselves (comma list split)
  kUnwrapLinker,  // -Xlinker: -Wl,<value>
};

enum class NvccFlagForm : uint8_t {
  kExact,      // the flag alone: `-lineinfo`
  kWithValue,  // `-flag=value`, `-flag value` or (for short flags) `-flagvalue`
};

struct NvccFlagRule {
  std::string_view spelling;  // as nvcc spells it, with leading dashes
  NvccFlagForm form = NvccFlagForm::kExact;
  NvccFlagAction action = NvccFlagAction::kReplace;
  std::string_view replacement;    // kReplace: the hipcc/clang flag(s); `{}` is the value
  std::string_view note;           // why, or the manual step
  bool nvcc_context_only = false;  // ambiguous with host-compiler flags: rewritten only where nvcc is meant
};
std::span<const NvccFlagRule> NvccFlagRules();
// The rule for one command-line word ("-arch=sm_80" -> the -arch rule), or nullptr; nvcc_context_only rules
// count only with `nvcc_context`.
const NvccFlagRule* FindNvccFlagRule(std::string_view word, bool nvcc_context);
// Where a line of a build file or script means nvcc, so flags that could be a host compiler's or another tool's
// (-G, -dc, -arch, -Xlinker) are nvcc's: it names nvcc, -gencode, a .cu file or a CUDA flags variable (CUFLAGS,
// CUDAFLAGS, CUDA_FLAGS) and is not a cmake command line.
bool IsNvccContext(std::string_view line);

// A CUDA library and its ROCm counterpart in each build-file dialect.
struct LibraryMapping {
  std::string_view cuda_name;       // "cublas" (as in -lcublas, CUDA::cublas, CUDA_cublas_LIBRARY)
  std::string_view rocm_link_flag;  // "-lhipblas"; empty: nothing to link (part of the HIP runtime or dropped)
  std::string_view cmake_target;    // "roc::hipblas"
  std::string_view cmake_package;   // "hipblas" (find_package); empty for the HIP runtime itself
  std::string_view note;            // non-empty: a person must look (no equivalent, semantics differ)
};
std::span<const LibraryMapping> LibraryMappings();
const LibraryMapping* FindLibraryMapping(std::string_view cuda_name);

// Environment variables (HB503 reports each; scripts get rocm_name, or a note for a person where it is empty).
struct EnvVarMapping {
  std::string_view cuda_name;
  std::string_view rocm_name;   // empty: no drop-in equivalent (left, with the note)
  std::string_view value_from;  // when non-empty: only this value maps ...
  std::string_view value_to;    // ... to this one (CUDA_LAUNCH_BLOCKING=1 -> AMD_SERIALIZE_KERNEL=3)
  std::string_view note;
};
std::span<const EnvVarMapping> EnvVarMappings();

// Variables and paths naming the CUDA installation.
std::span<const std::string_view> CudaRootVariables();  // CUDA_HOME, CUDA_PATH, ... -> ROCM_PATH

// NVIDIA command-line tools in scripts (HB504 reports each; scripts get the ROCm tool, or a note where none).
struct ToolMapping {
  std::string_view cuda_tool;
  std::string_view rocm_tool;         // the name from ROCm `renamed_in` on; empty: no drop-in, left for a person
  std::string_view legacy_rocm_tool;  // the name before `renamed_in` (rocm-smi, rocprof, omniperf); empty: same
  std::string_view note;
  ApiVersion renamed_in{};  // first ROCm release with rocm_tool's name; unset: no older name
};
std::span<const ToolMapping> ToolMappings();
// The tool's name in ROCm `target`: rocm_tool from renamed_in on, legacy_rocm_tool (when there is one) before.
std::string_view RocmToolFor(const ToolMapping& tool, ApiVersion target);
// What a person should use instead, from the table: "Use amd-smi (rocm-smi before ROCm 6.2): <note>." (HB504's fix).
std::string ToolAdvice(const ToolMapping& tool);
// "Use HIP_VISIBLE_DEVICES: <note>." / "CUDA_LAUNCH_BLOCKING=1 -> ..." (HB503's fix).
std::string EnvVarAdvice(const EnvVarMapping& variable);

}  // namespace hipforge::translate
