// The AST pass parses library code lightly (bodies outside the project skipped, library template
// instantiations dropped) and must still find everything it needs in the project's own code.
#include "worker/translate/core/ast_pass.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "worker/translate/core/prelude_pch.h"
#include "worker/translate/core/source_translator.h"
#include "worker/translate/frontend/cuda_frontend.h"
#include "worker/translate/tables/mapping_index.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

class AstPassTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_ = fs::temp_directory_path() / ("hipforge-ast-pass-test-" + std::to_string(std::random_device{}()));
    fs::create_directories(scratch_ / "project");
    fs::create_directories(scratch_ / "library");
  }
  void TearDown() override { fs::remove_all(scratch_); }

  void Write(const std::string& relative, const std::string& text) { std::ofstream(scratch_ / relative) << text; }

  // Clang arguments with library/ on the include path. No toolkit: the minimal CUDA declarations keep the
  // test fast and independent of the machine.
  std::vector<std::string> Args() {
    CudaFrontendOptions frontend_options;
    frontend_options.cuda_path = scratch_ / "no-toolkit";
    frontend_options.shim_directory = scratch_ / "shims";
    frontend_options.include_dirs = {scratch_ / "library"};
    auto frontend = CudaFrontend::Create(frontend_options);
    EXPECT_TRUE(frontend.ok()) << frontend.status();
    return frontend.ok() ? frontend->ClangArgs() : std::vector<std::string>{};
  }

  UnitFacts Parse(const std::string& file, std::vector<std::string> args = {}) {
    TranslateOptions options;
    NameResolver resolver(index_, options);
    if (args.empty()) args = Args();
    return RunAstPass({scratch_ / "project", scratch_ / "project" / file, std::move(args)}, resolver);
  }

  MappingIndex index_;
  fs::path scratch_;
};

// Bodies that would not compile: parsing the function or instantiating the templates is an error.
constexpr const char* kLibraryHeader = R"(#pragma once
inline int library_function(int x) { return undeclared_in_library(x); }
template <typename T> T library_template(T x) { static_assert(sizeof(T) == 0, "instantiated"); return x; }
)";
// Parsed in full into a PCH (as the CUDA prelude is), so only dropping the instantiations keeps them quiet;
// the lambda one would also be "used but not defined" if the drop were not reported to Sema.
constexpr const char* kPrecompiledHeader = R"(#pragma once
template <typename T> T precompiled_template(T x) { static_assert(sizeof(T) == 0, "instantiated"); return x; }
template <typename F> int precompiled_apply(F f) { static_assert(sizeof(F) == 0, "instantiated"); return f(1); }
)";

TEST_F(AstPassTest, LibraryBodiesAreNeitherParsedNorInstantiated) {
  Write("library/lib.h", kLibraryHeader);
  Write("library/precompiled.h", kPrecompiledHeader);
  Write("project/main.cu", R"(#include "lib.h"
#include "precompiled.h"
__global__ void kernel(int* out) { out[0] = 1; }
template <typename T> __global__ void typed_kernel(T* out) { out[0] = T(); }
template <typename T> void launch_typed(T* data) { typed_kernel<T><<<1, 1>>>(data); }
int main() {
  int* data = nullptr;
  kernel<<<2, 32>>>(data);
  launch_typed(data);
  int local = 3;
  return library_function(1) + library_template(2) + precompiled_template(3) +
         precompiled_apply([local](int v) { return v + local; });
}
)");
  std::vector<std::string> pch_args = Args();
  pch_args.insert(pch_args.end(), {"-include", (scratch_ / "library" / "precompiled.h").string()});
  const auto pch = EnsurePreludePch(pch_args, CacheLocations{scratch_ / "pch", {}});
  ASSERT_TRUE(pch.has_value());
  pch_args.insert(pch_args.end(), {"-include-pch", pch->string()});
  const UnitFacts facts = Parse("main.cu", pch_args);
  EXPECT_TRUE(facts.parsed) << facts.fallback_reason;
  ASSERT_TRUE(facts.files.count("main.cu"));
  EXPECT_EQ(facts.files.at("main.cu").launches.size(), 2u);
  EXPECT_FALSE(facts.files.count("../library/lib.h"));
}

TEST_F(AstPassTest, ProjectBodiesAreStillParsed) {
  Write("project/main.cu", R"(__global__ void kernel(int* out) { out[0] = undeclared_in_project; }
int main() { kernel<<<1, 1>>>(nullptr); }
)");
  const UnitFacts facts = Parse("main.cu");
  EXPECT_FALSE(facts.parsed);
  EXPECT_NE(facts.fallback_reason.find("undeclared_in_project"), std::string::npos) << facts.fallback_reason;
}

TEST_F(AstPassTest, ProjectHeadersKeepTheirBodiesAndTemplateInstantiations) {
  Write("project/kernels.cuh", R"(#pragma once
template <int N> struct Checked { static_assert(N > 0, "project template instantiated with N <= 0"); };
template <int N> void launch_block(float* data);
template <int N> __global__ void block_kernel(float* data) { data[N] = 0.f; }
template <int N> void launch_block(float* data) { Checked<N> check; (void)check; block_kernel<N><<<1, N>>>(data); }
)");
  Write("project/main.cu", R"(#include "kernels.cuh"
int main() { launch_block<0>(nullptr); }
)");
  // The project's template is instantiated at the end of the unit, so its static_assert fires.
  const UnitFacts facts = Parse("main.cu");
  EXPECT_FALSE(facts.parsed);
  EXPECT_NE(facts.fallback_reason.find("N <= 0"), std::string::npos) << facts.fallback_reason;

  Write("project/main.cu", R"(#include "kernels.cuh"
int main() { launch_block<32>(nullptr); }
)");
  const UnitFacts good = Parse("main.cu");
  EXPECT_TRUE(good.parsed) << good.fallback_reason;
  ASSERT_TRUE(good.files.count("kernels.cuh"));
  EXPECT_EQ(good.files.at("kernels.cuh").launches.size(), 1u);
}

}  // namespace
}  // namespace hipforge::translate
