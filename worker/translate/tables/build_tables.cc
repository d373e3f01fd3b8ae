#include "worker/translate/tables/build_tables.h"

#include <array>
#include <cctype>

namespace hipforge::translate {
namespace {
using A = NvccFlagAction;
using F = NvccFlagForm;

// nvcc's --use_fast_math is its fast library (approximate transcendentals) with denormals flushed and approximate
// division and square root (--ftz=true --prec-div=false --prec-sqrt=false --fmad=true). Clang's -ffast-math is
// more: it also assumes no NaN or Inf (isnan folds to false) and reassociates, which nvcc never does -- and it makes
// LLVM 21 crash on ggml's argsort.cu (rocPRIM's radix sort). -fcuda-approx-transcendentals is the spelling clang 15
// to 21 all take (19 renamed it -fgpu-approx-transcendentals and kept this one).
constexpr std::string_view kFastMath =
    "-fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt -fcuda-approx-transcendentals";

// Order matters only for prefixes: longer spellings first where one is a prefix of another.
constexpr std::array kNvccFlagRules = {
    NvccFlagRule{"-gencode", F::kWithValue, A::kOffloadArch, "", "per-SM code generation replaced by --offload-arch"},
    NvccFlagRule{"--generate-code", F::kWithValue, A::kOffloadArch, "",
                 "per-SM code generation replaced by --offload-arch"},
    NvccFlagRule{"--gpu-architecture", F::kWithValue, A::kOffloadArch, "",
                 "GPU architecture replaced by --offload-arch"},
    NvccFlagRule{"--gpu-code", F::kWithValue, A::kDrop, "", "covered by --offload-arch"},
    NvccFlagRule{"--cuda-gpu-arch", F::kWithValue, A::kOffloadArch, "", "clang's CUDA architecture -> --offload-arch"},
    NvccFlagRule{"-arch", F::kWithValue, A::kOffloadArch, "", "GPU architecture replaced by --offload-arch", true},
    NvccFlagRule{"-code", F::kWithValue, A::kDrop, "", "covered by --offload-arch", true},
    NvccFlagRule{"--use_fast_math", F::kExact, A::kReplace, kFastMath, "fast math as nvcc means it"},
    NvccFlagRule{"-use_fast_math", F::kExact, A::kReplace, kFastMath, "fast math as nvcc means it"},
    NvccFlagRule{"--relocatable-device-code=true", F::kExact, A::kReplace, "-fgpu-rdc", "relocatable device code"},
    NvccFlagRule{"--relocatable-device-code=false", F::kExact, A::kDrop, "", "the default for hipcc"},
    NvccFlagRule{"-rdc=true", F::kExact, A::kReplace, "-fgpu-rdc", "relocatable device code"},
    NvccFlagRule{"-rdc=false", F::kExact, A::kDrop, "", "the default for hipcc"},
    NvccFlagRule{"-dc", F::kExact, A::kReplace, "-fgpu-rdc -c", "separate compilation", true},
    NvccFlagRule{"--device-c", F::kExact, A::kReplace, "-fgpu-rdc -c", "separate compilation"},
    NvccFlagRule{"-dlink", F::kExact, A::kDropManual, "",
                 "hipcc has no separate device-link step: link the -fgpu-rdc objects with hipcc -fgpu-rdc", true},
    NvccFlagRule{"--device-link", F::kExact, A::kDropManual, "",
                 "hipcc has no separate device-link step: link the -fgpu-rdc objects with hipcc -fgpu-rdc"},
    NvccFlagRule{"-Xcompiler", F::kWithValue, A::kUnwrapHost, "", "hipcc passes host flags directly"},
    NvccFlagRule{"--compiler-options", F::kWithValue, A::kUnwrapHost, "", "hipcc passes host flags directly"},
    NvccFlagRule{"-Xlinker", F::kWithValue, A::kUnwrapLinker, "", "linker flags through -Wl,", true},  // gcc's too
    NvccFlagRule{"--linker-options", F::kWithValue, A::kUnwrapLinker, "", "linker flags through -Wl,"},
    NvccFlagRule{"-Xptxas", F::kWithValue, A::kDrop, "",
                 "no PTX assembler on AMD; for register usage use -Rpass-analysis=kernel-resource-usage"},
    NvccFlagRule{"--ptxas-options", F::kWithValue, A::kDrop, "",
                 "no PTX assembler on AMD; for register usage use -Rpass-analysis=kernel-resource-usage"},
    NvccFlagRule{"-Xnvlink", F::kWithValue, A::kDrop, "", "no nvlink on AMD"},
    NvccFlagRule{"-Xcudafe", F::kWithValue, A::kDrop, "", "no CUDA front end on AMD"},
    NvccFlagRule{"--resource-usage", F::kExact, A::kReplace, "-Rpass-analysis=kernel-resource-usage",
                 "kernel resource usage report"},
    NvccFlagRule{"-lineinfo", F::kExact, A::kReplace, "-gline-tables-only", "line tables for profilers"},
    NvccFlagRule{"--generate-line-info", F::kExact, A::kReplace, "-gline-tables-only", "line tables for profilers"},
    NvccFlagRule{"--expt-relaxed-constexpr", F::kExact, A::kDrop, "",
                 "clang HIP calls constexpr host functions from device code without a flag"},
    NvccFlagRule{"-expt-relaxed-constexpr", F::kExact, A::kDrop, "",
                 "clang HIP calls constexpr host functions from device code without a flag"},
    NvccFlagRule{"--expt-extended-lambda", F::kExact, A::kDrop, "", "HIP supports __device__ lambdas by default"},
    NvccFlagRule{"--extended-lambda", F::kExact, A::kDrop, "", "HIP supports __device__ lambdas by default"},
    NvccFlagRule{"-expt-extended-lambda", F::kExact, A::kDrop, "", "HIP supports __device__ lambdas by default"},
    NvccFlagRule{"-extended-lambda", F::kExact, A::kDrop, "", "HIP supports __device__ lambdas by default"},
    NvccFlagRule{"-ccbin", F::kWithValue, A::kDropManual, "",
                 "hipcc compiles host code with its own clang; the host compiler choice was dropped"},
    NvccFlagRule{"--compiler-bindir", F::kWithValue, A::kDropManual, "",
                 "hipcc compiles host code with its own clang; the host compiler choice was dropped"},
    NvccFlagRule{"-maxrregcount", F::kWithValue, A::kDropManual, "",
                 "no global register cap on AMD: use __launch_bounds__ on the kernels that need it"},
    NvccFlagRule{"--maxrregcount", F::kWithValue, A::kDropManual, "",
                 "no global register cap on AMD: use __launch_bounds__ on the kernels that need it"},
    NvccFlagRule{"-Wno-deprecated-gpu-targets", F::kExact, A::kDrop, "", "nvcc-only warning switch"},
    NvccFlagRule{"--Wno-deprecated-gpu-targets", F::kExact, A::kDrop, "", "nvcc-only warning switch"},
    NvccFlagRule{"--default-stream", F::kWithValue, A::kReplace, "-fgpu-default-stream={}", "default stream"},
    NvccFlagRule{"-default-stream", F::kWithValue, A::kReplace, "-fgpu-default-stream={}", "default stream"},
    NvccFlagRule{"-cudart", F::kWithValue, A::kDrop, "", "hipcc links the HIP runtime itself", true},
    NvccFlagRule{"--cudart", F::kWithValue, A::kDrop, "", "hipcc links the HIP runtime itself"},
    // nvcc's device-only outputs, loaded with cuModuleLoad: hipcc's is a code object for hipModuleLoad (--genco).
    NvccFlagRule{"-fatbin", F::kExact, A::kReplace, "--genco", "a code object for hipModuleLoad"},
    NvccFlagRule{"--fatbin", F::kExact, A::kReplace, "--genco", "a code object for hipModuleLoad"},
    NvccFlagRule{"-cubin", F::kExact, A::kReplace, "--genco", "a code object for hipModuleLoad"},
    NvccFlagRule{"--cubin", F::kExact, A::kReplace, "--genco", "a code object for hipModuleLoad"},
    NvccFlagRule{"-ptx", F::kExact, A::kReplace, "--genco", "no PTX on AMD: a code object for hipModuleLoad"},
    NvccFlagRule{"--ptx", F::kExact, A::kReplace, "--genco", "no PTX on AMD: a code object for hipModuleLoad"},
    NvccFlagRule{"--keep", F::kExact, A::kReplace, "-save-temps", "keep intermediate files"},
    NvccFlagRule{"-ftz=true", F::kExact, A::kReplace, "-fgpu-flush-denormals-to-zero", "flush denormals"},
    NvccFlagRule{"-ftz=false", F::kExact, A::kDrop, "", "the default for hipcc"},
    NvccFlagRule{"-fmad=false", F::kExact, A::kReplace, "-ffp-contract=off", "no fused multiply-add"},
    NvccFlagRule{"-fmad=true", F::kExact, A::kDrop, "", "the default for hipcc"},
    // The double-dash spellings and device LTO, known to HB501 before it read this table:
    NvccFlagRule{"--ftz=true", F::kExact, A::kReplace, "-fgpu-flush-denormals-to-zero", "flush denormals"},
    NvccFlagRule{"--ftz=false", F::kExact, A::kDrop, "", "the default for hipcc"},
    NvccFlagRule{"--fmad=false", F::kExact, A::kReplace, "-ffp-contract=off", "no fused multiply-add"},
    NvccFlagRule{"--fmad=true", F::kExact, A::kDrop, "", "the default for hipcc"},
    NvccFlagRule{"--prec-div", F::kWithValue, A::kDrop, "", "no per-operation precision switch in hipcc"},
    NvccFlagRule{"--prec-sqrt", F::kWithValue, A::kDrop, "", "no per-operation precision switch in hipcc"},
    NvccFlagRule{"-dlto", F::kExact, A::kDropManual, "",
                 "device link-time optimisation: clang's -foffload-lto is the nearest; check the link line"},
    NvccFlagRule{"--dlink-time-opt", F::kExact, A::kDropManual, "",
                 "device link-time optimisation: clang's -foffload-lto is the nearest; check the link line"},
    NvccFlagRule{"-prec-div", F::kWithValue, A::kDrop, "", "no per-operation precision switch in hipcc", true},
    NvccFlagRule{"-prec-sqrt", F::kWithValue, A::kDrop, "", "no per-operation precision switch in hipcc", true},
    NvccFlagRule{"--forward-unknown-to-host-compiler", F::kExact, A::kDrop, "", "hipcc takes host flags directly"},
    NvccFlagRule{"-forward-unknown-to-host-compiler", F::kExact, A::kDrop, "", "hipcc takes host flags directly"},
    NvccFlagRule{"--diag-suppress", F::kWithValue, A::kDrop, "", "nvcc diagnostic numbers do not apply"},
    NvccFlagRule{"-diag-suppress", F::kWithValue, A::kDrop, "", "nvcc diagnostic numbers do not apply"},
    NvccFlagRule{"--display-error-number", F::kExact, A::kDrop, "", "nvcc-only"},
    NvccFlagRule{"-restrict", F::kExact, A::kDrop, "", "nvcc-only", true},
    NvccFlagRule{"--restrict", F::kExact, A::kDrop, "", "nvcc-only"},
    NvccFlagRule{"-G", F::kExact, A::kReplace, "-ggdb", "device debug information", true},
    NvccFlagRule{"--device-debug", F::kExact, A::kReplace, "-ggdb", "device debug information"},
    NvccFlagRule{"-lcudadevrt", F::kExact, A::kDrop, "", "no separate device runtime library in HIP"},
    NvccFlagRule{"--threads", F::kWithValue, A::kDrop, "",
                 "nvcc's parallel compilation switch"},  // no host compiler has it
    NvccFlagRule{"-t", F::kWithValue, A::kDrop, "", "nvcc's parallel compilation switch", true},
};

constexpr std::array kLibraryMappings = {
    LibraryMapping{"cudart", "-lamdhip64", "hip::host", "", ""},
    LibraryMapping{"cudart_static", "-lamdhip64", "hip::host", "", ""},
    LibraryMapping{"cuda", "-lamdhip64", "hip::host", "", ""},
    LibraryMapping{"cuda_driver", "-lamdhip64", "hip::host", "", ""},
    LibraryMapping{"cublas", "-lhipblas", "roc::hipblas", "hipblas", ""},
    LibraryMapping{"cublas_static", "-lhipblas", "roc::hipblas", "hipblas", ""},
    LibraryMapping{"cublasLt", "-lhipblaslt", "roc::hipblaslt", "hipblaslt", ""},
    LibraryMapping{"cublasLt_static", "-lhipblaslt", "roc::hipblaslt", "hipblaslt", ""},
    LibraryMapping{"curand", "-lhiprand", "hip::hiprand", "hiprand", ""},
    LibraryMapping{"curand_static", "-lhiprand", "hip::hiprand", "hiprand", ""},
    LibraryMapping{"cufft", "-lhipfft", "hip::hipfft", "hipfft", ""},
    LibraryMapping{"cufft_static", "-lhipfft", "hip::hipfft", "hipfft", ""},
    LibraryMapping{"cusparse", "-lhipsparse", "roc::hipsparse", "hipsparse", ""},
    LibraryMapping{"cusparse_static", "-lhipsparse", "roc::hipsparse", "hipsparse", ""},
    LibraryMapping{"cusolver", "-lhipsolver", "roc::hipsolver", "hipsolver", ""},
    LibraryMapping{"cusolver_static", "-lhipsolver", "roc::hipsolver", "hipsolver", ""},
    LibraryMapping{"nvrtc", "-lhiprtc", "hiprtc::hiprtc", "hiprtc", ""},
    LibraryMapping{"cudnn", "-lMIOpen", "MIOpen", "miopen",
                   "cuDNN -> MIOpen is not a drop-in: check the translated calls"},
    LibraryMapping{"nccl", "-lrccl", "roc::rccl", "rccl", ""},
    LibraryMapping{"nvToolsExt", "-lroctx64", "roctracer::roctx", "",
                   "NVTX ranges -> roctx: check the translated calls"},
    LibraryMapping{"nvtx3", "", "", "", "NVTX3 is header-only; use roctx (roctracer) for ranges"},
    LibraryMapping{"cudadevrt", "", "", "", ""},
    LibraryMapping{"culibos", "", "", "", ""},
    LibraryMapping{"nvidia-ml", "-lrocm_smi64", "rocm_smi64", "rocm_smi", "NVML -> ROCm SMI is not a drop-in"},
    LibraryMapping{"nvml", "-lrocm_smi64", "rocm_smi64", "rocm_smi", "NVML -> ROCm SMI is not a drop-in"},
};

// HIP_VISIBLE_DEVICES, not ROCR_VISIBLE_DEVICES: it has CUDA_VISIBLE_DEVICES' meaning (indices among the GPUs the
// application's runtime sees) and leaves ROCR_VISIBLE_DEVICES to cluster schedulers and container runtimes, which
// set it at the ROCr level; HIP then numbers the GPUs left by ROCR_VISIBLE_DEVICES (docs/repository-migration.md).
constexpr std::array kEnvVarMappings = {
    EnvVarMapping{"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "", "",
                  "HIP_VISIBLE_DEVICES has the same meaning; schedulers may also set ROCR_VISIBLE_DEVICES"},
    EnvVarMapping{"CUDA_LAUNCH_BLOCKING", "AMD_SERIALIZE_KERNEL", "1", "3",
                  "AMD_SERIALIZE_KERNEL=3 waits before and after every kernel launch"},
    EnvVarMapping{"CUDA_DEVICE_ORDER", "", "", "", "no effect on ROCm (devices are enumerated in PCI order)"},
    EnvVarMapping{"CUDA_CACHE_DISABLE", "", "", "", "no JIT cache on ROCm: code objects are compiled ahead of time"},
    EnvVarMapping{"CUDA_MODULE_LOADING", "", "", "", "no lazy-loading switch on ROCm"},
    // Known to HB503 before the analyzer read this table:
    EnvVarMapping{"CUDA_DEVICE_MAX_CONNECTIONS", "", "", "",
                  "the nearest is GPU_MAX_HW_QUEUES (hardware queues per device); check what the setting was for"},
    EnvVarMapping{"CUDA_CACHE_PATH", "", "", "", "no JIT cache on ROCm: code objects are compiled ahead of time"},
    EnvVarMapping{"CUDA_CACHE_MAXSIZE", "", "", "", "no JIT cache on ROCm: code objects are compiled ahead of time"},
    EnvVarMapping{"CUDA_FORCE_PTX_JIT", "", "", "", "no PTX on AMD GPUs"},
    EnvVarMapping{"CUDA_DISABLE_PTX_JIT", "", "", "", "no PTX on AMD GPUs"},
    EnvVarMapping{"CUDA_AUTO_BOOST", "", "", "", "no equivalent on ROCm"},
    EnvVarMapping{"CUDA_MPS_PIPE_DIRECTORY", "", "", "", "no MPS on ROCm"},
    EnvVarMapping{"CUDA_MPS_ACTIVE_THREAD_PERCENTAGE", "", "", "",
                  "no MPS on ROCm; CU masking (HSA_CU_MASK) is the nearest"},
    EnvVarMapping{"NVIDIA_VISIBLE_DEVICES", "", "", "",
                  "NVIDIA container runtime only: pass --device=/dev/kfd --device=/dev/dri to the container"},
    EnvVarMapping{"NVIDIA_DRIVER_CAPABILITIES", "", "", "", "NVIDIA container runtime only"},
    EnvVarMapping{"NVIDIA_TF32_OVERRIDE", "", "", "", "no TF32 on MI250; on MI300 TF32 is a hipBLASLt setting"},
};

constexpr std::array<std::string_view, 9> kCudaRootVariables = {
    "CUDA_HOME",         "CUDA_PATH",         "CUDA_ROOT",
    "CUDA_DIR",          "CUDA_INSTALL_PATH", "CUDA_TOOLKIT_ROOT_DIR",
    "CUDA_TOOLKIT_PATH", "CUDATOOLKIT_HOME",  "CUDA_TOOLKIT_DIR"};

constexpr std::array kToolMappings = {
    ToolMapping{"nvidia-smi", "amd-smi", "rocm-smi", "options differ from nvidia-smi's; check the arguments", {6, 2}},
    ToolMapping{"nvprof", "rocprofv3", "rocprof", "profiler options differ; check the arguments", {6, 2}},
    ToolMapping{"nsys", "rocprofv3", "rocprof", "profiler options differ; check the arguments", {6, 2}},
    // Omniperf became ROCm Compute Profiler in ROCm 6.3 (6.2.4's documentation is still "Omniperf 2.0.1").
    ToolMapping{"ncu", "rocprof-compute", "omniperf", "kernel-analysis options differ; check the arguments", {6, 3}},
    ToolMapping{"nv-nsight-cu-cli",
                "rocprof-compute",
                "omniperf",
                "kernel-analysis options differ; check the arguments",
                {6, 3}},
    ToolMapping{"cuda-memcheck", "", "", "no drop-in on ROCm: build with -fsanitize=address (xnack+) or use rocgdb"},
    ToolMapping{"compute-sanitizer", "", "",
                "no drop-in on ROCm: build with -fsanitize=address (xnack+) or use rocgdb"},
    ToolMapping{"cuda-gdb", "rocgdb", "rocgdb", ""},
    ToolMapping{"deviceQuery", "rocminfo", "rocminfo", "output format differs"},
    // Known to HB504 before the analyzer read this table:
    ToolMapping{"nvvp", "", "", "no visual profiler on ROCm: trace with rocprofv3 and view the trace in Perfetto"},
    ToolMapping{"cuobjdump", "", "", "no drop-in on ROCm: llvm-objdump or roc-obj read AMD code objects"},
    ToolMapping{"nvdisasm", "", "", "no drop-in on ROCm: llvm-objdump --disassemble reads AMD code objects"},
};

// A note as a sentence of its own: "no PTX on AMD GPUs" -> "No PTX on AMD GPUs."
std::string Sentence(std::string_view note) {
  std::string text(note);
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text + ".";
}

}  // namespace

std::span<const NvccFlagRule> NvccFlagRules() { return kNvccFlagRules; }
std::span<const LibraryMapping> LibraryMappings() { return kLibraryMappings; }
std::span<const EnvVarMapping> EnvVarMappings() { return kEnvVarMappings; }
std::span<const std::string_view> CudaRootVariables() { return kCudaRootVariables; }
std::span<const ToolMapping> ToolMappings() { return kToolMappings; }

const NvccFlagRule* FindNvccFlagRule(std::string_view word, bool nvcc_context) {
  for (const NvccFlagRule& rule : kNvccFlagRules) {
    if (rule.nvcc_context_only && !nvcc_context) continue;
    if (word == rule.spelling) return &rule;
    if (rule.form == NvccFlagForm::kWithValue && word.size() > rule.spelling.size() + 1 &&
        word.substr(0, rule.spelling.size()) == rule.spelling && word[rule.spelling.size()] == '=') {
      return &rule;
    }
  }
  return nullptr;
}

bool IsNvccContext(std::string_view line) {
  std::string lower(line);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto has = [&](std::string_view s) { return lower.find(s) != std::string::npos; };
  return !has("cmake") &&
         (has("nvcc") || has("gencode") || has("cuflags") || has("cudaflags") || has("cuda_flags") || has(".cu ") ||
          has(".cu\"") || (lower.size() >= 3 && lower.compare(lower.size() - 3, 3, ".cu") == 0));
}

std::string_view RocmToolFor(const ToolMapping& tool, ApiVersion target) {
  if (tool.legacy_rocm_tool.empty() || !tool.renamed_in.IsSet() || target >= tool.renamed_in) return tool.rocm_tool;
  return tool.legacy_rocm_tool;
}

std::string ToolAdvice(const ToolMapping& tool) {
  if (tool.rocm_tool.empty()) return Sentence(tool.note);
  std::string advice = "Use " + std::string(tool.rocm_tool);
  if (!tool.legacy_rocm_tool.empty() && tool.legacy_rocm_tool != tool.rocm_tool && tool.renamed_in.IsSet()) {
    advice += " (" + std::string(tool.legacy_rocm_tool) + " before ROCm " + std::to_string(tool.renamed_in.major) +
              "." + std::to_string(tool.renamed_in.minor) + ")";
  }
  return advice + (tool.note.empty() ? "" : ": " + std::string(tool.note)) + ".";
}

std::string EnvVarAdvice(const EnvVarMapping& variable) {
  if (variable.rocm_name.empty()) return Sentence(variable.note);
  std::string advice = "Use " + std::string(variable.rocm_name);
  if (!variable.value_from.empty()) {
    advice += " (" + std::string(variable.cuda_name) + "=" + std::string(variable.value_from) + " -> " +
              std::string(variable.rocm_name) + "=" + std::string(variable.value_to) + ")";
  }
  return advice + ": " + std::string(variable.note) + ".";
}

const LibraryMapping* FindLibraryMapping(std::string_view cuda_name) {
  for (const LibraryMapping& mapping : kLibraryMappings) {
    if (mapping.cuda_name == cuda_name) return &mapping;
  }
  return nullptr;
}

}  // namespace hipforge::translate
