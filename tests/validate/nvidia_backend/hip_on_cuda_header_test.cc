#include "worker/validate/nvidia_backend/hip_on_cuda_header.h"

#include <fstream>
#include <regex>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/process.h"
#include "tests/validate/test_support.h"
#include "worker/translate/tables/mapping_index.h"
#include "worker/translate/tables/ptx_table.h"
#include "worker/validate/nvidia_backend/cuda_name_refusal.h"
#include "worker/validate/nvidia_backend/hip_on_cuda_driver.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

fs::path Nvcc() {
  return fs::exists("/usr/local/cuda/bin/nvcc") ? fs::path("/usr/local/cuda/bin/nvcc") : FindProgram("nvcc");
}

// Writes the header set under `dir`/include and compiles `source` with nvcc for sm_90; the compiler's messages on
// failure.
std::string CompileThroughTheLayer(const fs::path& dir, const std::string& name, const std::string& source,
                                   const std::vector<std::string>& flags = {}) {
  for (const auto& [relative, text] : GenerateHipOnCudaHeaders(translate::AllTables())) {
    testing::WriteFile(dir / "include" / relative, text);
  }
  testing::WriteFile(dir / name, source);
  BoostProcessLauncher launcher;
  std::vector<std::string> argv = {Nvcc().string(), "-arch=sm_90", "-I", (dir / "include").string()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-c", (dir / name).string(), "-o", (dir / (name + ".o")).string()});
  auto result = launcher.Run({.argv = argv, .timeout = std::chrono::minutes(5)});
  if (!result.ok()) return result.status().ToString();
  return result->exit_code == 0 ? "" : name + ":\n" + result->standard_error;
}

TEST(HipOnCudaHeaderTest, MapsHipNamesBackToCuda) {
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  ASSERT_TRUE(files.count("hipforge_hip_on_cuda.h"));
  ASSERT_TRUE(files.count("hip/hip_runtime.h"));
  const std::string& common = files["hipforge_hip_on_cuda.h"];
  EXPECT_THAT(common, HasSubstr("#define hipDeviceSynchronize cudaDeviceSynchronize\n"));
  EXPECT_THAT(common, HasSubstr("#define hipDeviceProp_t cudaDeviceProp\n"));
  EXPECT_THAT(common, HasSubstr("#define hipLaunchKernelGGL("));
  EXPECT_THAT(common, ::testing::Not(HasSubstr("#define cuda")));  // CUDA's own names are never touched
  EXPECT_THAT(files["hip/hip_runtime.h"], HasSubstr("#include <cuda_runtime.h>"));
}

// Of several CUDA names for one HIP name, the one CUDA 13 still has and HIP stands for.
TEST(HipOnCudaHeaderTest, PrefersTheCudaNameWithTheSameStem) {
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  const std::string& common = files["hipforge_hip_on_cuda.h"];
  EXPECT_THAT(common, HasSubstr("#define hipblasStatus_t cublasStatus_t\n"));
  EXPECT_THAT(common, ::testing::Not(HasSubstr("#define hipblasStatus_t cublasStatus\n")));
  EXPECT_THAT(common, HasSubstr("typedef cudaError_t hipError_t;"));
}

// HIPBLAS_H is what helper headers test before using hipBLAS: defined only once cuBLAS is included.
TEST(HipOnCudaHeaderTest, LibraryGuardsFollowTheCudaHeaders) {
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  EXPECT_THAT(files["hipforge_hip_on_cuda.h"], ::testing::Not(HasSubstr("#define HIPBLAS_H")));
  EXPECT_THAT(files["hipblas/hipblas.h"], HasSubstr("#if !defined(HIPBLAS_H) && (defined(CUBLAS_H_) || "));
}

// HIP 6's hip_cooperative_groups.h has cooperative_groups::reduce; CUDA needs cooperative_groups/reduce.h.
TEST(HipOnCudaHeaderTest, CooperativeGroupsHeaderBringsReduce) {
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  EXPECT_THAT(files["hip/hip_cooperative_groups.h"], HasSubstr("#include <cooperative_groups/reduce.h>"));
  EXPECT_THAT(files["hip/hip_cooperative_groups.h"], HasSubstr("#include <cooperative_groups.h>"));
}

// HIP 6.4's hip/hip_version.h, so `#if HIP_VERSION >= ...` takes HIP 6.4's branch (it took the lowest one).
TEST(HipOnCudaHeaderTest, DefinesTheHipVersionOfTheReleaseItStandsFor) {
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  ASSERT_TRUE(files.count("hip/hip_version.h"));
  const std::string& version = files["hip/hip_version.h"];
  EXPECT_THAT(version, HasSubstr("#define HIP_VERSION_MAJOR 6\n"));
  EXPECT_THAT(version, HasSubstr("#define HIP_VERSION_MINOR 4\n"));
  EXPECT_THAT(version, HasSubstr("#define HIP_VERSION_PATCH 43484\n"));
  EXPECT_THAT(version, HasSubstr("#define HIP_VERSION_GITHASH \"\"\n"));
  EXPECT_THAT(
      version,
      HasSubstr("#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)"));
  EXPECT_THAT(files["hipforge_hip_on_cuda.h"], HasSubstr("#include \"hip/hip_version.h\""));
}

// A HIP macro that stands for a library's CUDA macro exists only once that library's header is in: HIPSPARSE_EXPORT
// (CUSPARSEAPI) was defined in the common header, which switched programs testing it without hipSPARSE.
TEST(HipOnCudaHeaderTest, LibraryMacrosFollowTheirCudaMacros) {
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  const std::string& common = files["hipforge_hip_on_cuda.h"];
  for (const char* macro : {"HIPSPARSE_EXPORT", "HIPCUB_STDERR", "HIP_PI_F", "HIPCUB_WARP_THREADS"}) {
    EXPECT_THAT(common, ::testing::Not(HasSubstr(std::string("#define ") + macro + " "))) << macro;
  }
  EXPECT_THAT(
      files["hipsparse/hipsparse.h"],
      HasSubstr("#if !defined(HIPSPARSE_EXPORT) && (defined(CUSPARSEAPI))\n#define HIPSPARSE_EXPORT CUSPARSEAPI\n"));
  EXPECT_THAT(files["hip/hip_runtime.h"], HasSubstr("#define hipStreamPerThread cudaStreamPerThread\n"));
}

// The translator's inline copies of CUDA functions HIP lacks stay out where CUDA has the function: its bf16 atomicAdd
// is the shim's very overload (nvcc: "has already been defined"), its cache-hint loads are the real ones.
TEST(HipOnCudaHeaderTest, KeepsTheTranslatorsShimsOutWhereCudaHasTheFunctions) {
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  for (const char* guard : {"HIPFORGE_DP4A_SHIM", "HIPFORGE_BF16_INTEGER_SHIM", "HIPFORGE_HALF_ATOMIC_ADD_SHIM",
                            "HIPFORGE_BF16_ATOMIC_ADD_SHIM", "HIPFORGE_CACHE_HINT_SHIM"}) {
    EXPECT_THAT(files["hipforge_hip_on_cuda.h"], HasSubstr(std::string("#define ") + guard + " 1\n")) << guard;
  }
}

// Typed as HIP 6.4 declares them: hipDrvGetErrorString takes a hipError_t (CUDA's a CUresult), hipCtxCreate keeps
// HIP's three parameters over CUDA 13's cuCtxCreate_v4.
TEST(HipOnCudaHeaderTest, DriverFunctionsAreTypedAsHipDeclaresThem) {
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  const std::string& common = files["hipforge_hip_on_cuda.h"];
  EXPECT_THAT(common,
              HasSubstr("inline hipError_t hipDrvGetErrorString(hipError_t hipError, const char** errorString)"));
  EXPECT_THAT(common,
              HasSubstr("inline hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags, hipDevice_t device)"));
  EXPECT_THAT(common, HasSubstr("inline hipError_t hipModuleLaunchKernel(hipFunction_t f,"));
  EXPECT_THAT(common, ::testing::Not(HasSubstr("#define hipModuleLaunchKernel(")));
  EXPECT_THAT(common, ::testing::Not(HasSubstr("#define hipCtxCreate(")));
  // No pass-through where HIP's parameter types are not CUDA's (hipArray_t is the runtime's cudaArray_t).
  EXPECT_THAT(common, ::testing::Not(HasSubstr("#define hipMemcpyAtoH(")));
  EXPECT_THAT(common, HasSubstr("#define hipStreamQuery cudaStreamQuery\n"));
  for (std::string_view name :
       {"hipModuleLoad", "hipModuleGetFunction", "hipModuleLaunchKernel", "hipCtxCreate", "hipDrvGetErrorString",
        "hipDrvGetErrorName", "hipDeviceGet", "hipInit", "hipModuleUnload", "hipMemAllocPitch", "hipMemcpyHtoD"}) {
    EXPECT_EQ(HowToWrapDriverFunction(name), DriverWrapping::kHandWritten) << name;
    EXPECT_THAT(common, HasSubstr("inline hipError_t " + std::string(name) + "(")) << name;
  }
}

TEST(HipOnCudaHeaderTest, DriverFunctionsAreWrappersReturningHipError) {
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  const std::string& common = files["hipforge_hip_on_cuda.h"];
  EXPECT_THAT(common, HasSubstr("#define hipMemcpyParam2D(...) hipforge_from_cu(cuMemcpy2D(__VA_ARGS__))"));
  // hipMalloc stands for cudaMalloc (and cuMemAlloc in the tables): HIP's runtime form, as HIP on NVIDIA has it.
  EXPECT_THAT(common, HasSubstr("#define hipMalloc cudaMalloc\n"));
  EXPECT_THAT(common, HasSubstr("#define make_hipFloatComplex make_cuFloatComplex\n"));
}

TEST(CudaNameRefusalTest, FindsCudaNamesInCodeOnly) {
  const auto refused = RefusedCudaNames(translate::AllTables());
  EXPECT_TRUE(refused.names.count("cublasDgemm"));
  EXPECT_TRUE(refused.names.count("cudaMalloc"));
  EXPECT_TRUE(refused.names.count("cuLaunchKernel"));
  EXPECT_FALSE(refused.names.count("__syncthreads"));
  const auto uses = FindCudaNames("main.hip", R"(#include <hipblas/hipblas.h>
#include "cuda_helpers.h"
// cudaMalloc in a comment, /* cublasDgemm */ too
const char* text = "cudaMemcpy";
void f(hipblasHandle_t h, double* a) {
  hipMalloc(&a, 8);
  cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, nullptr, a, 1, a, 1, nullptr, a, 1);
}
)",
                                  refused);
  ASSERT_EQ(uses.size(), 3u);
  EXPECT_EQ(uses[0].name, "cublasDgemm");
  EXPECT_EQ(uses[0].line, 7u);
  EXPECT_EQ(uses[0].column, 3u);
  EXPECT_EQ(uses[1].name, "CUBLAS_OP_N");
}

