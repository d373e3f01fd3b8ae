#include "worker/validate/nvidia_backend/hip_on_cuda_header.h"

#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/process.h"
#include "worker/translate/tables/mapping_index.h"
#include "worker/validate/nvidia_backend/cuda_name_refusal.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

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

TEST(HipOnCudaHeaderTest, DriverFunctionsAreWrappersReturningHipError) {
  auto files = GenerateHipOnCudaHeaders(translate::AllTables());
  const std::string& common = files["hipforge_hip_on_cuda.h"];
  EXPECT_THAT(common, HasSubstr("#define hipModuleLaunchKernel(...) hipforge_from_cu(cuLaunchKernel(__VA_ARGS__))"));
  // hipMalloc stands for cudaMalloc (and cuMemAlloc in the tables): HIP's runtime form, as HIP on NVIDIA has it.
  EXPECT_THAT(common, HasSubstr("#define hipMalloc cudaMalloc\n"));
  EXPECT_THAT(common, HasSubstr("#define make_hipFloatComplex make_cuFloatComplex\n"));
}

TEST(CudaNameRefusalTest, FindsCudaNamesInCodeOnly) {
  const auto names = RefusedCudaNames(translate::AllTables());
  EXPECT_TRUE(names.count("cublasDgemm"));
  EXPECT_TRUE(names.count("cudaMalloc"));
  EXPECT_TRUE(names.count("cuLaunchKernel"));
  EXPECT_FALSE(names.count("__syncthreads"));
  const auto uses = FindCudaNames("main.hip", R"(#include <hipblas/hipblas.h>
#include "cuda_helpers.h"
// cudaMalloc in a comment, /* cublasDgemm */ too
const char* text = "cudaMemcpy";
void f(hipblasHandle_t h, double* a) {
  hipMalloc(&a, 8);
  cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, nullptr, a, 1, a, 1, nullptr, a, 1);
}
)", names);
  ASSERT_EQ(uses.size(), 3u);
  EXPECT_EQ(uses[0].name, "cublasDgemm");
  EXPECT_EQ(uses[0].line, 7u);
  EXPECT_EQ(uses[0].column, 3u);
  EXPECT_EQ(uses[1].name, "CUBLAS_OP_N");
}

// With the CUDA toolkit's nvcc present (CUDA 13 here), a translated HIP program compiles for sm_90.
TEST(HipOnCudaHeaderTest, NvccCompilesHipSourceAgainstTheGeneratedHeaders) {
  const fs::path nvcc = fs::exists("/usr/local/cuda/bin/nvcc") ? fs::path("/usr/local/cuda/bin/nvcc")
                                                               : FindProgram("nvcc");
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

}  // namespace
}  // namespace hipforge::validate
