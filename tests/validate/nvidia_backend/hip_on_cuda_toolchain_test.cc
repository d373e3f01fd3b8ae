// The HIP-on-NVIDIA toolchain of the NVIDIA validate pool: a migrated tree builds with its own build files
// (CMake with find_package(hip), a Makefile mixing objects and sources) through the generated hipcc over nvcc.
// Needs nvcc (CUDA 13 here and on the GPU host); no GPU.
#include "worker/validate/nvidia_backend/hip_on_cuda_toolchain.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/validate/test_support.h"
#include "worker/validate/tree_builder.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const char* kHipSource = R"(#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void Sum(const float* in, float* out, int n) {
  float v = threadIdx.x < n ? in[threadIdx.x] : 0.0f;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  if (threadIdx.x == 0) *out = v;
}
int main() {
  float *in, *out;
  hipMalloc(&in, 32 * sizeof(float));
  hipMalloc(&out, sizeof(float));
  hipLaunchKernelGGL(Sum, dim3(1), dim3(32), 0, 0, in, out, 32);
  Sum<<<1, 32>>>(in, out, 32);
  printf("%s\n", hipGetErrorString(hipDeviceSynchronize()));
  hipFree(in);
  hipFree(out);
  return 0;
}
)";

class HipOnCudaToolchainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (FindProgram("nvcc").empty() && !fs::exists("/usr/local/cuda/bin/nvcc")) GTEST_SKIP() << "no nvcc";
    absl::StatusOr<Toolchain> made =
        MakeHipOnCudaToolchain(launcher_, {.dir = scratch_.path() / "toolchain", .archs = {"sm_90"}});
    ASSERT_TRUE(made.ok()) << made.status();
    toolchain_ = *made;
    context_.environment["PATH"] = toolchain_.hipcc.parent_path().string() + ":/usr/local/cuda/bin:/usr/bin:/bin";
    context_.environment["HOME"] = scratch_.path().string();
  }
  BuildOutcome Build(const fs::path& tree) {
    TreeBuilder builder(launcher_, BuildToolchain{.hipcc = toolchain_.hipcc, .parallel_jobs = 2});
    return builder.Build({.source_dir = tree, .build_dir = tree.parent_path() / "build", .arch = "sm_90"}, context_);
  }

  BoostProcessLauncher launcher_;
  testing::ScratchDir scratch_{"hip-on-cuda"};
  Toolchain toolchain_;
  ExecutionContext context_;
};

TEST_F(HipOnCudaToolchainTest, DescribesItselfAsHipOnNvidia) {
  EXPECT_EQ(toolchain_.name, kHipOnCudaToolchainName);
  EXPECT_EQ(toolchain_.HipRelease(), "6.4");
  EXPECT_TRUE(toolchain_.HasArch("sm_90"));
  EXPECT_THAT(toolchain_.Describe(), HasSubstr("on NVIDIA"));
  ProcessSpec version;
  version.argv = {toolchain_.hipcc.string(), "--version"};
  version.environment = context_.environment;
  absl::StatusOr<ProcessResult> result = launcher_.Run(version);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->standard_output, HasSubstr("HIP version: 6.4"));
  EXPECT_THAT(result->standard_output, HasSubstr("Cuda compilation tools"));
}