// Names in branches the AMD build drops (`#if 0`, NVIDIA-platform branches, HIP versions below 6.4) are not left
// CUDA; those in kept branches, in conditions nothing decides, and in #define bodies are (10 trees were refused for
// names only in dropped branches).
TEST(CudaNameRefusalTest, LooksOnlyAtCodeThePreprocessorKeeps) {
  const auto refused = RefusedCudaNames(translate::AllTables());
  const auto uses = FindCudaNames("main.hip", R"(#include <hip/hip_runtime.h>
#if 0
cudaMalloc(&p, 4);
#endif
#ifndef __HIP_PLATFORM_AMD__
  cudaDeviceSynchronize();
#elif defined(__HIP_PLATFORM_NVIDIA__) || \
      defined(__HIP_PLATFORM_NVCC__)
  cudaFree(p);
#else
  hipFree(p);
#endif
#if HIP_VERSION < 50000000  /* older HIP */
  cudaStreamSynchronize(0);
#elif USE_LEGACY
  cudaMemset(p, 0, 4);
#endif
#ifdef __HIP_PLATFORM_NVIDIA__
#if 1
  cudaEventSynchronize(e);
#endif
#else
#define CHECK(x) cudaGetLastError()
#endif
)",
                                  refused);
  ASSERT_EQ(uses.size(), 2u);
  EXPECT_EQ(uses[0].name, "cudaMemset");  // USE_LEGACY: unknown, so kept
  EXPECT_EQ(uses[0].line, 16u);
  EXPECT_EQ(uses[1].name, "cudaGetLastError");
  EXPECT_EQ(uses[1].line, 23u);
}

