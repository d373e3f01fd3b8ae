#include "worker/translate/repo/line_rewriters.h"

#include <gtest/gtest.h>

#include "worker/translate/repo/nvcc_flag_mapper.h"
#include "worker/translate/repo/script_line_rewriter.h"
#include "worker/translate/tables/build_tables.h"

namespace hipforge::translate {
namespace {

std::vector<std::string> Map(const std::vector<std::string>& flags, bool nvcc_context = true) {
  return MapNvccFlags(flags, {{"gfx90a", "gfx942"}, nvcc_context}).flags;
}

TEST(NvccFlagMapperTest, TableActions) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Map({"-arch=sm_80"}), (V{"--offload-arch=gfx90a", "--offload-arch=gfx942"}));
  EXPECT_EQ(Map({"-gencode", "arch=compute_70,code=sm_70", "-gencode=arch=compute_80,code=sm_80"}),
            (V{"--offload-arch=gfx90a", "--offload-arch=gfx942"}));
  EXPECT_EQ(Map({"--use_fast_math", "-rdc=true", "-lineinfo"}),
            (V{"-fgpu-flush-denormals-to-zero", "-fno-hip-fp32-correctly-rounded-divide-sqrt",
               "-fcuda-approx-transcendentals", "-fgpu-rdc", "-gline-tables-only"}));
  EXPECT_EQ(Map({"-Xcompiler", "-fopenmp,-Wall", "-Xcompiler=-fPIC"}), (V{"-fopenmp", "-Wall", "-fPIC"}));
  EXPECT_EQ(Map({"-Xcompiler", "\"-O3 -g\""}), (V{"-O3", "-g"}));
  EXPECT_EQ(Map({"-Xptxas", "-v", "--expt-relaxed-constexpr", "--expt-extended-lambda", "-O3"}), (V{"-O3"}));
  EXPECT_EQ(Map({"-Xlinker", "-rpath=/x"}), (V{"-Wl,-rpath=/x"}));
  EXPECT_EQ(Map({"--default-stream", "per-thread"}), (V{"-fgpu-default-stream=per-thread"}));
  EXPECT_EQ(Map({"-x", "cu", "-dc"}), (V{"-x", "hip", "-fgpu-rdc", "-c"}));
  // nvcc's long and = spellings (HeCBench leukocyte-cuda: `--x cu`, which hipcc refused as `unknown argument`).
  EXPECT_EQ(Map({"--x", "cu"}), (V{"-x", "hip"}));
  EXPECT_EQ(Map({"-x=cu", "--x=cu"}), (V{"-x", "hip", "-x", "hip"}));
  EXPECT_EQ(
      Map({"-lcudart", "-lcublas", "-lcublasLt", "-lcurand", "-lcufft", "-lcusparse", "-lcusolver", "-lm"}),
      (V{"-lamdhip64", "-lhipblas", "-lhipblaslt", "-lhiprand", "-lhipfft", "-lhipsparse", "-lhipsolver", "-lm"}));
  EXPECT_EQ(Map({"-arch=native"}), (V{"--offload-arch=native"}));
}

TEST(NvccFlagMapperTest, RelocatableDeviceCodeDroppedWhenNotNeeded) {
  using V = std::vector<std::string>;
  const FlagMapResult result =
      MapNvccFlags({"-O2", "-rdc=true", "--relocatable-device-code=true", "-dc", "x.cu"}, {{"gfx90a"}, true, false});
  EXPECT_EQ(result.flags, (V{"-O2", "-c", "x.cu"}));
  ASSERT_EQ(result.notes.size(), 3u);
  EXPECT_NE(result.notes[0].message.find("relocatable device code is not needed"), std::string::npos);
  EXPECT_FALSE(result.notes[0].left_for_person);
}