// The wave64 mode (docs/wave64.md): offered beside each GPU, chosen by the :wave64 target, and what it refuses says
// so at build time. (Its behaviour on a GPU: tests/validate/nvidia_backend/wave64/.)
TEST_F(HipOnCudaToolchainTest, AWave64TargetBuildsWithTheWave64LayerAndRefusesWhatItCannotEmulate) {
  EXPECT_TRUE(toolchain_.HasArch("sm_90:wave64"));
  const fs::path dir = scratch_.path() / "wave64";
  testing::WriteFile(dir / "a.hip", R"(#include <hip/hip_runtime.h>
#if !defined(HIPFORGE_WAVE64_ACTIVE)
#error "not the wave64 layer"
#endif
__global__ void K(unsigned long long* out) { out[threadIdx.x] = __ballot(threadIdx.x % 3 == 0) + __lane_id() + warpSize; }
int main() {
  hipDeviceProp_t prop;
  return hipGetDeviceProperties(&prop, 0) == hipSuccess && prop.warpSize == 64 ? 0 : 1;
}
)");
  testing::WriteFile(dir / "dpp.hip", R"(#include <hip/hip_runtime.h>
__global__ void K(int* out) { out[threadIdx.x] = __builtin_amdgcn_mov_dpp(out[threadIdx.x], 0x111, 0xf, 0xf, false); }
int main() { return 0; }
)");
  // hipCUB's warp primitives are 64 wide on CDNA (rocPRIM's default): the layer's own in wave64 mode, CUB's otherwise.
  testing::WriteFile(dir / "warp_reduce.hip", R"(#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
#include <type_traits>
#ifdef HIPFORGE_WAVE64_ACTIVE
static_assert(std::is_same<hipcub::WarpReduce<float>, hipforge_w64::WarpReduce<float, 64>>::value, "64-wide");
#else
static_assert(std::is_same<hipcub::WarpReduce<float>, cub::WarpReduce<float>>::value, "CUB's");
#endif
struct MaxOp {
  __device__ float operator()(float a, float b) const { return a > b ? a : b; }
};
__global__ void K(const float* in, float* out, int* scanned) {
  using Reduce = hipcub::WarpReduce<float>;
  using Scan = hipcub::WarpScan<int>;
  __shared__ typename Reduce::TempStorage reduce_storage[16];
  __shared__ typename Scan::TempStorage scan_storage[16];
  const int warp = threadIdx.x / warpSize;
  const float total = Reduce(reduce_storage[warp]).Reduce(in[threadIdx.x], MaxOp());
  int prefix = 0, aggregate = 0;
  Scan(scan_storage[warp]).ExclusiveSum(1, prefix, aggregate);
  out[threadIdx.x] = total + Reduce(reduce_storage[warp]).Sum(in[threadIdx.x], 7);
  scanned[threadIdx.x] = prefix + aggregate;
}
int main() { return 0; }
)");
  auto compile = [&](const std::string& arch, const std::string& source) {
    ProcessSpec spec;
    spec.argv = {toolchain_.hipcc.string(),
                 "--offload-arch=" + arch,
                 "-c",
                 (dir / source).string(),
                 "-o",
                 (dir / (source + "." + arch + ".o")).string()};
    spec.environment = context_.environment;
    spec.timeout = std::chrono::seconds(120);
    absl::StatusOr<ProcessResult> result = launcher_.Run(spec);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? *result : ProcessResult{.exit_code = -1};
  };
  const ProcessResult wave64 = compile("sm_90:wave64", "a.hip");
  EXPECT_EQ(wave64.exit_code, 0) << wave64.standard_error;
  const ProcessResult native = compile("sm_90", "a.hip");
  EXPECT_NE(native.exit_code, 0);
  EXPECT_THAT(native.standard_error, HasSubstr("not the wave64 layer"));
  for (const char* arch : {"sm_90:wave64", "sm_90"}) {
    const ProcessResult warp_reduce = compile(arch, "warp_reduce.hip");
    EXPECT_EQ(warp_reduce.exit_code, 0) << arch << ": " << warp_reduce.standard_error;
  }
  const ProcessResult refused = compile("sm_90:wave64", "dpp.hip");
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_THAT(refused.standard_error, HasSubstr("hipforge wave64 refused: __builtin_amdgcn_mov_dpp (DPP)"));
}

