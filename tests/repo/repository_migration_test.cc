// The repository pass end to end on the example repositories under data/: golden build files, idempotence,
// the patch, the per-file cache, renaming, and (build_test.cc) that the result builds with hipcc.
#include "worker/translate/repo/repository_migration.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "common/process.h"
#include "common/report/report_json.h"
#include "tests/common/report_schema_check.h"
#include "tests/repo/repo_test_support.h"
#include "worker/translate/frontend/unit_parser.h"
#include "worker/translate/repo/file_classifier.h"

namespace hipforge::translate {
namespace {
namespace fs = std::filesystem;

bool IsBuildFileKind(RepoFileKind kind) {
  return kind == RepoFileKind::kCMake || kind == RepoFileKind::kMakefile || kind == RepoFileKind::kShellScript ||
         kind == RepoFileKind::kDockerfile || kind == RepoFileKind::kCiConfig || kind == RepoFileKind::kPython;
}

class RepositoryMigrationTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RepositoryMigrationTest, BuildFilesMatchGoldenAndSecondRunChangesNothing) {
  const std::string name = GetParam();
  TempDir temp;
  MigrationOptions options;
  HIPFORGE_MIGRATE_OR_SKIP(first, RepoData(name), temp.path() / "out1", options);
  const fs::path golden = RepoData("expected") / name;
  const bool update = std::getenv("HIPFORGE_UPDATE_GOLDEN") != nullptr;
  int compared = 0;
  for (const FileSummary& file : first->files) {
    if (!IsBuildFileKind(file.kind)) continue;
    const std::string actual = ReadText(temp.path() / "out1" / file.path);
    if (update) {
      fs::create_directories((golden / file.path).parent_path());
      std::ofstream(golden / file.path, std::ios::binary) << actual;
    }
    ASSERT_TRUE(fs::exists(golden / file.path)) << "no golden file for " << file.path;
    EXPECT_EQ(actual, ReadText(golden / file.path)) << file.path;
    ++compared;
  }
  EXPECT_GT(compared, 0);