TEST(NvccFlagMapperTest, AmbiguousFlagsNeedNvccContext) {
  using V = std::vector<std::string>;
  EXPECT_EQ(Map({"-G", "-dc", "-arch", "x86-64"}, false), (V{"-G", "-dc", "-arch", "x86-64"}));
  EXPECT_EQ(Map({"-arch", "sm_70"}, false), (V{"--offload-arch=gfx90a", "--offload-arch=gfx942"}));
}

TEST(NvccFlagMapperTest, ManualStepsAreNoted) {
  const FlagMapResult result = MapNvccFlags({"-maxrregcount=64", "-ccbin", "g++-11"}, {{"gfx90a"}, true});
  EXPECT_TRUE(result.flags.empty());
  ASSERT_EQ(result.notes.size(), 2u);
  EXPECT_TRUE(result.notes[0].left_for_person);
  EXPECT_NE(result.notes[0].message.find("__launch_bounds__"), std::string::npos);
}

TEST(NvccFlagMapperTest, EveryRuleHasANote) {
  for (const NvccFlagRule& rule : NvccFlagRules()) {
    EXPECT_FALSE(rule.note.empty()) << rule.spelling;
    if (rule.action == NvccFlagAction::kReplace) EXPECT_FALSE(rule.replacement.empty()) << rule.spelling;
  }
}

std::string Line(const std::string& line, ApiVersion target_rocm = {6, 4}) {
  ScriptLineOptions options;
  options.architectures = {"gfx90a"};
  options.target_rocm = target_rocm;
  return ScriptLineRewriter(options).Rewrite(line).text;
}

TEST(ScriptLineRewriterTest, CompilerPathsAndVariables) {
  EXPECT_EQ(Line("NVCC := $(CUDA_PATH)/bin/nvcc"), "HIPCC := $(ROCM_PATH)/bin/hipcc");
  EXPECT_EQ(Line("CUDA_PATH ?= /usr/local/cuda-12.2"), "ROCM_PATH ?= /opt/rocm");
  EXPECT_EQ(Line("LDFLAGS := -L$(CUDA_PATH)/lib64 -lcudart"), "LDFLAGS := -L$(ROCM_PATH)/lib -lamdhip64");
  EXPECT_EQ(Line("\t$(NVCC) $(NVCCFLAGS) -arch=sm_80 -c $< -o $@"),
            "\t$(HIPCC) $(HIPCCFLAGS) --offload-arch=gfx90a -c $< -o $@");
  EXPECT_EQ(Line("NVCC_FLAGS=\"-O3 -arch=sm_70 --use_fast_math\""),
            "HIPCC_FLAGS=\"-O3 --offload-arch=gfx90a -fgpu-flush-denormals-to-zero "
            "-fno-hip-fp32-correctly-rounded-divide-sqrt -fcuda-approx-transcendentals\"");
  EXPECT_EQ(Line("# nvcc -arch=sm_70 stays in comments"), "# nvcc -arch=sm_70 stays in comments");
  EXPECT_EQ(Line("cmake -B b -DCMAKE_CUDA_ARCHITECTURES=80"), "cmake -B b \"-DCMAKE_HIP_ARCHITECTURES=gfx90a\"");
}

// A tool with an older ROCm name says from which release the new one holds, and the advice names that release.
TEST(ScriptLineRewriterTest, RenamedToolsCarryTheirRenameRelease) {
  for (const ToolMapping& tool : ToolMappings()) {
    if (tool.legacy_rocm_tool.empty() || tool.legacy_rocm_tool == tool.rocm_tool) continue;
    EXPECT_TRUE(tool.renamed_in.IsSet()) << tool.cuda_tool;
    EXPECT_EQ(RocmToolFor(tool, tool.renamed_in), tool.rocm_tool) << tool.cuda_tool;
    EXPECT_EQ(RocmToolFor(tool, {tool.renamed_in.major, 0}), tool.legacy_rocm_tool) << tool.cuda_tool;
    if (tool.cuda_tool == "ncu") {
      EXPECT_EQ(ToolAdvice(tool),
                "Use rocprof-compute (omniperf before ROCm 6.3): kernel-analysis options differ; "
                "check the arguments.");
    }
  }
}