TEST_F(HipOnCudaToolchainTest, ACMakeTreeWithFindPackageHipBuildsForSm90) {
  const fs::path tree = scratch_.path() / "cmake" / "src";
  testing::WriteFile(tree / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.21)
project(app LANGUAGES CXX)
find_package(hip REQUIRED)
add_executable(app src/app.cu)
set_source_files_properties(src/app.cu PROPERTIES LANGUAGE CXX)
target_compile_options(app PRIVATE -ffast-math -gline-tables-only)
target_link_libraries(app hip::device)
set(CMAKE_CXX_STANDARD 17)
)");
  testing::WriteFile(tree / "src/app.cu", kHipSource);
  BuildOutcome outcome = Build(tree);
  EXPECT_TRUE(outcome.ok) << outcome.failure << "\n" << outcome.log;
  EXPECT_TRUE(fs::exists(tree.parent_path() / "build" / "app"));
}

// ggml: libraries with VERSION/SOVERSION link as libggml-base.so.0.21.0, which nvcc alone refuses ("Don't know what
// to do with"): every ggml library and test failed to link on the GPU host.
TEST_F(HipOnCudaToolchainTest, ACMakeTreeLinkingAVersionedSharedLibraryBuilds) {
  const fs::path tree = scratch_.path() / "versioned" / "src";
  testing::WriteFile(tree / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.21)
project(app LANGUAGES CXX)
find_package(hip REQUIRED)
add_library(base SHARED base.cpp)
set_target_properties(base PROPERTIES VERSION 0.21.0 SOVERSION 0)
add_executable(app app.cu)
set_source_files_properties(app.cu PROPERTIES LANGUAGE CXX)
target_link_libraries(app base hip::device)
)");
  testing::WriteFile(tree / "base.cpp", "int Base() { return 7; }\n");
  testing::WriteFile(tree / "app.cu", std::string(kHipSource).substr(0, std::string(kHipSource).find("int main")) +
                                          "int Base();\nint main() { return Base() == 7 ? 0 : 1; }\n");
  BuildOutcome outcome = Build(tree);
  EXPECT_TRUE(outcome.ok) << outcome.failure << "\n" << outcome.log;
  EXPECT_TRUE(fs::exists(tree.parent_path() / "build" / "libbase.so.0.21.0"));
  EXPECT_TRUE(fs::exists(tree.parent_path() / "build" / "app"));
}

// ggml's VMM pool: a shared library calling HIP's driver API (libcuda's on NVIDIA), which the migrated CMake links
// with hip::host only (CUDA::cuda_driver's counterpart): hipcc links libcuda as it does on NVIDIA.
TEST_F(HipOnCudaToolchainTest, ASharedLibraryCallingTheDriverApiLinks) {
  const fs::path tree = scratch_.path() / "driver" / "src";
  testing::WriteFile(tree / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.21)
project(app LANGUAGES CXX)
find_package(hip REQUIRED)
add_library(pool SHARED pool.cu)
set_source_files_properties(pool.cu PROPERTIES LANGUAGE CXX)
target_link_libraries(pool PRIVATE hip::host)
add_executable(app app.cpp)
target_link_libraries(app pool)
)");
  testing::WriteFile(tree / "pool.cu", R"(#include <hip/hip_runtime.h>
hipError_t Reserve(hipDeviceptr_t* address, size_t size) { return hipMemAddressReserve(address, size, 0, 0, 0); }
)");
  testing::WriteFile(tree / "app.cpp",
                     "#include <hip/hip_runtime.h>\nhipError_t Reserve(hipDeviceptr_t*, size_t);\n"
                     "int main() { hipDeviceptr_t a; return Reserve(&a, 1 << 21) == hipSuccess ? 0 : 1; }\n");
  BuildOutcome outcome = Build(tree);
  EXPECT_TRUE(outcome.ok) << outcome.failure << "\n" << outcome.log;
  EXPECT_TRUE(fs::exists(tree.parent_path() / "build" / "app"));
}