  // Idempotence: the pass over its own output changes no file, and its patch is empty.
  HIPFORGE_MIGRATE_OR_SKIP(second, temp.path() / "out1", temp.path() / "out2", options);
  for (const FileSummary& file : second->files) {
    EXPECT_EQ(ReadText(temp.path() / "out2" / file.path), ReadText(temp.path() / "out1" / file.path)) << file.path;
    EXPECT_EQ(file.path, file.source_path);
  }
  EXPECT_EQ(second->unified_patch, "");
}

INSTANTIATE_TEST_SUITE_P(Examples, RepositoryMigrationTest,
                         ::testing::Values("cmake_app", "make_app", "torch_ext", "cmake_legacy", "cmake_hip_ready",
                                           "cmake_subdir_flags", "make_rdc", "cmake_cuda_in_subdir"));

TEST(RepositoryMigrationPatchTest, PatchTurnsInputIntoOutput) {
  TempDir temp;
  MigrationOptions options;
  HIPFORGE_MIGRATE_OR_SKIP(result, RepoData("make_app"), temp.path() / "out", options);
  EXPECT_NE(result->unified_patch.find("+++ b/Makefile"), std::string::npos);
  // Apply the patch to a copy of the input and compare with the output tree.
  fs::copy(RepoData("make_app"), temp.path() / "copy", fs::copy_options::recursive);
  BoostProcessLauncher launcher;
  ProcessSpec spec;
  spec.argv = {"patch", "-p1", "--silent"};
  spec.working_directory = temp.path() / "copy";
  spec.standard_input = result->unified_patch;
  auto applied = launcher.Run(spec);
  ASSERT_TRUE(applied.ok()) << applied.status();
  ASSERT_EQ(applied->exit_code, 0) << applied->standard_output << applied->standard_error;
  for (const FileSummary& file : result->files) {
    EXPECT_EQ(ReadText(temp.path() / "copy" / file.path), ReadText(temp.path() / "out" / file.path)) << file.path;
  }
}

TEST(RepositoryMigrationSummaryTest, FilesSayWhatChangedThemAndWhatIsLeft) {
  TempDir temp;
  MigrationOptions options;
  HIPFORGE_MIGRATE_OR_SKIP(result, RepoData("make_app"), temp.path() / "out", options);
  std::map<std::string, const FileSummary*> by_path;
  for (const auto& file : result->files) by_path[file.path] = &file;
  ASSERT_TRUE(by_path.count("Makefile"));
  const FileSummary& makefile = *by_path["Makefile"];
  EXPECT_EQ(makefile.kind, RepoFileKind::kMakefile);
  EXPECT_EQ(makefile.status, FileStatus::kTranslated);
  EXPECT_TRUE(makefile.changed_by.count("HB501"));
  EXPECT_GT(makefile.lines_changed, 5);
  bool maxrreg = false;
  for (const auto& step : makefile.left_for_person) maxrreg |= step.find("maxrregcount") != std::string::npos;
  EXPECT_TRUE(maxrreg);
  const FileSummary& profile = *by_path["scripts/profile.sh"];
  EXPECT_TRUE(profile.changed_by.count("HB503"));
  EXPECT_TRUE(profile.changed_by.count("HB504"));
  bool memcheck = false;
  for (const auto& step : profile.left_for_person) memcheck |= step.find("cuda-memcheck") != std::string::npos;
  EXPECT_TRUE(memcheck);
  EXPECT_TRUE(fs::is_regular_file(temp.path() / "out/scripts/profile.sh"));
  EXPECT_NE(fs::status(temp.path() / "out/scripts/profile.sh").permissions() & fs::perms::owner_exec, fs::perms::none);

  const nlohmann::json report = ToReportJson(*result);
  EXPECT_TRUE(hipforge::testing::MatchesReportSchema(report));
  EXPECT_EQ(report["translation"]["totals"]["files"].get<int>(), static_cast<int>(result->files.size()));
  bool hb504 = false;
  for (const auto& finding : report["findings"]) hb504 |= finding["rule_id"] == "HB504";
  EXPECT_TRUE(hb504);
}

TEST(RepositoryMigrationCacheTest, UnchangedFilesReuseTheirResult) {
  TempDir temp;
  MigrationOptions options;
  options.translate.cache_directory = temp.path() / "cache";
  const uint64_t before = UnitParseCount();
  HIPFORGE_MIGRATE_OR_SKIP(first, RepoData("make_app"), temp.path() / "out1", options);
  // One parse per unit (src/main.cu, src/stencil.cu; one configuration each, no __CUDA_ARCH__ blocks): the
  // translator's, which the analyzer's AST rules share.
  EXPECT_EQ(UnitParseCount() - before, 2u);
  const uint64_t cold = UnitParseCount();
  HIPFORGE_MIGRATE_OR_SKIP(second, RepoData("make_app"), temp.path() / "out2", options);
  EXPECT_EQ(UnitParseCount() - cold, 0u) << "an unchanged re-run parses nothing (translator nor analyzer)";
  for (const auto& file : second->files) {
    if (IsBuildFileKind(file.kind) || file.kind == RepoFileKind::kCudaSource) EXPECT_TRUE(file.from_cache) << file.path;
    EXPECT_EQ(ReadText(temp.path() / "out2" / file.path), ReadText(temp.path() / "out1" / file.path));
  }
  // The same patch, byte for byte: diff's headers carried the output files' write times.
  EXPECT_NE(first->unified_patch, "");
  EXPECT_EQ(second->unified_patch, first->unified_patch);
  ASSERT_EQ(second->findings.size(), first->findings.size());
  for (size_t i = 0; i < first->findings.size(); ++i) {
    EXPECT_EQ(second->findings[i].rule_id, first->findings[i].rule_id);
    EXPECT_EQ(second->findings[i].location.path, first->findings[i].location.path);
    EXPECT_EQ(second->findings[i].location.line, first->findings[i].location.line);
    EXPECT_EQ(second->findings[i].auto_fixed, first->findings[i].auto_fixed);
  }
  // The Makefile's dry run (when the sandbox ran it) is not repeated either.
  const auto discovered = [](const MigrationResult& result, const std::string& text) {
    return std::any_of(result.notes.begin(), result.notes.end(),
                       [&](const std::string& note) { return note.find(text) != std::string::npos; });
  };
  if (discovered(*first, "compile command(s) from `make -n")) {
    EXPECT_TRUE(discovered(*second, "build commands from the cache")) << "notes of the re-run";
  }
}

// The analyzer's own parses (the device-side pass of a unit with `__CUDA_ARCH__` blocks, a header no unit
// includes) are cached too (analyze/parse_cache.h): an unchanged re-run parses nothing at all, and a changed header
// is parsed again.
TEST(RepositoryMigrationCacheTest, AnalyzerDeviceAndHeaderParsesAreCached) {
  TempDir temp;
  const fs::path input = temp.path() / "in";
  fs::copy(RepoData("make_app"), input, fs::copy_options::recursive);
  std::ofstream(input / "src/stencil.cu", std::ios::app)
      << "__device__ float Lane() {\n#ifdef __CUDA_ARCH__\n  return __shfl_sync(0xffffffff, 1.0f, 0);\n#else\n"
         "  return 0.0f;\n#endif\n}\n";
  std::ofstream(input / "src/unused.cuh") << "#pragma once\n__device__ inline int Warp() { return warpSize; }\n";
  MigrationOptions options;
  options.translate.cache_directory = temp.path() / "cache";
  const uint64_t before = UnitParseCount();
  HIPFORGE_MIGRATE_OR_SKIP(first, input, temp.path() / "out1", options);
  // 2 units (shared by translator and analyzer), stencil.cu's device side, and unused.cuh.
  EXPECT_EQ(UnitParseCount() - before, 4u);
  const uint64_t cold = UnitParseCount();
  HIPFORGE_MIGRATE_OR_SKIP(second, input, temp.path() / "out2", options);
  EXPECT_EQ(UnitParseCount() - cold, 0u) << "an unchanged re-run parses nothing (device side and headers included)";
  ASSERT_EQ(second->findings.size(), first->findings.size());
  for (size_t i = 0; i < first->findings.size(); ++i) {
    EXPECT_EQ(second->findings[i].rule_id, first->findings[i].rule_id);
    EXPECT_EQ(second->findings[i].location.path, first->findings[i].location.path);
    EXPECT_EQ(second->findings[i].location.line, first->findings[i].location.line);
  }
  std::ofstream(input / "src/unused.cuh", std::ios::app) << "__device__ inline int Lanes() { return warpSize; }\n";
  const uint64_t warm = UnitParseCount();
  HIPFORGE_MIGRATE_OR_SKIP(third, input, temp.path() / "out3", options);
  EXPECT_EQ(UnitParseCount() - warm, 1u) << "only the changed header is parsed again";
}

TEST(RepositoryMigrationRenameTest, CuFilesBecomeHipEverywhere) {
  TempDir temp;
  MigrationOptions options;
  options.rename_to_hip = true;
  HIPFORGE_MIGRATE_OR_SKIP(result, RepoData("make_app"), temp.path() / "out", options);
  EXPECT_TRUE(fs::exists(temp.path() / "out/src/stencil.hip"));
  EXPECT_TRUE(fs::exists(temp.path() / "out/src/main.hip"));
  EXPECT_FALSE(fs::exists(temp.path() / "out/src/stencil.cu"));
  EXPECT_TRUE(fs::exists(temp.path() / "out/src/stencil.cuh")) << "headers keep their names";
  const std::string makefile = ReadText(temp.path() / "out/Makefile");
  EXPECT_NE(makefile.find("$(wildcard src/*.hip)"), std::string::npos) << makefile;
  EXPECT_NE(makefile.find("%.o: %.hip"), std::string::npos) << makefile;
  EXPECT_EQ(makefile.find(".cu)"), std::string::npos) << makefile;
}

TEST(RepositoryMigrationInputTest, OutputInsideInputIsRejected) {
  TempDir temp;
  fs::create_directories(temp.path() / "in");
  std::ofstream(temp.path() / "in/a.txt") << "x";
  auto result = MigrateRepository(temp.path() / "in", temp.path() / "in/out", MigrationOptions{}, nullptr);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(FileClassifierTest, Kinds) {
  EXPECT_EQ(ClassifyFile("src/a.cu", ""), RepoFileKind::kCudaSource);
  EXPECT_EQ(ClassifyFile("src/a.cuh", ""), RepoFileKind::kHeader);
  EXPECT_EQ(ClassifyFile("src/a.h", "#include <cuda_runtime.h>\n"), RepoFileKind::kHeader);
  EXPECT_EQ(ClassifyFile("src/a.h", "int f();\n"), RepoFileKind::kOther);
  EXPECT_EQ(ClassifyFile("src/a.cpp", "cudaMalloc(&p, 4);"), RepoFileKind::kCppSource);
  EXPECT_EQ(ClassifyFile("src/a.cpp", "int main() {}"), RepoFileKind::kOther);
  EXPECT_EQ(ClassifyFile("cmake/FindX.cmake", ""), RepoFileKind::kCMake);
  EXPECT_EQ(ClassifyFile("sub/CMakeLists.txt", ""), RepoFileKind::kCMake);
  EXPECT_EQ(ClassifyFile("GNUmakefile", ""), RepoFileKind::kMakefile);
  EXPECT_EQ(ClassifyFile("rules.mk", ""), RepoFileKind::kMakefile);
  EXPECT_EQ(ClassifyFile("run", "#!/bin/bash\necho"), RepoFileKind::kShellScript);
  EXPECT_EQ(ClassifyFile("docker/Dockerfile.cuda", ""), RepoFileKind::kDockerfile);
  EXPECT_EQ(ClassifyFile(".github/workflows/ci.yml", ""), RepoFileKind::kCiConfig);
  EXPECT_EQ(ClassifyFile(".gitlab-ci.yml", ""), RepoFileKind::kCiConfig);
  EXPECT_EQ(ClassifyFile("config.yml", ""), RepoFileKind::kOther);
  EXPECT_EQ(ClassifyFile("setup.py", ""), RepoFileKind::kPython);
}

// Issue 28: the report names a file by its kind, as the analyzer does (a .cpp without CUDA is `cpp-source`, not
// `other`); `translated_as_cuda` is what the pass decided, and the progress counters read it.
TEST(RepositoryReportTest, FilesKeepTheirKindAndSayWhetherThePassTreatedThemAsCuda) {
  MigrationResult result;
  result.files = {{.path = "src/k.hip", .source_path = "src/k.cu", .kind = RepoFileKind::kCudaSource},
                  {.path = "src/util.h", .source_path = "src/util.h", .kind = RepoFileKind::kHeader},
                  {.path = "src/host.cpp", .source_path = "src/host.cpp", .kind = RepoFileKind::kCppSource},
                  {.path = "src/main.cpp", .source_path = "src/main.cpp", .kind = RepoFileKind::kOther},
                  {.path = "src/other.h", .source_path = "src/other.h", .kind = RepoFileKind::kOther},
                  {.path = "README.md", .source_path = "README.md", .kind = RepoFileKind::kOther},
                  {.path = "CMakeLists.txt", .source_path = "CMakeLists.txt", .kind = RepoFileKind::kCMake}};
  const report::Report report = ToReport(result);
  std::vector<std::pair<std::string, bool>> kinds;
  for (const report::FileEntry& file : report.translation->files)
    kinds.emplace_back(file.kind, file.translated_as_cuda);
  EXPECT_EQ(kinds, (std::vector<std::pair<std::string, bool>>{{"cuda-source", true},
                                                              {"header", true},
                                                              {"cpp-source", true},
                                                              {"cpp-source", false},
                                                              {"header", false},
                                                              {"other", false},
                                                              {"cmake", false}}));
  EXPECT_EQ(report.translation->totals.cuda_files, 2) << "the .cu and the header it includes, as before";
  EXPECT_TRUE(hipforge::testing::MatchesReportSchema(report::ToJson(report)));
}

TEST(FileClassifierTest, HeadersIncludedFromCudaSources) {
  std::map<std::string, std::string> contents = {{"src/k.cu", "#include \"util.h\"\n"},
                                                 {"src/util.h", "#include \"deep.hpp\"\n"},
                                                 {"src/deep.hpp", "int x;\n"},
                                                 {"src/other.h", "int y;\n"}};
  std::map<std::string, RepoFileKind> kinds;
  for (const auto& [path, content] : contents) kinds[path] = ClassifyFile(path, content);
  PromoteIncludedHeaders(contents, kinds);
  EXPECT_EQ(kinds["src/util.h"], RepoFileKind::kHeader);
  EXPECT_EQ(kinds["src/deep.hpp"], RepoFileKind::kHeader);
  EXPECT_EQ(kinds["src/other.h"], RepoFileKind::kOther);
}

}  // namespace
}  // namespace hipforge::translate
