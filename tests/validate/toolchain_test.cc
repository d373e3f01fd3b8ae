// Toolchain choice over fake toolchains (values, no processes), the library scan over small trees, and the
// probe of the real toolchains made by scripts/make-toolchain.sh when they exist here.
#include "worker/validate/toolchain.h"

#include <cstdlib>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/validate/test_support.h"
#include "worker/validate/toolchain_choice.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::ScratchDir;
using testing::WriteFile;

Toolchain Fake(const std::string& name, const std::string& hip, std::vector<std::string> archs,
               std::vector<std::string> libraries = {}) {
  return {.name = name,
          .rootfs = "/nonexistent/" + name,
          .probe = {.hip_version = hip,
                    .clang_version = "17.0.6",
                    .offload_archs = std::move(archs),
                    .libraries = std::move(libraries)}};
}

std::vector<Toolchain> ThreeToolchains() {
  std::vector<Toolchain> toolchains = {
      Fake("host", "5.2.3", {"gfx90a", "gfx940"}),
      Fake("rocm-5.7", "5.7.1", {"gfx90a", "gfx940", "gfx942"}, {"hipblas", "rocthrust", "hipfft"}),
      Fake("rocm-6.4", "6.4.3", {"gfx90a", "gfx942", "gfx950"}, {"hipblas", "rocthrust"})};
  SortNewestFirst(toolchains);
  return toolchains;
}

TEST(ToolchainTest, DescribesItselfByNameHipAndClang) {
  const Toolchain toolchain = Fake("rocm-6.4", "6.4.3", {"gfx942"});
  EXPECT_EQ(toolchain.Describe(), "rocm-6.4: HIP 6.4.3, clang 17.0.6");
  EXPECT_EQ(toolchain.HipRelease(), "6.4");
  EXPECT_TRUE(toolchain.HasArch("gfx942:sramecc+:xnack-"));
  EXPECT_FALSE(toolchain.HasArch("gfx940"));
}

TEST(ToolchainTest, VersionsCompareNumerically) {
  EXPECT_LT(CompareVersions("6.4.3", "6.10.0"), 0);
  EXPECT_GT(CompareVersions("5.7.1", "5.7"), 0);
  EXPECT_EQ(CompareVersions("6.4", "6.4.0"), 0);
  std::vector<Toolchain> toolchains = ThreeToolchains();
  EXPECT_EQ(toolchains[0].name, "rocm-6.4");
  EXPECT_EQ(toolchains[2].name, "host");
}

TEST(ToolchainChoiceTest, Gfx942GoesToTheNewestToolchainThatHasIt) {
  const std::vector<Toolchain> toolchains = ThreeToolchains();
  const ToolchainChoice choice = ChooseToolchain("gfx942", "", {}, toolchains);
  ASSERT_NE(choice.toolchain, nullptr);
  EXPECT_EQ(choice.toolchain->name, "rocm-6.4");
  EXPECT_EQ(choice.arch.arch, "gfx942");
  EXPECT_TRUE(choice.arch.note.empty());
  EXPECT_TRUE(choice.note.empty());
}

TEST(ToolchainChoiceTest, TheRequestedHipReleaseWins) {
  const std::vector<Toolchain> toolchains = ThreeToolchains();
  EXPECT_EQ(ChooseToolchain("gfx942", "5.7", {}, toolchains).toolchain->name, "rocm-5.7");
  // No toolchain of that release: the best one, with a note saying so.
  const ToolchainChoice missing = ChooseToolchain("gfx90a", "7.0", {}, toolchains);
  EXPECT_EQ(missing.toolchain->name, "rocm-6.4");
  EXPECT_THAT(missing.note, HasSubstr("HIP 7.0 was requested"));
}

TEST(ToolchainChoiceTest, NeededLibrariesPickTheToolchainThatHasThem) {
  const std::vector<Toolchain> toolchains = ThreeToolchains();
  const std::vector<LibraryUse> fft = {{.library = "hipfft", .file = "fft.hip", .line = 2}};
  const ToolchainChoice choice = ChooseToolchain("gfx942", "", fft, toolchains);
  EXPECT_EQ(choice.toolchain->name, "rocm-5.7");
  EXPECT_TRUE(choice.missing.empty());
}