TEST_F(HipOnCudaToolchainTest, AMakefileThatLinksObjectsAndSourcesBuilds) {
  const fs::path tree = scratch_.path() / "make" / "src";
  testing::WriteFile(tree / "Makefile",
                     "app: kernel.o main.cpp\n\t$(HIPCC) -O2 -std=c++17 -Wall kernel.o main.cpp -o app\n"
                     "kernel.o: kernel.cpp\n\t$(HIPCC) -O2 -fPIC -c kernel.cpp -o kernel.o\n");
  testing::WriteFile(tree / "kernel.cpp", std::string(kHipSource).substr(0, std::string(kHipSource).find("int main")));
  testing::WriteFile(
      tree / "main.cpp",
      "#include <hip/hip_runtime.h>\nint main() { return hipDeviceSynchronize() == hipSuccess ? 0 : 1; }\n");
  BuildOutcome outcome = Build(tree);
  EXPECT_TRUE(outcome.ok) << outcome.failure << "\n" << outcome.log;
  EXPECT_TRUE(fs::exists(tree / "app"));
}

// The automatic CUDA reference: the submitted tree's own build files, run with the reference nvcc, build for the
// GPU's arch even where they name one CUDA 13 no longer builds (sm_60) or pin CMAKE_CUDA_ARCHITECTURES.
const char* kCudaSource = R"(#include <cstdio>
__global__ void Twice(float* v) { v[threadIdx.x] *= 2.0f; }
int main() {
  float* v;
  cudaMalloc(&v, 32 * sizeof(float));
  Twice<<<1, 32>>>(v);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
)";

class CudaReferenceBuildTest : public HipOnCudaToolchainTest {
 protected:
  BuildOutcome BuildOriginal(const fs::path& tree) {
    ExecutionContext context = context_;
    context.environment["PATH"] =
        toolchain_.cuda_reference_nvcc.parent_path().string() + ":" + context.environment["PATH"];
    context.environment["HIPFORGE_CUDA_ARCH"] = "sm_90";
    TreeBuilder builder(
        launcher_, BuildToolchain{.hipcc = toolchain_.cuda_reference_nvcc, .parallel_jobs = 2, .cuda_original = true});
    return builder.Build({.source_dir = tree, .build_dir = tree.parent_path() / "build", .arch = "sm_90"}, context);
  }
};

TEST_F(CudaReferenceBuildTest, AMakefileNamingAnArchCuda13DroppedBuildsForTheGpusArch) {
  const fs::path tree = scratch_.path() / "cuda-make" / "src";
  testing::WriteFile(tree / "Makefile",
                     "ARCH = sm_60\nmain: main.cu\n\tnvcc -O2 -arch=$(ARCH) -gencode "
                     "arch=compute_60,code=sm_60 main.cu -o main\n");
  testing::WriteFile(tree / "main.cu", kCudaSource);
  BuildOutcome outcome = BuildOriginal(tree);
  // CUDA 13's nvcc refuses sm_60 ("Unsupported gpu architecture"): a build proves the options were replaced.
  ASSERT_TRUE(outcome.ok) << outcome.failure << "\n" << outcome.log;
  if (!fs::exists("/usr/local/cuda/bin/cuobjdump")) return;  // a minimal CUDA install (this CI's)
  ProcessSpec objdump;
  objdump.argv = {"/usr/local/cuda/bin/cuobjdump", "--list-elf", (tree / "main").string()};
  absl::StatusOr<ProcessResult> listed = launcher_.Run(objdump);
  ASSERT_TRUE(listed.ok()) << listed.status();
  EXPECT_THAT(listed->standard_output, HasSubstr("sm_90"));
}