// WMMA (nvcuda::wmma, <mma.h>) and the cache-hint loads/stores are CUDA left in place; the cache hints are not where
// the translator defined them for HIP (HIPFORGE_CACHE_HINT_SHIM).
TEST(CudaNameRefusalTest, CatchesWmmaAndCacheHintIntrinsics) {
  const auto refused = RefusedCudaNames(translate::AllTables());
  EXPECT_TRUE(refused.headers.count("mma.h"));
  const auto uses = FindCudaNames("wmma.hip", R"(#include <hip/hip_runtime.h>
#include <mma.h>
using namespace nvcuda;
__global__ void k(const float* in, float* out) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  nvcuda::wmma::fill_fragment(acc, 0.0f);
  out[0] = __ldcs(in) + __ldcg(in + 1);
  __stcs(out + 1, 1.0f);
}
)",
                                  refused);
  std::vector<std::string> names;
  for (const CudaNameUse& use : uses) names.push_back(use.name);
  EXPECT_THAT(names, ::testing::ElementsAre("#include <mma.h>", "nvcuda", "nvcuda", "__ldcs", "__ldcg", "__stcs"));
  EXPECT_EQ(uses[0].line, 2u);
  const auto shimmed = FindCudaNames("hint.hip", R"(#include <hip/hip_runtime.h>
#ifndef HIPFORGE_CACHE_HINT_SHIM
#define HIPFORGE_CACHE_HINT_SHIM
template <typename T> __device__ inline T __ldcs(const T* p) { return *p; }
#endif
__global__ void k(const float* in, float* out) { out[0] = __ldcs(in); }
)",
                                     refused);
  EXPECT_TRUE(shimmed.empty()) << shimmed.front().name;
  // The legacy launch API the same way: CUDA's without the translator's HIP definitions of it.
  const std::string legacy = "void launch(hipFunction_t f) { cuParamSetSize(f, 0); cuLaunchGrid(f, 1, 1); }\n";
  EXPECT_EQ(FindCudaNames("legacy.hip", legacy, refused).size(), 2u);
  EXPECT_TRUE(FindCudaNames("legacy.hip", "#ifndef HIPFORGE_LEGACY_LAUNCH_SHIM\n#endif\n" + legacy, refused).empty());
}