TEST(ToolchainChoiceTest, Gfx940StandInOnlyWhenNoToolchainHasGfx942) {
  const std::vector<Toolchain> only_host = {Fake("host", "5.2.3", {"gfx90a", "gfx940"})};
  const ToolchainChoice choice = ChooseToolchain("gfx942", "", {}, only_host);
  EXPECT_EQ(choice.arch.arch, "gfx940");
  EXPECT_THAT(choice.arch.note, HasSubstr("do not load on gfx942"));
}

TEST(ToolchainChoiceTest, ALibraryNoToolchainHasIsNamedWithEveryToolchainTried) {
  const std::vector<Toolchain> toolchains = ThreeToolchains();
  const LibraryUse lt{
      .library = "hipblaslt", .file = "src/gemm.hip", .line = 3, .text = "#include <hipblaslt/hipblaslt.h>"};
  const ToolchainChoice choice = ChooseToolchain("gfx942", "", {lt}, toolchains);
  ASSERT_EQ(choice.missing.size(), 1u);
  const std::string message = MissingLibraryMessage(choice.missing[0], toolchains);
  EXPECT_THAT(message, HasSubstr("needs hipBLASLt (src/gemm.hip:3: #include <hipblaslt/hipblaslt.h>)"));
  EXPECT_THAT(message, HasSubstr("rocm-6.4: HIP 6.4.3"));
  EXPECT_THAT(message, HasSubstr("rocm-5.7: HIP 5.7.1"));
  EXPECT_THAT(message, HasSubstr("host: HIP 5.2.3"));
}

TEST(LibraryUsesTest, IncludesLinkFlagsAndFindPackageNameLibraries) {
  ScratchDir tree("library-uses");
  WriteFile(tree.path() / "src/a.hip", "#include <hip/hip_runtime.h>\n#include <hipblas/hipblas.h>\n");
  WriteFile(tree.path() / "src/b.hip", "#include <thrust/sort.h>\n  #  include \"hipcub/hipcub.hpp\"\n");
  WriteFile(tree.path() / "CMakeLists.txt", "find_package(hipfft REQUIRED)\n");
  WriteFile(tree.path() / "Makefile", "LDLIBS = -lroctx64 -lrocrand\n");
  WriteFile(tree.path() / "README.md", "#include <hipblaslt/hipblaslt.h>\n");  // not a source file
  std::vector<std::string> names;
  for (const LibraryUse& use : FindLibraryUses(tree.path())) names.push_back(use.library);
  EXPECT_THAT(names,
              ::testing::UnorderedElementsAre("hipblas", "rocthrust", "hipcub", "hipfft", "roctracer", "rocrand"));
  const std::vector<LibraryUse> uses = FindLibraryUses(tree.path());
  for (const LibraryUse& use : uses) {
    if (use.library == "hipcub") {
      EXPECT_EQ(use.file, fs::path("src/b.hip"));
      EXPECT_EQ(use.line, 2);
    }
  }
}

// --- the real toolchains (scripts/make-toolchain.sh) -------------------------------------------------

fs::path ToolchainDir() {
  const char* dir = std::getenv("HIPFORGE_TOOLCHAIN_DIR");
  return dir != nullptr && *dir ? fs::path(dir) : fs::path("/var/cache/hipforge/toolchains");
}

// scripts/test.sh makes the toolchains first and names them in HIPFORGE_REQUIRE_TOOLCHAINS ("rocm-6.4
// rocm-5.7"): a named one that is missing fails instead of skipping.
bool ToolchainRequired(const std::string& name) {
  const char* required = std::getenv("HIPFORGE_REQUIRE_TOOLCHAINS");
  if (required == nullptr) return false;
  const std::string list = std::string(" ") + required + " ";
  return list.find(" " + name + " ") != std::string::npos;
}

class RealToolchainTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    BoostProcessLauncher launcher;
    std::vector<std::string> problems;
    LocalToolchainSource source(launcher, {.cache_dir = ToolchainDir(), .host_hipcc = "hipcc"});
    toolchains_ = new std::vector<Toolchain>(source.Discover(problems));
    for (const std::string& problem : problems) std::cerr << "toolchain problem: " << problem << "\n";
  }
  static void TearDownTestSuite() { delete toolchains_; }
  const Toolchain* Find(const std::string& name) {
    for (const Toolchain& toolchain : *toolchains_) {
      if (toolchain.name == name) return &toolchain;
    }
    return nullptr;
  }
  static std::vector<Toolchain>* toolchains_;
};
std::vector<Toolchain>* RealToolchainTest::toolchains_ = nullptr;