TEST_F(CudaReferenceBuildTest, ACMakeCudaProjectWithPinnedArchitecturesBuildsForTheGpusArch) {
  const fs::path tree = scratch_.path() / "cuda-cmake" / "src";
  testing::WriteFile(tree / "CMakeLists.txt", R"(cmake_minimum_required(VERSION 3.21)
project(app LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 52)
add_executable(app main.cu)
)");
  testing::WriteFile(tree / "main.cu", kCudaSource);
  BuildOutcome outcome = BuildOriginal(tree);
  EXPECT_TRUE(outcome.ok) << outcome.failure << "\n" << outcome.log;
  EXPECT_TRUE(fs::exists(tree.parent_path() / "build" / "app"));
}

TEST(CudaReferenceNvccScriptTest, ReplacesEveryArchitectureOptionWithTheGpusArch) {
  testing::ScratchDir scratch("reference-nvcc");
  // A stand-in nvcc that prints its arguments: what the real one would be given.
  const fs::path fake = scratch.path() / "nvcc-args";
  testing::WriteFile(fake, "#!/bin/sh\necho \"$@\"\n");
  fs::permissions(fake, fs::perms::owner_all);
  const fs::path script = scratch.path() / "nvcc";
  testing::WriteFile(script, CudaReferenceNvccScript(fake, "sm_90"));
  fs::permissions(script, fs::perms::owner_all);
  BoostProcessLauncher launcher;
  ProcessSpec spec;
  spec.argv = {script.string(),
               "-O3",
               "-arch",
               "sm_60",
               "-gencode=arch=compute_70,code=sm_70",
               "--generate-code",
               "arch=compute_80,code=sm_80",
               "--gpu-architecture=sm_52",
               "-code=sm_52",
               "-arch=native",
               "a.cu"};
  spec.environment = {{"PATH", "/usr/bin:/bin"}, {"HIPFORGE_CUDA_ARCH", "sm_100"}};
  absl::StatusOr<ProcessResult> result = launcher.Run(spec);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->standard_output, "-arch=sm_100 -O3 a.cu\n");
  spec.environment.erase("HIPFORGE_CUDA_ARCH");
  spec.argv = {script.string(), "--version"};
  result = launcher.Run(spec);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->standard_output, "--version\n") << "--version goes through untouched";
}

// The translator maps nvcc's --use_fast_math to its parts (build_tables.cc); on HIP's NVIDIA platform each part goes
// back to nvcc's own switch, not to the host compiler (-Xcompiler) and not dropped (denormal flushing was).
TEST(HipOnCudaHipccScriptTest, NvccsFastMathInPartsGoesBackToNvccsSwitches) {
  testing::ScratchDir scratch("hipcc-fast-math");
  const fs::path fake = scratch.path() / "nvcc-args";
  testing::WriteFile(fake, "#!/bin/sh\necho \"$@\"\n");
  fs::permissions(fake, fs::perms::owner_all);
  BoostProcessLauncher launcher;
  absl::StatusOr<Toolchain> made =
      MakeHipOnCudaToolchain(launcher, {.dir = scratch.path() / "toolchain", .nvcc = fake, .archs = {"sm_90"}});
  ASSERT_TRUE(made.ok()) << made.status();
  ProcessSpec spec;
  spec.argv = {made->hipcc.string(),
               "-O3",
               "-fgpu-flush-denormals-to-zero",
               "-fno-hip-fp32-correctly-rounded-divide-sqrt",
               "-fcuda-approx-transcendentals",
               "-c",
               "a.hip",
               "-o",
               "a.o"};
  spec.environment = {{"PATH", "/usr/bin:/bin"}};
  absl::StatusOr<ProcessResult> result = launcher.Run(spec);
  ASSERT_TRUE(result.ok()) << result.status();
  const std::string& args = result->standard_output;
  EXPECT_NE(args.find("-ftz=true -prec-div=false -prec-sqrt=false --use_fast_math"), std::string::npos) << args;
  EXPECT_EQ(args.find("-Xcompiler"), std::string::npos) << args;
  EXPECT_EQ(args.find("-fgpu"), std::string::npos) << args;
}

}  // namespace
}  // namespace hipforge::validate
