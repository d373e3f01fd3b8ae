// common/source_files.h: the one file-kind classifier and CUDA detector (server, repository pass, analyzer).
#include "common/source_files.h"

#include <gtest/gtest.h>

#include <fstream>

namespace hipforge {
namespace {
namespace fs = std::filesystem;

TEST(FileKinds, OneClassifierForEveryConsumer) {
  EXPECT_EQ(FileKindOf("src/a.cu", ""), FileKind::kCudaSource);
  EXPECT_EQ(FileKindOf("src/a.cuh", ""), FileKind::kHeader);
  EXPECT_EQ(FileKindOf("src/a.h", "int f();"), FileKind::kHeader);
  EXPECT_EQ(FileKindOf("src/a.cpp", "int main() {}"), FileKind::kCppSource);
  EXPECT_EQ(FileKindOf("sub/CMakeLists.txt", ""), FileKind::kCMake);
  EXPECT_EQ(FileKindOf("cmake/FindX.cmake", ""), FileKind::kCMake);
  EXPECT_EQ(FileKindOf("GNUmakefile", ""), FileKind::kMakefile);
  EXPECT_EQ(FileKindOf("rules.mk", ""), FileKind::kMakefile);
  EXPECT_EQ(FileKindOf("make.inc", ""), FileKind::kMakefile);
  EXPECT_EQ(FileKindOf("Makefile.inc", ""), FileKind::kMakefile);
  EXPECT_EQ(FileKindOf("docker/Dockerfile.cuda", ""), FileKind::kDockerfile);
  EXPECT_EQ(FileKindOf(".github/workflows/ci.yml", ""), FileKind::kCiConfig);
  EXPECT_EQ(FileKindOf(".github/workflows/ci.yaml", ""), FileKind::kCiConfig);
  EXPECT_EQ(FileKindOf(".gitlab-ci.yml", ""), FileKind::kCiConfig);
  EXPECT_EQ(FileKindOf(".gitlab/ci/build.yml", ""), FileKind::kCiConfig);
  EXPECT_EQ(FileKindOf("setup.py", ""), FileKind::kPython);
  EXPECT_EQ(FileKindOf("jobs/train.sbatch", ""), FileKind::kShellScript);
  EXPECT_EQ(FileKindOf("run", "#!/bin/bash\necho"), FileKind::kShellScript);
  EXPECT_EQ(FileKindOf("tool", "#!/usr/bin/env python3\nprint()"), FileKind::kPython);
  EXPECT_EQ(FileKindOf("README", "# title\n"), FileKind::kOther);
  // Where the analyzer's and the repository pass's copies disagreed:
  EXPECT_EQ(FileKindOf("config.yml", ""), FileKind::kOther);  // analyzer: any .yml was CI
  EXPECT_EQ(FileKindOf("deploy/compose.yaml", ""), FileKind::kOther);
  EXPECT_EQ(FileKindOf("Jenkinsfile", ""), FileKind::kCiConfig);            // repository pass: other
  EXPECT_EQ(FileKindOf("src/kernels.inc", ""), FileKind::kHeader);          // repository pass: not a header
  EXPECT_EQ(FileKindOf("src/make.h", ""), FileKind::kHeader);               // repository pass: a Makefile (make.*)
  EXPECT_EQ(FileKindOf("run", "#!/usr/bin/env fish\n"), FileKind::kOther);  // analyzer: any "sh" in the line
  EXPECT_EQ(FileKindOf("run", "#!/bin/zsh\n"), FileKind::kShellScript);     // repository pass: four shebangs only
  EXPECT_STREQ(FileKindName(FileKind::kCiConfig), "ci");
  EXPECT_STREQ(FileKindName(FileKind::kShellScript), "shell");
}

TEST(CudaDetection, OneDefinitionForServerRepositoryPassAndAnalyzer) {
  EXPECT_TRUE(UsesCuda("cudaMalloc(&p, 4);"));
  EXPECT_TRUE(UsesCuda("#include <cuda_runtime.h>\n"));
  EXPECT_TRUE(UsesCuda("#  include \"cublas_v2.h\"\n"));
  EXPECT_TRUE(UsesCuda("#include <thrust/device_vector.h>\n"));
  EXPECT_TRUE(UsesCuda("#include <sm_61_intrinsics.h>\n"));
  EXPECT_TRUE(UsesCuda("auto s = CUDA_R_32F;"));
  EXPECT_TRUE(UsesCuda("cublasLtMatmul(h);"));
  EXPECT_TRUE(UsesCuda("x = __shfl_down_sync(m, x, 1);"));
  EXPECT_TRUE(UsesCuda("using namespace nvcuda::wmma;"));
  EXPECT_TRUE(UsesCuda("__nv_bfloat16 h;"));
  // Where the copies disagreed: the repository pass missed nvcc's macros (a header with only
  // `#ifdef __CUDACC__ ... __host__ __device__` was copied untranslated) and __syncwarp.
  EXPECT_TRUE(UsesCuda("#ifdef __CUDACC__\n#define HD __host__ __device__\n#endif\n"));
  EXPECT_TRUE(UsesCuda("__syncwarp();"));
  // Kernel code alone is HIP's too: the translator leaves it (the server took __global__ as CUDA; the analyzer
  // still parses it, HasGpuCode).
  EXPECT_FALSE(UsesCuda("#include <hip/hip_runtime.h>\n__global__ void k(float* p) { p[threadIdx.x] = 0; }"));
  EXPECT_TRUE(HasGpuCode("__global__ void k(float* p) { p[threadIdx.x] = 0; }"));
  EXPECT_TRUE(HasGpuCode("kernel<<<grid, block>>>(p);"));
  EXPECT_TRUE(HasGpuCode("cudaMalloc(&p, 4);"));
  EXPECT_FALSE(HasGpuCode("int main() { return 0; }"));
  EXPECT_FALSE(UsesCuda("int main() { return 0; }"));
  EXPECT_FALSE(UsesCuda("int mycudaMalloc(); int cudax; int CUDA;"));
  EXPECT_FALSE(UsesCuda("// runs on cuda or hip\nint f();"));
  EXPECT_FALSE(UsesCuda("#include <vector>\n#include \"my_cuda.h\"\n"));
  EXPECT_FALSE(HasGpuCode("// runs on cuda or hip\nint f();"));
  EXPECT_FALSE(UsesCuda("hipMalloc(&p, 4); __shared__ float tile[64];"));
}

TEST(CudaDetection, TreeUsesCudaLooksAtCudaFilesAndCxxContent) {
  const fs::path root = fs::path(::testing::TempDir()) / "source_files_tree";
  fs::remove_all(root);
  fs::create_directories(root / "src");
  std::ofstream(root / "src" / "main.cpp") << "int main() { return 0; }\n";
  std::ofstream(root / "notes.txt") << "cudaMalloc in a text file is not code\n";
  EXPECT_FALSE(TreeUsesCuda(root));
  std::ofstream(root / "src" / "gpu.h") << "#include <cuda_runtime.h>\n";
  EXPECT_TRUE(TreeUsesCuda(root));
  fs::remove(root / "src" / "gpu.h");
  std::ofstream(root / "src" / "empty.cu") << "";
  EXPECT_TRUE(TreeUsesCuda(root));
  fs::remove_all(root);
}

}  // namespace
}  // namespace hipforge
