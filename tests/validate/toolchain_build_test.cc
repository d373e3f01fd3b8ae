// The toolchain path end to end, no GPU: a CUDA repository using cuBLAS and Thrust is migrated for the
// newest toolchain's HIP release, and the validator builds it for gfx942 and gfx90a inside that ROCm
// toolchain (bubblewrap over its rootfs), linking hipBLAS and compiling against rocThrust; rocm-6.4 links the
// libraries it takes from sid. A program that needs hipTensor (no toolchain has it) gets a report entry naming
// the library and every toolchain tried.
#include <cstdlib>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/validate/test_support.h"
#include "worker/translate/repo/repository_migration.h"
#include "worker/translate/tables/library_tables.h"
#include "worker/translate/tables/mapping_index.h"
#include "worker/validate/gpu_inventory.h"
#include "worker/validate/gpu_lease.h"
#include "worker/validate/toolchain.h"
#include "worker/validate/validator.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::ScratchDir;
using testing::TestData;

fs::path ToolchainDir() {
  const char* dir = std::getenv("HIPFORGE_TOOLCHAIN_DIR");
  return dir != nullptr && *dir ? fs::path(dir) : fs::path("/var/cache/hipforge/toolchains");
}

class ToolchainBuildTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<std::string> problems;
    LocalToolchainSource source(launcher_, {.cache_dir = ToolchainDir(), .host_hipcc = "hipcc"});
    toolchains_ = source.Discover(problems);
    for (const std::string& problem : problems) std::cerr << "toolchain problem: " << problem << "\n";
    if (toolchains_.empty() || toolchains_.front().rootfs.empty()) {
      const char* required = std::getenv("HIPFORGE_REQUIRE_TOOLCHAINS");  // names; set by scripts/test.sh
      if (required != nullptr && *required) FAIL() << "no ROCm toolchain under " << ToolchainDir();
      GTEST_SKIP() << "no ROCm toolchain under " << ToolchainDir() << " (scripts/make-toolchain.sh rocm-6.4)";
    }
  }

  absl::StatusOr<ValidationReport> Validate(const fs::path& tree, const fs::path& work,
                                            std::vector<std::string> archs = {"gfx942", "gfx90a"}) {
    HipRocmSmiInventory inventory(launcher_, "hipcc");
    FileLockLeaseManager leases({}, work / "locks");
    ValidatorOptions options;
    options.toolchains = toolchains_;
    Validator validator(launcher_, inventory, leases, options);
    return validator.Validate({.job_id = "job-toolchain",
                               .translated_tree = tree,
                               .requested_archs = std::move(archs),
                               .work_dir = work / "job"},
                              nullptr);
  }

  BoostProcessLauncher launcher_;
  std::vector<Toolchain> toolchains_;
};

TEST_F(ToolchainBuildTest, CublasThrustRepositoryMigratesAndLinksHipblasAndRocthrustForGfx942) {
  ScratchDir work("toolchain-build");
  const Toolchain& newest = toolchains_.front();
  translate::MigrationOptions migration;
  const std::string release = newest.HipRelease();
  migration.translate.target_hip_version = {static_cast<uint8_t>(std::stoi(release)),
                                            static_cast<uint8_t>(std::stoi(release.substr(release.find('.') + 1)))};
  const fs::path hip_tree = work.path() / "hip";
  auto migrated = translate::MigrateRepository(TestData("cublas_thrust_cuda"), hip_tree, migration, nullptr);
  ASSERT_TRUE(migrated.ok()) << migrated.status();
  const std::string source = testing::ReadFile(hip_tree / "main.cu");
  EXPECT_THAT(source, HasSubstr("hipblas/hipblas.h"));
  EXPECT_THAT(source, HasSubstr("hipblasSaxpy"));

  // gfx942 only: each arch is a full rocThrust compile (~1.5 min on 2 busy cores); the demo builds both.
  auto report = Validate(hip_tree, work.path(), {"gfx942"});
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->builds.size(), 1u);
  for (const BuildResult& build : report->builds) {
    EXPECT_TRUE(build.ok) << build.requested_arch << ": " << build.log_excerpt
                          << (build.errors.empty() ? "" : build.errors[0].message);
    EXPECT_EQ(build.arch, build.requested_arch) << build.note;  // gfx942 built as gfx942, no stand-in
    EXPECT_EQ(build.toolchain, newest.Describe());
    EXPECT_FALSE(build.kernels.empty()) << build.requested_arch;
  }
  // The executable was linked inside the toolchain against its hipBLAS.
  const fs::path binary = work.path() / "job" / (newest.name + "-gfx942") / "build" / "blas_thrust";
  ASSERT_TRUE(fs::exists(binary)) << binary;
  ProcessSpec readelf{.argv = {"readelf", "-d", binary.string()}};
  auto dynamic = launcher_.Run(readelf);
  ASSERT_TRUE(dynamic.ok()) << dynamic.status();
  EXPECT_THAT(dynamic->standard_output, HasSubstr("libhipblas.so"));
  EXPECT_THAT(dynamic->standard_output, HasSubstr("libamdhip64.so"));
  // No GPU here: nothing says passed.
  EXPECT_FALSE(report->gpu.ran_on_gpu);
  EXPECT_THAT(ToJson(*report).dump(), ::testing::Not(HasSubstr("\"passed\"")));
}