// With the CUDA toolkit's nvcc present (CUDA 13 here), a translated HIP program compiles for sm_90.
TEST(HipOnCudaHeaderTest, NvccCompilesHipSourceAgainstTheGeneratedHeaders) {
  const fs::path nvcc =
      fs::exists("/usr/local/cuda/bin/nvcc") ? fs::path("/usr/local/cuda/bin/nvcc") : FindProgram("nvcc");
  if (nvcc.empty()) GTEST_SKIP() << "no nvcc";
  const fs::path dir = fs::temp_directory_path() / ("hip-on-cuda-" + std::to_string(::getpid()));
  for (const auto& [relative, text] : GenerateHipOnCudaHeaders(translate::AllTables())) {
    fs::create_directories((dir / "include" / relative).parent_path());
    std::ofstream(dir / "include" / relative) << text;
  }
  std::ofstream(dir / "app.cu") << R"(#include <hip/hip_runtime.h>
#include <cstdio>
#ifdef HIPBLAS_H
#error "HIPBLAS_H without cuBLAS"
#endif
// Driver API through the layer: one error type, CUdeviceptr behind hipDeviceptr_t.
hipError_t load(hipModule_t* module, hipFunction_t* function, hipDeviceptr_t* global) {
  hipError_t status = hipModuleLoad(module, "k.cubin");
  if (status != hipSuccess) return status;
  if ((status = hipModuleGetFunction(function, *module, "k")) != hipErrorNotFound && status != hipSuccess) return status;
  size_t bytes = 0;
  status = hipModuleGetGlobal(global, &bytes, *module, "g");
  hipDeviceptr_t scratch;
  if (hipMalloc((void**)&scratch, 16) == hipSuccess) status = hipMemcpyHtoD(scratch, &bytes, sizeof bytes);
  // 0 and NULL arguments convert as in a direct call (HeCBench's graphExecution, histogram).
  return status == hipSuccess ? hipModuleLaunchKernel(*function, 1, 1, 1, 64, 1, 1, 0, 0, NULL, NULL) : status;
}
hipError_t record(hipEvent_t event, hipGraph_t graph, hipGraphExec_t* exec) {
  hipError_t status = hipEventRecord(event, 0);
  return status == hipSuccess ? hipGraphInstantiate(exec, graph, NULL, NULL, 0) : status;
}
#include <hip/hip_complex.h>
hipFloatComplex one() { return make_hipFloatComplex(1.0f, 0.0f); }
__global__ void k(float* x) { float v = threadIdx.x; x[threadIdx.x] = v + __shfl_xor(v, 1); }
// CUDA's __syncwarp as the translator writes it for HIP (HeCBench bitpermute, lsqt).
__global__ void sync(float* x) {
  x[threadIdx.x] += 1.0f;
  (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront"), __builtin_amdgcn_wave_barrier(),
   __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront"));
  x[threadIdx.x ^ 1] += 1.0f;
}
int main() {
  float* d = nullptr;
  if (hipMalloc(&d, 64 * sizeof(float)) != hipSuccess) return 1;
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, d);
  hipDeviceProp_t prop;
  hipGetDeviceProperties(&prop, 0);
  printf("%s\n", hipGetErrorString(hipDeviceSynchronize()));
  return hipFree(d) == hipSuccess ? 0 : 1;
}
)";
  std::ofstream(dir / "blas.cu") << R"(#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#ifndef HIPBLAS_H
