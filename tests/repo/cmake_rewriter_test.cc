#include "worker/translate/repo/cmake_rewriter.h"

#include <gtest/gtest.h>

namespace hipforge::translate {
namespace {

TEST(CMakeRewriterTest, Smoke) {
  MigrationOptions options;
  RewriteContext context;
  context.options = &options;
  context.has_cuda_sources = true;
  CMakeRewriter rewriter;
  auto result = rewriter.Rewrite("CMakeLists.txt", "project(x LANGUAGES CXX CUDA)\nadd_executable(a a.cu)\n", context);
  EXPECT_NE(result.output.find("HIP_SOURCE_LANGUAGE"), std::string::npos) << result.output;
}

}  // namespace
}  // namespace hipforge::translate