TEST(ScriptLineRewriterTest, EnvironmentAndTools) {
  EXPECT_EQ(Line("export CUDA_VISIBLE_DEVICES=0,1"), "export HIP_VISIBLE_DEVICES=0,1");
  EXPECT_EQ(Line("CUDA_LAUNCH_BLOCKING=1 ./app"), "AMD_SERIALIZE_KERNEL=3 ./app");
  EXPECT_EQ(Line("echo $CUDA_VISIBLE_DEVICES"), "echo $HIP_VISIBLE_DEVICES");
  EXPECT_EQ(Line("nvidia-smi -L"), "amd-smi -L");
  ScriptLineOptions options;
  const ScriptLineResult with_options = ScriptLineRewriter(options).Rewrite("nvidia-smi --query-gpu=name");
  ASSERT_EQ(with_options.notes.size(), 1u);
  EXPECT_TRUE(with_options.notes[0].left_for_person) << "nvidia-smi's options do not carry over";
  const ScriptLineResult probe = ScriptLineRewriter(options).Rewrite("if command -v nvidia-smi >/dev/null; then");
  ASSERT_EQ(probe.notes.size(), 1u);
  EXPECT_FALSE(probe.notes[0].left_for_person);
  EXPECT_EQ(probe.notes[0].message, "nvidia-smi -> amd-smi") << "no arguments: nothing to check";
  EXPECT_EQ(Line("nvidia-smi", {6, 1}), "rocm-smi");
  EXPECT_EQ(Line("nvidia-smi", {6, 2}), "amd-smi");
  // Each tool's own rename release (tables/build_tables.cc): Omniperf is rocprof-compute only from ROCm 6.3.
  EXPECT_EQ(Line("ncu ./app", {6, 2}), "omniperf ./app");
  EXPECT_EQ(Line("ncu ./app", {6, 3}), "rocprof-compute ./app");
  EXPECT_EQ(Line("nsys profile ./app"), "rocprofv3 profile ./app");
  EXPECT_EQ(Line("ncu ./app"), "rocprof-compute ./app");
  EXPECT_EQ(Line("compute-sanitizer ./app"), "compute-sanitizer ./app");
  EXPECT_EQ(Line("my-nvidia-smi-wrapper"), "my-nvidia-smi-wrapper");
  EXPECT_EQ(Line("docker run --rm --gpus all img"),
            "docker run --rm --device /dev/kfd --device /dev/dri --group-add video img");
  EXPECT_EQ(Line("docker run --runtime=nvidia img"), "docker run img");
}

RewriteResult Makefile(const std::string& text) {
  MigrationOptions options;
  options.hip_architectures = {"gfx90a", "gfx942"};
  RewriteContext context;
  context.options = &options;
  return MakefileRewriter().Rewrite("Makefile", text, context);
}

TEST(MakefileRewriterTest, ArchitectureVariableKeepsChoosingTheTargets) {
  const RewriteResult result = Makefile(
      "ARCH ?= sm_80  # the GPU\n"
      "NVCCFLAGS ?= -O2 -arch=$(ARCH) -Iinclude\n");
  EXPECT_EQ(result.output,
            "ARCH ?= gfx90a gfx942  # the GPU\n"
            "HIPCCFLAGS ?= -O2 $(ARCH:%=--offload-arch=%) -Iinclude\n");
  EXPECT_EQ(result.changed_lines, (std::set<uint32_t>{1, 2}));
  for (const auto& note : result.notes) EXPECT_FALSE(note.left_for_person) << note.message;
  EXPECT_EQ(Makefile("SM := sm_70 sm_80\nF := -arch ${SM}\n").output,
            "SM := gfx90a gfx942\nF := ${SM:%=--offload-arch=%}\n");
}