// The libraries rocm-6.4 takes from Debian sid (deploy/toolchains/rocm-6.4.packages): a CMake program finds,
// compiles against and links each of them for gfx942 inside the toolchain.
TEST_F(ToolchainBuildTest, Rocm64FindsAndLinksHipsparseHipsolverHiprandHipfftHipblasltForGfx942) {
  const Toolchain* rocm64 = nullptr;
  for (const Toolchain& toolchain : toolchains_) {
    if (toolchain.name == "rocm-6.4") rocm64 = &toolchain;
  }
  if (rocm64 == nullptr) GTEST_SKIP() << "no rocm-6.4 toolchain under " << ToolchainDir();
  ScratchDir work("toolchain-libraries");
  auto report = Validate(TestData("rocm64_libraries_hip"), work.path(), {"gfx942"});
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->builds.size(), 1u);
  const BuildResult& build = report->builds[0];
  ASSERT_TRUE(build.ok) << build.log_excerpt << (build.errors.empty() ? "" : build.errors[0].message);
  EXPECT_EQ(build.toolchain, rocm64->Describe());
  const fs::path binary = work.path() / "job" / (rocm64->name + "-gfx942") / "build" / "libs";
  ASSERT_TRUE(fs::exists(binary)) << binary;
  auto dynamic = launcher_.Run(ProcessSpec{.argv = {"readelf", "-d", binary.string()}});
  ASSERT_TRUE(dynamic.ok()) << dynamic.status();
  for (const char* library :
       {"libhipsparse.so", "libhipsolver.so", "libhiprand.so", "libhipfft.so", "libhipblaslt.so"}) {
    EXPECT_THAT(dynamic->standard_output, HasSubstr(library));
  }
}

// ggml's failure through the service (2026-12-07): hipcc is the C++ compiler, so the project gave its C sources
// clang's warning flags, and `cc` (gcc in the toolchain) refused them. C sources now build with hipcc's clang.
TEST_F(ToolchainBuildTest, CFlagsChosenByTheCxxCompilersIdBuildBecauseCIsHipccsClang) {
  ScratchDir work("toolchain-c-and-hip");
  auto report = Validate(TestData("c_and_hip_cmake"), work.path(), {"gfx942"});
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->builds.size(), 1u);
  const BuildResult& build = report->builds[0];
  EXPECT_TRUE(build.ok) << build.log_excerpt << (build.errors.empty() ? "" : build.errors[0].message);
  EXPECT_THAT(build.log_excerpt, ::testing::Not(HasSubstr("unrecognized command-line option")));
}

TEST_F(ToolchainBuildTest, HiptensorIsNamedWithTheToolchainsTried) {
  ScratchDir work("toolchain-hiptensor");
  auto report = Validate(TestData("hiptensor_hip"), work.path());
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->builds.size(), 2u);
  for (const BuildResult& build : report->builds) {
    EXPECT_FALSE(build.ok);
    ASSERT_FALSE(build.errors.empty());
    EXPECT_THAT(build.errors[0].message, HasSubstr("needs hipTensor"));
    // The first use in path order: the build file's find_package (main.cpp:2 includes it too).
    EXPECT_THAT(build.errors[0].message, HasSubstr("CMakeLists.txt:5: find_package(hiptensor REQUIRED)"));
    for (const Toolchain& toolchain : toolchains_) {
      EXPECT_THAT(build.errors[0].message, HasSubstr(toolchain.Describe()));
    }
  }
}

// The header table, as the repository pass spells it for each toolchain's HIP release (installed header
// layout: hipblas/hipblas.h from hip_installed_since on), against the headers that toolchain really installs:
// every HIP runtime header, and every library header of a library the toolchain has.
TEST_F(ToolchainBuildTest, HeaderTableNamesTheHeadersEachToolchainInstalls) {
  for (const Toolchain& toolchain : toolchains_) {
    const std::string release = toolchain.HipRelease();
    const translate::ApiVersion version{static_cast<uint8_t>(std::stoi(release)),
                                        static_cast<uint8_t>(std::stoi(release.substr(release.find('.') + 1)))};
    const fs::path include = (toolchain.rootfs.empty() ? fs::path("/") : toolchain.rootfs) / "usr/include";
    int checked = 0;
    for (const translate::ApiMapping& mapping : translate::HeadersTable()) {
      if (mapping.hip_name.empty() || !translate::AvailableInHip(mapping, version)) continue;
      const bool installed = !mapping.hip_installed_name.empty() && !(version < mapping.hip_installed_since);
      const std::string name(installed ? mapping.hip_installed_name : translate::HipNameFor(mapping, version));
      const size_t slash = name.find('/');
      const std::string library = slash != std::string::npos ? name.substr(0, slash) : name.substr(0, name.find('.'));
      if (library != "hip" && !toolchain.HasLibrary(library)) continue;
      ++checked;
      EXPECT_TRUE(fs::exists(include / name))
          << toolchain.Describe() << ": " << mapping.cuda_name << " -> <" << name << "> is not installed";
    }
    EXPECT_GT(checked, 10) << toolchain.Describe();
  }
}

}  // namespace
}  // namespace hipforge::validate