#error "HIPBLAS_H must follow cublas_v2.h"
#endif
hipblasStatus_t scale(hipblasHandle_t handle, int n, double* x) {
  const double alpha = 2.0;
  hipblasStatus_t status = hipblasDscal(handle, n, &alpha, x, 1);
  return status == HIPBLAS_STATUS_SUCCESS ? hipblasDestroy(handle) : status;
}
)";
  BoostProcessLauncher launcher;
  for (const char* source : {"app.cu", "blas.cu"}) {
    auto result = launcher.Run({.argv = {nvcc.string(), "-arch=sm_90", "-I", (dir / "include").string(), "-c",
                                         (dir / source).string(), "-o", (dir / (std::string(source) + ".o")).string()},
                                .timeout = std::chrono::minutes(5)});
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->exit_code, 0) << source << ":\n" << result->standard_error;
  }
  fs::remove_all(dir);
}

// What a program sees through the layer: HIP 6.4's version, and library macros only with their library.
TEST(HipOnCudaHeaderTest, NvccSeesHip64AndLibraryMacrosOnlyWithTheirHeaders) {
  if (Nvcc().empty()) GTEST_SKIP() << "no nvcc";
  testing::ScratchDir dir("hip-on-cuda-version");
  EXPECT_EQ(CompileThroughTheLayer(dir.path(), "version.cu", R"CU(#include <hip/hip_runtime.h>
#if !defined(HIP_VERSION) || HIP_VERSION != 60443484 || HIP_VERSION_MAJOR != 6 || HIP_VERSION_MINOR != 4
#error "HIP_VERSION is not HIP 6.4's"
#endif
#if HIP_VERSION_PATCH != 43484 || HIP_VERSION_BUILD_ID != 0
#error "HIP_VERSION_PATCH / BUILD_ID"
#endif
#ifdef HIPSPARSE_EXPORT
#error "HIPSPARSE_EXPORT without hipSPARSE"
#endif
#ifdef HIP_PI_F
#error "HIP_PI_F without hip_math_constants.h (HIP's hip_runtime.h has none either)"
#endif
#include <hip/hip_math_constants.h>
#include <hipsparse/hipsparse.h>
#if !defined(HIPSPARSE_EXPORT) || !defined(HIP_PI_F) || !defined(hipStreamPerThread)
#error "library macros missing with their headers"
#endif
float pi() { return HIP_PI_F; }
)CU"),
            "");
}