TEST(MakefileRewriterTest, ArchitectureVariableUsedElsewhereStays) {
  // $(ARCH) also names the output folder: its value is not rewritten, the flag gets the configured list.
  const RewriteResult used_elsewhere = Makefile(
      "ARCH ?= sm_80\n"
      "NVCCFLAGS ?= -arch=$(ARCH)\n"
      "OUT := build/$(ARCH)\n");
  EXPECT_EQ(used_elsewhere.output,
            "ARCH ?= sm_80\nHIPCCFLAGS ?= --offload-arch=gfx90a --offload-arch=gfx942\nOUT := build/$(ARCH)\n");
  // The flag is rewritten for the job's targets: noted, but done (issue 29: it was charged as an open HB501 error).
  ASSERT_FALSE(used_elsewhere.notes.empty());
  for (const auto& note : used_elsewhere.notes) EXPECT_FALSE(note.left_for_person) << note.message;
  EXPECT_NE(used_elsewhere.notes[0].message.find("used a variable"), std::string::npos);
  // A value that is not a CUDA architecture list (computed, native) stays too.
  EXPECT_EQ(Makefile("ARCH ?= native\nNVCCFLAGS := -arch=$(ARCH)\n").output,
            "ARCH ?= native\nHIPCCFLAGS := --offload-arch=gfx90a --offload-arch=gfx942\n");
}

RewriteResult MakefileWith(const std::string& text, const RewriteContext& base, const std::string& path = "Makefile") {
  static MigrationOptions options;
  options.hip_architectures = {"gfx90a", "gfx942"};
  RewriteContext context = base;
  context.options = &options;
  return MakefileRewriter().Rewrite(path, text, context);
}

// Issue 29: `/usr/local/cuda` became `ROCM_PATH = /opt/rocm`, which Debian's ROCm and the validate toolchains
// (hipcc in /usr/bin) do not have, and hipcc itself fails under ROCM_PATH=/opt/rocm there.
TEST(MakefileRewriterTest, CudaRootBecomesTheRootTheInstalledHipccReports) {
  const std::string root = "$(shell hipconfig --rocmpath 2>/dev/null || echo /opt/rocm)";
  const RewriteResult samples = Makefile(
      "CUDA_PATH ?= /usr/local/cuda\n"
      "NVCC := $(CUDA_PATH)/bin/nvcc\n"
      "LIBS := -L$(CUDA_PATH)/lib64/stubs -L$(CUDA_PATH)/targets/x86_64-linux/lib -lcuda\n"
      "INC := -I$(CUDA_PATH)/targets/x86_64-linux/include\n");
  EXPECT_EQ(samples.output, "ROCM_PATH ?= " + root +
                                "\n"
                                "HIPCC := $(ROCM_PATH)/bin/hipcc\n"
                                "LIBS := -L$(ROCM_PATH)/lib -L$(ROCM_PATH)/lib -lamdhip64\n"
                                "INC := -I$(ROCM_PATH)/include\n");
  EXPECT_EQ(Makefile(samples.output).output, samples.output) << "idempotent";
  // A literal install path: the Makefile gets the root variable, defined once at its top.
  const RewriteResult literal = Makefile("INC := -I/usr/local/cuda-12.2/include\nCUDA_DIR = /sw/cuda-11.0\n");
  EXPECT_EQ(literal.output,
            "# hipforge: ROCm's root as the installed hipcc reports it (/usr for Debian's packages, /opt/rocm for "
            "AMD's)\nROCM_PATH ?= " +
                root + "\nINC := -I$(ROCM_PATH)/include\nROCM_PATH = " + root + "\n");
  EXPECT_EQ(Makefile("INC := -I/usr/local/cuda/include\n").output.find("/opt/rocm/"), std::string::npos);
  EXPECT_EQ(Makefile(literal.output).output, literal.output) << "idempotent";
  // Scripts ask hipconfig too, unless ROCM_PATH is already set; Dockerfile/CI lines run in rocm/dev images.
  MigrationOptions options;
  RewriteContext context;
  context.options = &options;
  EXPECT_EQ(ShellScriptRewriter().Rewrite("env.sh", "export CUDA_HOME=/usr/local/cuda-12.2\n", context).output,
            "export ROCM_PATH=\"${ROCM_PATH:-$(hipconfig --rocmpath 2>/dev/null || echo /opt/rocm)}\"\n");
  EXPECT_EQ(DockerfileRewriter().Rewrite("Dockerfile", "ENV CUDA_HOME=/usr/local/cuda\n", context).output,
            "ENV ROCM_PATH=/opt/rocm\n");
}

