// BuildLogExcerpt: what a failed build's report entry says when the compiler errors could not be
// parsed into path:line (the demo's `clang: error: unsupported option`), without the resource remarks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "worker/validate/tree_builder.h"

namespace hipforge::validate {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(BuildLogExcerptTest, KeepsErrorLinesAndDropsResourceRemarks) {
  const std::string log =
      "[1/4] Building CXX object CMakeFiles/vector_stats.dir/src/main.cu.o\n"
      "/tmp/src/elementwise.cu:10:1: remark: Function Name: _Z5scalePfi [-Rpass-analysis=kernel-resource-usage]\n"
      "__global__ void scale(float* x, int n) {\n"
      "^\n"
      "FAILED: CMakeFiles/vector_stats.dir/src/main.cu.o\n"
      "/usr/bin/hipcc -O3 --use_fast_math -c /tmp/src/main.cu\n"
      "clang: error: unsupported option '--use_fast_math'\n"
      "clang: warning: -lineinfo: 'linker' input unused\n"
      "ninja: build stopped: cannot make progress due to previous errors.\n";
  const std::string excerpt = BuildLogExcerpt(log);
  EXPECT_THAT(excerpt, HasSubstr("FAILED: CMakeFiles/vector_stats.dir/src/main.cu.o"));
  EXPECT_THAT(excerpt, HasSubstr("clang: error: unsupported option '--use_fast_math'"));
  EXPECT_THAT(excerpt, Not(HasSubstr("remark")));
  EXPECT_THAT(excerpt, Not(HasSubstr("__global__ void scale")));
}

// ggml through the HIP-on-NVIDIA layer (2026-12-07): the excerpt was 4 KiB of CUDA headers' warnings, kept because
// their quoted source says `cudaError_t error`; the failing unit's error was not in it.
TEST(BuildLogExcerptTest, WarningsQuotingTheWordErrorAreNotErrorLines) {
  std::string log;
  for (int i = 0; i < 60; ++i) {
    log +=
        "/usr/local/cuda/include/cuda_device_runtime_api.h:251:3: warning: style of line directive is a GCC extension\n"
        "  250 | extern __device__ __cudart_builtin__ const char* CUDARTAPI __cudaCDP2GetErrorString(cudaError_t "
        "error);\n"
        "      |   ^~~\n";
  }
  for (int i = 0; i < 30; ++i) {
    log +=
        "src/ggml-cuda/common.cuh(434): warning #1305-D: function declared with \"noreturn\" does return\n"
        "  }\n"
        "  ^\n"
        "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n";
  }
  log +=
      "/src/ggml-cuda/fattn.cu:12:5: error: use of undeclared identifier 'hipFuncSetAttribute'\n"
      "   12 |     hipFuncSetAttribute(kernel, attr, value);\n"
      "      |     ^\n"
      "gmake[2]: *** [src/ggml-cuda/CMakeFiles/ggml-cuda.dir/build.make:79: fattn.cu.o] Error 1\n";
  const std::string excerpt = BuildLogExcerpt(log);
  EXPECT_THAT(excerpt, HasSubstr("fattn.cu:12:5: error: use of undeclared identifier"));
  EXPECT_THAT(excerpt, HasSubstr("gmake[2]: *** ["));
  EXPECT_THAT(excerpt, Not(HasSubstr("GCC extension")));
  EXPECT_THAT(excerpt, Not(HasSubstr("cudaError_t error")));
  EXPECT_THAT(excerpt, Not(HasSubstr("noreturn")));
}

TEST(BuildLogExcerptTest, WithoutErrorLinesKeepsTheTailWithinTheLimit) {
  std::string log;
  for (int i = 0; i < 500; ++i) log += "step " + std::to_string(i) + " done\n";
  const std::string excerpt = BuildLogExcerpt(log, 200);
  EXPECT_LE(excerpt.size(), 200u);
  EXPECT_THAT(excerpt, HasSubstr("step 499 done"));
  EXPECT_THAT(excerpt, Not(HasSubstr("step 1 done")));
}

TEST(BuildLogExcerptTest, ManyErrorsAreCappedAndMarked) {
  std::string log;
  for (int i = 0; i < 400; ++i) log += "/src/a.hip:" + std::to_string(i) + ":1: error: use of undeclared identifier\n";
  const std::string excerpt = BuildLogExcerpt(log, 1024);
  EXPECT_LE(excerpt.size(), 1024u + 4);
  EXPECT_THAT(excerpt, HasSubstr("/src/a.hip:0:1: error"));
  EXPECT_THAT(excerpt, HasSubstr("...\n"));
}

// Issue 29: build log excerpts showed the server's scratch paths (/tmp/hipforge-worker/<task>/work/...).
TEST(BuildLogExcerptTest, ScratchPathsBecomeRepositoryRelative) {
  const std::string work = "/tmp/hipforge-worker/3e0df1ed-7b80/work/validate";
  const std::string log = work +
                          "/gfx942/src/kernels/main.cu:33:10: fatal error: 'mma.h' file not found\n"
                          "make: *** [Makefile:50: main.o] Error 1 (in " +
                          work +
                          "/gfx942/src)\n"
                          ">>> referenced by " +
                          work +
                          "/tmp/main-gfx942-593839.o:(kernel)\n"
                          "-- Build files have been written to: " +
                          work + "/gfx942/build\n";
  const std::string cleaned = WithoutScratchPaths(log, work + "/gfx942/src", work + "/gfx942/build", work + "/tmp");
  EXPECT_THAT(cleaned, Not(HasSubstr("hipforge-worker")));
  EXPECT_EQ(cleaned.rfind("kernels/main.cu:33:10: fatal error", 0), 0u) << cleaned;
  EXPECT_THAT(cleaned, HasSubstr("(in .)"));
  EXPECT_THAT(cleaned, HasSubstr(">>> referenced by $TMPDIR/main-gfx942-593839.o"));
  EXPECT_THAT(cleaned, HasSubstr("written to: <build>\n"));
}

}  // namespace
}  // namespace hipforge::validate