// Every HIP spelling the translator writes for inline PTX (tables/ptx_table.cc: __lane_id, __smid, wall_clock64,
// __any/__all, the mask-less shuffles) and HIP's bit-field helpers compile for sm_90, with CUDA's meaning.
TEST(HipOnCudaHeaderTest, NvccCompilesEveryDeviceFunctionTheTranslatorWrites) {
  if (Nvcc().empty()) GTEST_SKIP() << "no nvcc";
  std::string body;
  for (const translate::PtxIdiom& idiom : translate::PtxIdioms()) {
    if (idiom.rewrite != translate::PtxRewrite::kTemplate || idiom.hip.empty()) continue;
    std::string statement(idiom.hip);
    for (const auto& [from, to] : {std::pair{"$d", "d"}, {"$a", "a"}, {"$b", "b"}, {"$c", "c"}}) {
      for (size_t at; (at = statement.find(from)) != std::string::npos;) statement.replace(at, 2, to);
    }
    body += "  " + statement + ";  // " + std::string(idiom.ptx) + "\n  out[threadIdx.x] += d;\n";
  }
  testing::ScratchDir dir("hip-on-cuda-builtins");
  EXPECT_EQ(CompileThroughTheLayer(dir.path(), "builtins.cu", R"CU(#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
__global__ void idioms(unsigned long long* out, unsigned long long a, unsigned long long b, unsigned long long c) {
  unsigned long long d = 0;
)CU" + body + R"CU(}
__global__ void helpers(unsigned* out, unsigned long long v) {
  out[0] = __lane_id() + __smid() + __any(v != 0) + __all(v != 0) + __lastbit_u32_u64(v) +
           __bitextract_u32(out[1], 4, 8) + __bitinsert_u32(out[2], out[3], 4, 8) +
           static_cast<unsigned>(__bitextract_u64(v, 40, 8) + __bitinsert_u64(v, v, 40, 8) + __ballot(v != 0));
  out[1] = static_cast<unsigned>(wall_clock64());
}
)CU"),
            "");
}

// Driver-API calls as HIP code makes them (HeCBench, the CUDA samples): HIP's types throughout.
TEST(HipOnCudaHeaderTest, NvccCompilesDriverCallsWithHipTypes) {
  if (Nvcc().empty()) GTEST_SKIP() << "no nvcc";
  testing::ScratchDir dir("hip-on-cuda-driver");
  EXPECT_EQ(CompileThroughTheLayer(dir.path(), "driver.cu", R"CU(#include <hip/hip_runtime.h>
#include <cstdio>
#define CHECK(call) do { hipError_t e = (call); if (e != hipSuccess) { const char* s = nullptr; \
  hipDrvGetErrorString(e, &s); const char* n = nullptr; hipDrvGetErrorName(e, &n); printf("%s %s\n", n, s); } } while (0)
int main() {
  hipDevice_t device;
  hipCtx_t context;
  hipModule_t module;
  hipFunction_t function;
  CHECK(hipInit(0));
  CHECK(hipDeviceGet(&device, 0));
  char name[64];
  int major = 0, minor = 0, api = 0;
  CHECK(hipDeviceGetName(name, sizeof name, device));
  CHECK(hipDeviceComputeCapability(&major, &minor, device));
  CHECK(hipCtxCreate(&context, 0, device));
  CHECK(hipCtxGetApiVersion(context, &api));
  CHECK(hipModuleLoad(&module, "kernel.cubin"));
  CHECK(hipModuleGetFunction(&function, module, "kernel"));
  hipDeviceptr_t buffer;
  size_t pitch = 0;
  CHECK(hipMemAllocPitch(&buffer, &pitch, 256, 4, 4));
  CHECK(hipMemsetD32Async(buffer, 0, 64));
  float host[64];
  CHECK(hipMemcpyHtoD(buffer, host, sizeof host));
  void* args[] = {&buffer};
  CHECK(hipModuleLaunchKernel(function, 1, 1, 1, 64, 1, 1, 0, 0, args, NULL));
  CHECK(hipMemcpyDtoH(host, buffer, sizeof host));
  CHECK(hipModuleUnload(module));
  CHECK(hipCtxDestroy(context));
  return 0;
}
)CU"),
            "");
}