// Issue 29: no --offload-arch where the CUDA Makefile had no -arch, and arch flags built by Make functions turned
// into unbalanced Make text (`--offload-arch=gfx942 .,,${COMPUTE})`).
TEST(MakefileRewriterTest, EveryHipccCallGetsTheJobsTargetsInValidMake) {
  const std::string archs = "--offload-arch=gfx90a --offload-arch=gfx942";
  EXPECT_EQ(Makefile("NVCC = nvcc\na: a.cu\n\t$(NVCC) -O3 a.cu -o a\n").output,
            "HIPCC = hipcc\na: a.cu\n\t$(HIPCC) " + archs + " -O3 a.cu -o a\n");
  // CUDA samples: `$(EXEC) $(NVCC) ...`, EXEC empty or an echo.
  EXPECT_NE(Makefile("EXEC ?= @echo \"[@]\"\nk.o: k.cu\n\t$(EXEC) /usr/local/cuda/bin/nvcc -c k.cu\n")
                .output.find("\t$(EXEC) $(ROCM_PATH)/bin/hipcc " + archs + " -c k.cu"),
            std::string::npos);
  // An architecture that reaches the command through variables (also target-specific ones) is enough.
  const std::string through_variables =
      "F := -arch=sm_80\nB = $(F) -O3\nrelease: export NVCCFLAGS := $(B)\na: a.cu\n\tnvcc $(NVCCFLAGS) a.cu\n";
  EXPECT_EQ(Makefile(through_variables).output.find("hipcc --offload"), std::string::npos);
  // CUDA samples: per-SM gencode built with foreach/eval, and -Xcompiler through addprefix.
  EXPECT_EQ(Makefile("$(foreach sm,$(SMS),$(eval GENCODE_FLAGS += -gencode arch=compute_$(sm),code=sm_$(sm)))\n"
                     "ALL_CCFLAGS += $(addprefix -Xcompiler ,$(CCFLAGS))\n")
                .output,
            "$(foreach sm,$(SMS),$(eval GENCODE_FLAGS += " + archs + "))\nALL_CCFLAGS += $(addprefix  ,$(CCFLAGS))\n");
  EXPECT_EQ(Makefile("GENCODE = $(foreach COMPUTE,$(ARCHS),-gencode=arch=compute_$(subst .,,${COMPUTE}),"
                     "code=sm_$(subst .,,${COMPUTE}))\n")
                .output,
            "GENCODE = $(foreach COMPUTE,$(ARCHS)," + archs + ")\n");
  // nvcc's --threads is no host compiler's flag: dropped wherever it is (CUDA samples' ALL_CCFLAGS).
  EXPECT_EQ(Makefile("ALL_CCFLAGS += --threads 0 --std=c++11\n").output, "ALL_CCFLAGS += --std=c++11\n");
  // A call split over lines keeps the parenthesis that closes it.
  EXPECT_EQ(Makefile("G := $(foreach sm,$(SMS),\\\n\t-gencode arch=compute_$(sm),code=sm_$(sm))\n").output,
            "G := $(foreach sm,$(SMS),\\\n\t" + archs + ")\n");
}