#define REQUIRE_TOOLCHAIN(var, name)                                                     \
  const Toolchain* var = Find(name);                                                     \
  if (var == nullptr) {                                                                  \
    if (ToolchainRequired(name)) FAIL() << name << " missing under " << ToolchainDir();  \
    GTEST_SKIP() << name << " not made here (scripts/make-toolchain.sh " << name << ")"; \
  }

TEST_F(RealToolchainTest, Rocm64HasHip643Clang21Gfx942AndItsLibraries) {
  REQUIRE_TOOLCHAIN(toolchain, "rocm-6.4");
  EXPECT_EQ(toolchain->HipRelease(), "6.4");
  EXPECT_THAT(toolchain->probe.clang_version, ::testing::StartsWith("21."));
  EXPECT_THAT(toolchain->probe.offload_archs, Contains("gfx942"));
  EXPECT_THAT(toolchain->probe.offload_archs, Contains("gfx90a"));
  EXPECT_THAT(toolchain->probe.offload_archs, Contains("gfx950"));
  // The C compiler beside the clang++ hipcc drives: CMake builds get C and C++ of one family.
  EXPECT_EQ(toolchain->probe.c_compiler, "/usr/lib/llvm-21/bin/clang");
  // forky's hipBLAS, rocThrust, hipCUB, rocPRIM; sid's hipSPARSE, hipSOLVER, hipRAND/rocRAND, hipFFT, hipBLASLt.
  for (const char* library : {"hipblas", "rocthrust", "hipcub", "rocprim", "hipsparse", "hipsolver", "hiprand",
                              "rocrand", "hipfft", "hipblaslt"}) {
    EXPECT_TRUE(toolchain->HasLibrary(library)) << library;
  }
  // No Debian suite packages these (forky, sid, experimental checked on 2026-12-01).
  for (const char* library : {"roctracer", "rocprofiler", "hiptensor"}) {
    EXPECT_FALSE(toolchain->HasLibrary(library)) << library;
  }
  // Debian's ROCm has the component directories only: <hipblas/hipblas.h>, no top-level <hipblas.h>.
  EXPECT_THAT(toolchain->probe.headers, Contains("hipblas/hipblas.h"));
  EXPECT_THAT(toolchain->probe.headers, Not(Contains("hipblas.h")));
  EXPECT_EQ(toolchain->Describe().rfind("rocm-6.4: HIP 6.4.3, clang 21.", 0), 0u) << toolchain->Describe();
}

TEST_F(RealToolchainTest, Rocm57HasHip571Clang17AndTheFftRandSparseSolverLibraries) {
  REQUIRE_TOOLCHAIN(toolchain, "rocm-5.7");
  EXPECT_EQ(toolchain->probe.hip_version, "5.7.1");
  EXPECT_THAT(toolchain->probe.clang_version, ::testing::StartsWith("17."));
  EXPECT_THAT(toolchain->probe.offload_archs, Contains("gfx942"));
  for (const char* library : {"hipblas", "rocthrust", "hipcub", "hipfft", "hiprand", "hipsparse", "hipsolver"}) {
    EXPECT_TRUE(toolchain->HasLibrary(library)) << library;
  }
  EXPECT_THAT(toolchain->probe.headers, Contains("hipsparse/hipsparse.h"));
  EXPECT_THAT(toolchain->probe.headers, Not(Contains("hipsparse.h")));
}

TEST_F(RealToolchainTest, HostIsDebianHip52WithoutGfx942) {
  REQUIRE_TOOLCHAIN(toolchain, "host");
  EXPECT_EQ(toolchain->HipRelease(), "5.2");
  EXPECT_THAT(toolchain->probe.offload_archs, Contains("gfx940"));
  EXPECT_THAT(toolchain->probe.offload_archs, Not(Contains("gfx942")));
  EXPECT_FALSE(toolchain->HasLibrary("hipblas"));
}

TEST_F(RealToolchainTest, NewestFirst) {
  if (toolchains_->size() < 2) GTEST_SKIP() << "fewer than two toolchains here";
  for (size_t i = 1; i < toolchains_->size(); ++i) {
    EXPECT_GE(CompareVersions((*toolchains_)[i - 1].probe.hip_version, (*toolchains_)[i].probe.hip_version), 0);
  }
}

}  // namespace
}  // namespace hipforge::validate