// ggml's VMM pool as the translator writes it (hipDeviceptr_t addresses, the driver-only attribute through
// hipDeviceGetAttribute, hipMemAllocationProp with HIP's location and type enums), and HIP's own void* spelling:
// the H100 run of 2026-12-06 needed GGML_CUDA_NO_VMM because the layer had none of it.
TEST(HipOnCudaHeaderTest, NvccCompilesVirtualMemoryCallsInBothSpellings) {
  if (Nvcc().empty()) GTEST_SKIP() << "no nvcc";
  testing::ScratchDir dir("hip-on-cuda-vmm");
  const std::string source = R"CU(#include <hip/hip_runtime.h>
#include <utility>
#include <vector>
hipError_t pool(int physical_id, size_t reserve_size, size_t max_size) {
  int vmm = 0;
  hipDevice_t device;
  hipError_t e = hipDeviceGet(&device, physical_id);
  if (e == hipSuccess) e = hipDeviceGetAttribute(&vmm, hipDeviceAttributeVirtualMemoryManagementSupported, device);
  hipMemAllocationProp prop = {};
  prop.type = hipMemAllocationTypePinned;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = physical_id;
  size_t granularity = 0;
  if (e == hipSuccess) e = hipMemGetAllocationGranularity(&granularity, &prop, hipMemAllocationGranularityRecommended);
  hipMemGenericAllocationHandle_t handle;
  hipDeviceptr_t pool_addr = 0;
  std::vector<std::pair<hipDeviceptr_t, size_t>> mappings;
  if (e == hipSuccess) e = hipMemCreate(&handle, reserve_size, &prop, 0);
  if (e == hipSuccess) e = hipMemAddressReserve(&pool_addr, max_size, 0, 0, 0);
  hipDeviceptr_t start_ptr = (hipDeviceptr_t)((char*)(pool_addr) + 0);
  if (e == hipSuccess) e = hipMemMap(start_ptr, reserve_size, 0, handle, 0);
  mappings.push_back({start_ptr, reserve_size});
  hipMemAccessDesc access = {};
  access.location.type = hipMemLocationTypeDevice;
  access.location.id = physical_id;
  access.flags = hipMemAccessFlagsProtReadWrite;
  if (e == hipSuccess) e = hipMemSetAccess(start_ptr, reserve_size, &access, 1);
  if (e == hipSuccess) e = hipMemRelease(handle);
  for (auto& mapping : mappings) hipMemUnmap(mapping.first, mapping.second);
  // HIP's own spelling: void* addresses.
  void* ptr = nullptr;
  if (e == hipSuccess) e = hipMemAddressReserve(&ptr, max_size, 0, nullptr, 0);
  if (e == hipSuccess) e = hipMemMap(ptr, reserve_size, 0, handle, 0);
  if (e == hipSuccess) e = hipMemSetAccess(ptr, reserve_size, &access, 1);
  if (e == hipSuccess) e = hipMemUnmap(ptr, reserve_size);
  if (e == hipSuccess) e = hipMemAddressFree(ptr, max_size);
  return e == hipSuccess ? hipMemAddressFree(pool_addr, max_size) : e;
}
)CU";
  EXPECT_EQ(CompileThroughTheLayer(dir.path(), "vmm.cu", source), "");
  // The wave64 mode wraps hipDeviceGetAttribute (warpSize reads 64); the driver-only attribute must still reach
  // the driver's overload (ggml's build for sm_90:wave64 of 2026-12-07 stopped on it).
  EXPECT_EQ(CompileThroughTheLayer(dir.path(), "vmm_wave64.cu", source, {"-DHIPFORGE_WAVE64"}), "");
}

// hipCUB 6.4's fancy iterators (CUB 3 dropped them: HeCBench nonzero) and HIP 6.4's hipsparseSpSM_solve with its
// external buffer (cuSPARSE's has none: HeCBench spsm), the two layer gaps of the H200 run of 2026-12-04.
TEST(HipOnCudaHeaderTest, NvccCompilesHip64LibraryCallsCuda13Changed) {
  if (Nvcc().empty()) GTEST_SKIP() << "no nvcc";
  testing::ScratchDir dir("hip-on-cuda-libraries");
  EXPECT_EQ(CompileThroughTheLayer(dir.path(), "libraries.cu", R"CU(#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
#include <hipsparse/hipsparse.h>
struct Square {
  __host__ __device__ int operator()(int x) const { return x * x; }
};
hipError_t sums(const int* in, int* out, int n, void* temp, size_t bytes) {
  hipcub::TransformInputIterator<int, Square, const int*> squares(in, Square());
  hipcub::CountingInputIterator<int> count(0);
  hipcub::ConstantInputIterator<int> ones(1);
  hipError_t e = hipcub::DeviceReduce::Sum(temp, bytes, squares, out, n);
  if (e == hipSuccess) e = hipcub::DeviceReduce::Sum(temp, bytes, count, out, n);
  return e == hipSuccess ? hipcub::DeviceReduce::Sum(temp, bytes, ones, out, n) : e;
}
hipsparseStatus_t solve(hipsparseHandle_t h, hipsparseSpMatDescr_t a, hipsparseDnMatDescr_t b, hipsparseDnMatDescr_t c,
                        hipsparseSpSMDescr_t d, void* buffer) {
  const float alpha = 1.0f;
  return hipsparseSpSM_solve(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, b, c,
                             HIP_R_32F, HIPSPARSE_SPSM_ALG_DEFAULT, d, buffer);
}
)CU"),
            "");
}