// Issue 29: `$(shell __nvcc_device_query)` was kept, and a plain `make` built for hipcc's default target, unflagged.
TEST(MakefileRewriterTest, DeviceQueriesBecomeTheJobsTargets) {
  const RewriteResult query = Makefile(
      "GPU_COMPUTE_CAPABILITY = $(shell __nvcc_device_query)\n"
      "CC := $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader | sed 's/\\.//g' | head -n 1)\n");
  EXPECT_EQ(query.output, "GPU_COMPUTE_CAPABILITY = gfx90a gfx942\nCC := gfx90a gfx942\n");
  ASSERT_EQ(query.notes.size(), 2u);
  for (const auto& note : query.notes) EXPECT_FALSE(note.left_for_person) << note.message;
  // In a script (or a recipe's own `$$(...)`) the query is flagged for a person.
  MigrationOptions options;
  RewriteContext context;
  context.options = &options;
  const RewriteResult script = ShellScriptRewriter().Rewrite(
      "build.sh", "SM=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader)\n", context);
  bool flagged = false;
  for (const auto& note : script.notes)
    flagged |= note.left_for_person && note.message.find("compute capability") != std::string::npos;
  EXPECT_TRUE(flagged);
}

// Issue 29: `-fatbin` kept for hipcc; g++ compiling a .cpp that includes HIP without the platform define;
// -lhipblaslt where cuBLASLt is unused.
TEST(MakefileRewriterTest, OutputModesHostCompilersAndUnusedCublasLt) {
  EXPECT_EQ(Makefile("k.fatbin: k.cu\n\tnvcc -arch=sm_80 -fatbin k.cu -o k.fatbin\n").output,
            "k.fatbin: k.cu\n\thipcc --offload-arch=gfx90a --offload-arch=gfx942 --genco k.cu -o k.fatbin\n");
  RewriteContext context;
  context.hip_host_sources = {"app/src/host.cpp"};
  const std::string makefile =
      "CXX = g++\n"
      "src/host.o: src/host.cpp\n\t$(CXX) -O2 -c $< -o $@\n"
      "src/other.o: src/other.cpp\n\t$(CXX) -c $< -o $@\n"
      "%.o: %.cpp\n\tg++ -c $< -o $@\n";
  EXPECT_EQ(MakefileWith(makefile, context, "app/Makefile").output,
            "CXX = g++\n"
            "src/host.o: src/host.cpp\n\t$(CXX) -D__HIP_PLATFORM_AMD__ -O2 -c $< -o $@\n"
            "src/other.o: src/other.cpp\n\t$(CXX) -c $< -o $@\n"
            "%.o: %.cpp\n\tg++ -D__HIP_PLATFORM_AMD__ -c $< -o $@\n");
  EXPECT_EQ(MakefileWith(makefile, {}, "app/Makefile").output, makefile) << "no source includes HIP";
  context.cublaslt_used = false;
  EXPECT_EQ(MakefileWith("LIBS = -lcublas -lcublasLt\n", context).output, "LIBS = -lhipblas\n");
  context.cublaslt_used = true;
  EXPECT_EQ(MakefileWith("LIBS = -lcublas -lcublasLt\n", context).output, "LIBS = -lhipblas -lhipblaslt\n");
}

TEST(ContainerImageTest, CudaImagesMapToRocmDevImages) {
  std::string note;
  EXPECT_EQ(MapContainerImage("nvidia/cuda:12.2.0-devel-ubuntu22.04", "6.4", note), "rocm/dev-ubuntu-22.04:6.4");
  EXPECT_TRUE(note.empty());
  EXPECT_EQ(MapContainerImage("nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu20.04", "6.4", note),
            "rocm/dev-ubuntu-20.04:6.4");
  EXPECT_NE(note.find("MIOpen"), std::string::npos);
  note.clear();
  EXPECT_EQ(MapContainerImage("nvidia/cuda:12.4.1-devel-ubi8", "6.2", note), "rocm/dev-almalinux-8:6.2");
  EXPECT_EQ(MapContainerImage("ubuntu:22.04", "6.4", note), "");
}

