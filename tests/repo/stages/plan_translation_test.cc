#include "worker/translate/repo/stages/plan_translation.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {
namespace fs = std::filesystem;

class PlanTranslationTest : public StageTest {};

TEST_F(PlanTranslationTest, TranslatesWhatUsesCudaAndKeepsExtensionSourcesAndHipFiles) {
  Add("src/kernel.cu", RepoFileKind::kCudaSource, "__global__ void k() { cudaDeviceSynchronize(); }\n");
  Add("src/plain.cu", RepoFileKind::kCudaSource, "__global__ void k() {}\n");
  Add("src/done.cu", RepoFileKind::kCudaSource, "#include <hip/hip_runtime.h>\n__global__ void k() {}\n");
  Add("src/host.cpp", RepoFileKind::kCppSource, "int main() { return 0; }\n");
  Add("src/uses.h", RepoFileKind::kHeader, "#include <cuda_runtime.h>\n");
  Add("setup.py", RepoFileKind::kPython,
      "from torch.utils.cpp_extension import CUDAExtension\nCUDAExtension(sources=['ext/op.cu'])\n");
  Add("ext/op.cu", RepoFileKind::kCudaSource, "#include <cuda_runtime.h>\n");
  ASSERT_TRUE(PlanTranslation(state_, Tools()).ok());

  EXPECT_EQ(state_.plan->extension_sources, std::set<std::string>{"ext/op.cu"});
  std::vector<std::string> planned;
  for (const fs::path& path : state_.plan->to_translate) planned.push_back(path.generic_string());
  // A CUDA source without CUDA API calls is still translated unless it already includes the HIP runtime;
  // a C++ file without CUDA is not.
  EXPECT_EQ(planned, (std::vector<std::string>{"src/kernel.cu", "src/plain.cu", "src/uses.h"}));
  EXPECT_EQ(state_.plan->needs_translator, (std::vector<std::string>{"src/kernel.cu", "src/uses.h"}));
  EXPECT_TRUE(state_.plan->context.has_cuda_sources);
  EXPECT_EQ(state_.plan->context.options, &options_);
  EXPECT_TRUE(state_.plan->context.renamed.empty()) << "rename_to_hip is off";
  EXPECT_FALSE(state_.plan->context.relocatable_device_code_needed);
}

// nvcc compiled a C++ source that includes a header with kernel code with cuda_runtime.h before its first line
// (HeCBench pad: host_task.cpp, support/partitioner.h): it is translated as a unit so that it gets the runtime
// before its own macros. One that includes only plain headers stays as it is.
TEST_F(PlanTranslationTest, TranslatesCppSourcesThatIncludeKernelHeaders) {
  Add("support/partitioner.h", RepoFileKind::kHeader, "__device__ inline int first(int* p) { return *p; }\n");
  Add("support/plain.h", RepoFileKind::kHeader, "inline int plain() { return 0; }\n");
  Add("host_task.cpp", RepoFileKind::kOther, "#define T double\n#include \"support/partitioner.h\"\n");
  Add("other.cpp", RepoFileKind::kOther, "#include \"support/plain.h\"\n");
  ASSERT_TRUE(PlanTranslation(state_, Tools()).ok());
  std::vector<std::string> planned;
  for (const fs::path& path : state_.plan->to_translate) planned.push_back(path.generic_string());
  EXPECT_EQ(planned, (std::vector<std::string>{"host_task.cpp"}));
  EXPECT_EQ(state_.files->kinds["host_task.cpp"], RepoFileKind::kCppSource);
  EXPECT_EQ(state_.files->kinds["other.cpp"], RepoFileKind::kOther);
}

// ggml: every C and C++ file includes ggml.h, which keeps a __host__ __device__ helper under #ifdef __CUDACC__
// for both compilers. Including it makes no host source CUDA; a C file never is (nvcc gives .c to the C compiler),
// and <hip/hip_runtime.h> in ggml.c stopped the whole build.
TEST_F(PlanTranslationTest, LeavesCSourcesAndIncludersOfHeadersWrittenForBothCompilers) {
  Add("include/ggml.h", RepoFileKind::kHeader,
      "#ifdef __CUDACC__\ntemplate <typename... Args>\n__host__ __device__ constexpr inline void unused(Args&&...) {}\n"
      "#endif\n");
  Add("support/kernels.h", RepoFileKind::kHeader, "__device__ inline int first(int* p) { return *p; }\n");
  Add("src/ggml.c", RepoFileKind::kOther, "#include \"../include/ggml.h\"\n");
  Add("src/sycl.cpp", RepoFileKind::kOther, "#include \"../include/ggml.h\"\n");
  Add("src/c_with_kernels.c", RepoFileKind::kOther, "#include \"../support/kernels.h\"\n");
  ASSERT_TRUE(PlanTranslation(state_, Tools()).ok());
  std::vector<std::string> planned;
  for (const fs::path& path : state_.plan->to_translate) planned.push_back(path.generic_string());
  EXPECT_EQ(planned, (std::vector<std::string>{"include/ggml.h"}));  // kernels.h: HIP spells it the same
  EXPECT_EQ(state_.files->kinds["src/ggml.c"], RepoFileKind::kOther);
  EXPECT_EQ(state_.files->kinds["src/sycl.cpp"], RepoFileKind::kOther);
  EXPECT_EQ(state_.files->kinds["src/c_with_kernels.c"], RepoFileKind::kOther);
}

TEST_F(PlanTranslationTest, RenamesCudaSourcesOnlyWhenAsked) {
  options_.rename_to_hip = true;
  Add("a.cu", RepoFileKind::kCudaSource, "__global__ void k() {}\n");
  Add("b.cuh", RepoFileKind::kHeader, "__device__ int f();\n");
  ASSERT_TRUE(PlanTranslation(state_, Tools()).ok());
  EXPECT_EQ(state_.plan->context.renamed, (std::map<std::string, std::string>{{"a.cu", "a.hip"}}));
  EXPECT_TRUE(state_.plan->context.relocatable_device_code_needed)
      << "b.cuh declares a device function defined elsewhere";
}

TEST_F(PlanTranslationTest, CollectsCudaLibrariesOfEveryCMakeFile) {
  Add("CMakeLists.txt", RepoFileKind::kCMake, "add_subdirectory(lib)\n");
  Add("lib/CMakeLists.txt", RepoFileKind::kCMake, "target_link_libraries(l CUDA::cublas CUDA::curand)\n");
  ASSERT_TRUE(PlanTranslation(state_, Tools()).ok());
  EXPECT_EQ(state_.plan->context.cmake_cuda_libraries.count("cublas"), 1u);
  EXPECT_EQ(state_.plan->context.cmake_cuda_libraries.count("curand"), 1u);
  EXPECT_FALSE(state_.plan->context.has_cuda_sources);
  EXPECT_TRUE(state_.plan->to_translate.empty());
}

}  // namespace
}  // namespace hipforge::translate::testing