// Each driver-API function the layer defines accepts HIP 6.4's parameter types (hip_runtime_api.h of the ROCm 6.4
// toolchain) and returns hipError_t: a g++ syntax check over `hipX(std::declval<HIP parameter types>()...)`.
TEST(HipOnCudaHeaderTest, DriverFunctionsAcceptHip64ParameterTypes) {
  const fs::path hip_api = "/var/cache/hipforge/toolchains/rocm-6.4/usr/include/hip/hip_runtime_api.h";
  const fs::path cuda_include = Nvcc().empty() ? fs::path() : Nvcc().parent_path().parent_path() / "include";
  if (!fs::exists(hip_api) || cuda_include.empty() || FindProgram("g++").empty()) {
    GTEST_SKIP() << "needs ROCm 6.4's hip_runtime_api.h, the CUDA headers and g++";
  }
  // HIP's prototypes, comments and default arguments out.
  std::string api = testing::ReadFile(hip_api);
  api = std::regex_replace(api, std::regex(R"(/\*[\s\S]*?\*/|//[^\n]*)"), " ");
  api = std::regex_replace(api, std::regex(R"(__dparm\([^)]*\))"), "");
  std::map<std::string, std::string> prototypes;
  static const std::regex kPrototype(R"(hipError_t\s+(hip\w+)\s*\(([^;{)]*)\)\s*;)");
  for (std::sregex_iterator it(api.begin(), api.end(), kPrototype), end; it != end; ++it) {
    prototypes.emplace((*it)[1].str(), (*it)[2].str());
  }
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  const std::string& common = files["hipforge_hip_on_cuda.h"];
  static const std::regex kDefined(R"((?:#define (hip\w+)\(\.\.\.\) hipforge_from_cu|inline hipError_t (hip\w+)\())");
  std::string checks = "#include <hip/hip_runtime.h>\n#include <type_traits>\n#include <utility>\n";
  int count = 0;
  for (std::sregex_iterator it(common.begin(), common.end(), kDefined), end; it != end; ++it) {
    const std::string name = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
    if (name.rfind("hipforge", 0) == 0) continue;
    ASSERT_TRUE(prototypes.count(name)) << name << ": no HIP 6.4 prototype";
    std::string arguments;
    static const std::regex kParameter(R"(\s*([^,]*?)\s*\b\w+\s*(?:,|$))");
    const std::string parameters = std::regex_replace(
        std::regex_replace(prototypes[name], std::regex(R"(=\s*[^,]+)"), ""), std::regex(R"(\s+)"), " ");
    if (parameters.find_first_not_of(' ') != std::string::npos && parameters != "void" && parameters != " void ") {
      for (std::sregex_iterator p(parameters.begin(), parameters.end(), kParameter), pend; p != pend; ++p) {
        if ((*p)[1].length() == 0) continue;
        arguments += std::string(arguments.empty() ? "" : ", ") + "std::declval<" + (*p)[1].str() + ">()";
      }
    }
    checks += "static_assert(std::is_same_v<decltype(" + name + "(" + arguments + ")), hipError_t>, \"" + name +
              "\");  // " + parameters + "\n";
    ++count;
  }
  EXPECT_GT(count, 60);
  testing::ScratchDir dir("hip-on-cuda-driver-types");
  for (const auto& [relative, text] : files) testing::WriteFile(dir.path() / "include" / relative, text);
  testing::WriteFile(dir.path() / "checks.cc", checks);
  BoostProcessLauncher launcher;
  auto result = launcher.Run({.argv = {"g++", "-std=c++17", "-fsyntax-only", "-I", (dir.path() / "include").string(),
                                       "-I", cuda_include.string(), (dir.path() / "checks.cc").string()},
                              .timeout = std::chrono::minutes(2)});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->exit_code, 0) << result->standard_error;
}

}  // namespace
}  // namespace hipforge::validate