TEST(PythonRewriterTest, EnvironmentNumbaAndTorchLeftAlone) {
  MigrationOptions options;
  RewriteContext context;
  context.options = &options;
  const std::string text =
      "import os\nos.environ['CUDA_VISIBLE_DEVICES'] = '1'\nimport torch\nx = torch.cuda.is_available()\n"
      "from numba import cuda\n";
  const RewriteResult result = PythonRewriter().Rewrite("a.py", text, context);
  EXPECT_EQ(result.output,
            "import os\nos.environ['HIP_VISIBLE_DEVICES'] = '1'\nimport torch\nx = torch.cuda.is_available()\n"
            "from numba import cuda\n");
  bool numba_noted = false;
  for (const auto& note : result.notes) numba_noted |= note.left_for_person && note.message.find("Numba") == 0;
  EXPECT_TRUE(numba_noted);
}

TEST(PythonRewriterTest, CupyKernelGoesThroughTheTranslator) {
  MigrationOptions options;
  RewriteContext context;
  context.options = &options;
  std::string seen;
  context.translate_snippet = [&](const std::string& source) -> std::optional<std::string> {
    seen = source;
    return std::string("/*hip*/") + source;
  };
  const RewriteResult result = PythonRewriter().Rewrite(
      "k.py", "SRC = r'''\n__global__ void k() {}\n'''\nk = cp.RawKernel(SRC, 'k')\n", context);
  EXPECT_EQ(seen, "\n__global__ void k() {}\n");
  EXPECT_EQ(result.output, "SRC = r'''/*hip*/\n__global__ void k() {}\n'''\nk = cp.RawKernel(SRC, 'k')\n");
}

TEST(MakefileRewriterTest, CFilesThatNvccCompiledAsCxxStayCxxUnderHipcc) {
  // HeCBench frna/prna: a pattern rule for `.c` through CC = nvcc; heartwall: `.c` files named in the recipe.
  const RewriteResult pattern = Makefile(
      "CC = nvcc\n"
      "%.o: %.c\n"
      "\t$(CC) $(CFLAGS) -c $< -o $@\n"
      "%.o: %.cu\n"
      "\t$(CC) $(CFLAGS) -c $< -o $@\n");
  EXPECT_EQ(pattern.output,
            "CC = hipcc\n"
            "%.o: %.c\n"
            "\t$(CC) --offload-arch=gfx90a --offload-arch=gfx942 $(CFLAGS) -c -x c++ $< -x none -o $@\n"
            "%.o: %.cu\n"
            "\t$(CC) --offload-arch=gfx90a --offload-arch=gfx942 $(CFLAGS) -c $< -o $@\n");
  const RewriteResult named = Makefile(
      "CC = nvcc\n"
      "a.o: a.h \\\n"
      "\ta.c\n"
      "\t$(CC)\t$(CFLAGS) ./a.c \\\n"
      "\t\t-c -o a.o\n");
  EXPECT_EQ(named.output,
            "CC = hipcc\n"
            "a.o: a.h \\\n"
            "\ta.c\n"
            "\t$(CC) --offload-arch=gfx90a --offload-arch=gfx942\t$(CFLAGS) -x c++ ./a.c -x none \\\n"
            "\t\t-c -o a.o\n");
  // A Makefile that chose the language itself keeps its choice (HeCBench leukocyte: `--x cu`, its .c files are CUDA).
  EXPECT_EQ(Makefile("CC = nvcc\nCFLAGS := -O3 --x cu\n%.o: %.c\n\t$(CC) $(CFLAGS) $< -c\n").output,
            "CC = hipcc\nCFLAGS := -O3 -x hip\n%.o: %.c\n\t$(CC) --offload-arch=gfx90a --offload-arch=gfx942 $(CFLAGS) "
            "$< -c\n");
  // A C compiler that is not nvcc keeps compiling C.
  EXPECT_EQ(Makefile("CC = gcc\n%.o: %.c\n\t$(CC) -c $< -o $@\n").output, "CC = gcc\n%.o: %.c\n\t$(CC) -c $< -o $@\n");
}

}  // namespace
}  // namespace hipforge::translate
