#include "worker/translate/repo/stages/discover_unit_arguments.h"

#include "tests/repo/stages/stage_test_support.h"
#include "worker/translate/repo/build_commands_cache.h"

namespace hipforge::translate::testing {
namespace {
namespace fs = std::filesystem;

class DiscoverUnitArgumentsTest : public StageTest {
 protected:
  void SetUp() override {
    options_.translate.jobs = 3;  // carried into the translator's options
    Write("Makefile", "all:\n\tnvcc -c k.cu\n");
    Add("Makefile", RepoFileKind::kMakefile, "all:\n\tnvcc -c k.cu\n");
    Write("k.cu", "cudaError_t e;\n");
    Add("k.cu", RepoFileKind::kCudaSource, "cudaError_t e;\n");
    state_.plan->needs_translator = {"k.cu"};
  }
};

TEST_F(DiscoverUnitArgumentsTest, SkippedWhenOffOrNotNeededOrTheTreeHasACompileDatabase) {
  options_.discover_build_commands = false;
  ASSERT_TRUE(DiscoverUnitArguments(state_, Tools()).ok());
  EXPECT_EQ(state_.unit_arguments->translate_options.jobs, 3u);
  EXPECT_FALSE(state_.unit_arguments->translate_options.compilation_database);

  options_.discover_build_commands = true;
  state_.plan->needs_translator.clear();
  ASSERT_TRUE(DiscoverUnitArguments(state_, Tools()).ok());

  state_.plan->needs_translator = {"k.cu"};
  Write("build/compile_commands.json", "[]");
  ASSERT_TRUE(DiscoverUnitArguments(state_, Tools()).ok());

  EXPECT_TRUE(launcher_.specs.empty()) << "nothing ran";
  EXPECT_FALSE(state_.unit_arguments->scratch);
  EXPECT_TRUE(events_.empty());
  EXPECT_FALSE(state_.unit_arguments->translate_options.compilation_database);
}

TEST_F(DiscoverUnitArgumentsTest, AStoredDiscoveryIsUsedWithoutRunningTheBuild) {
  options_.translate.cache_directory = temp_.path() / "cache";
  // What a `make -n` discovery of this tree stored earlier.
  BuildDiscoveryOptions key_options;
  key_options.cmake_options = options_.cmake_options;
  const std::string key = BuildDiscoveryKey(state_.files->contents, state_.files->kinds, key_options);
  Write("../earlier/compile_commands.json",
        R"([{"directory": ".", "file": "k.cu", "arguments": ["nvcc", "-DFROM_MAKE", "-c", "k.cu"]}])");
  BuildDiscovery earlier{.compile_commands = temp_.path() / "earlier/compile_commands.json",
                         .tool = "make -n",
                         .notes = {"1 compile command(s) from `make -n`"}};
  BuildDiscoveryCache(*options_.translate.cache_directory / "build-commands").Store(key, earlier);

  ASSERT_TRUE(DiscoverUnitArguments(state_, Tools()).ok());
  EXPECT_TRUE(launcher_.specs.empty()) << "the build did not run again";
  ASSERT_TRUE(state_.unit_arguments->scratch);
  ASSERT_TRUE(state_.unit_arguments->translate_options.compilation_database);
  EXPECT_EQ(state_.unit_arguments->translate_options.compilation_database->parent_path(),
            state_.unit_arguments->scratch->path());
  EXPECT_NE(ReadText(*state_.unit_arguments->translate_options.compilation_database).find("-DFROM_MAKE"),
            std::string::npos);
  EXPECT_EQ(state_.unit_arguments->translate_options.compilation_database_source, ArgumentSource::kMakefile);
  EXPECT_EQ(state_.unit_arguments->translate_options.jobs, 3u);
  ASSERT_EQ(state_.result.notes.size(), 2u);
  EXPECT_NE(state_.result.notes[1].find("from the cache"), std::string::npos);
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[1].stage, "build-commands");
  EXPECT_EQ(events_[1].message, "make -n");

  // The scratch directory (and the compile database in it) goes with the state.
  const fs::path scratch = state_.unit_arguments->scratch->path();
  state_.unit_arguments->scratch.reset();
  EXPECT_FALSE(fs::exists(scratch));
}

}  // namespace
}  // namespace hipforge::translate::testing
