#include "worker/translate/repo/stages/write_output_tree.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {
namespace fs = std::filesystem;

class WriteOutputTreeTest : public StageTest {
 protected:
  void AddWritten(const std::string& relative, RepoFileKind kind, const std::string& content) {
    Write(relative, content);
    Add(relative, kind, content);
  }
  std::map<std::string, FileSummary> Summaries() const {
    std::map<std::string, FileSummary> by_path;
    for (const FileSummary& file : state_.result.files) by_path[file.path] = file;
    return by_path;
  }
};

TEST_F(WriteOutputTreeTest, EachFileIsWrittenAsTranslatedRewrittenOrCopiedAndSummarized) {
  AddWritten("k.cu", RepoFileKind::kCudaSource, "cuda\n");
  AddWritten("bad.cu", RepoFileKind::kCudaSource, "broken\n");
  AddWritten("run.sh", RepoFileKind::kShellScript, "nvidia-smi\n");
  AddWritten("ext/op.cu", RepoFileKind::kCudaSource, "ext\n");
  AddWritten("README.md", RepoFileKind::kOther, "hello\n");
  fs::permissions(state_.trees->input / "run.sh", fs::perms::owner_exec, fs::perm_options::add);
  Finding diagnostic;
  diagnostic.rule_id = "HB301";
  diagnostic.location = {"k.cu", 7, 1};
  diagnostic.message = "texture";
  state_.translations->by_path["k.cu"] = {.path = "k.cu",
                                          .status = FileStatus::kTranslated,
                                          .output = "hip\n",
                                          .diagnostics = {diagnostic},
                                          .changed_by = {"runtime"},
                                          .from_cache = true};
  state_.translations->by_path["bad.cu"] = {
      .path = "bad.cu", .status = FileStatus::kFailed, .fallback_reason = "no parse", .output = "garbage"};
  state_.rewrites->by_path["run.sh"] = {
      .output = "amd-smi\n",
      .changed_by = {"HB504"},
      .notes = {{.origin = "HB504", .line = 1, .message = "check", .left_for_person = true},
                {.origin = "HB504", .line = 1, .message = "done"}}};
  state_.rewrites->cached = {"run.sh"};
  state_.plan->extension_sources = {"ext/op.cu"};
  ASSERT_TRUE(WriteOutputTree(state_, Tools()).ok());

  EXPECT_EQ(ReadText(state_.trees->output / "k.cu"), "hip\n");
  EXPECT_EQ(ReadText(state_.trees->output / "bad.cu"), "broken\n") << "a failed translation keeps the original";
  EXPECT_EQ(ReadText(state_.trees->output / "run.sh"), "amd-smi\n");
  EXPECT_EQ(ReadText(state_.trees->output / "README.md"), "hello\n");
  EXPECT_NE(fs::status(state_.trees->output / "run.sh").permissions() & fs::perms::owner_exec, fs::perms::none);
  auto files = Summaries();
  ASSERT_EQ(files.size(), 5u);
  EXPECT_EQ(files["k.cu"].status, FileStatus::kTranslated);
  EXPECT_TRUE(files["k.cu"].from_cache);
  EXPECT_EQ(files["k.cu"].left_for_person, std::vector<std::string>{"HB301 line 7: texture"});
  EXPECT_EQ(files["k.cu"].lines_changed, 1);
  EXPECT_EQ(files["bad.cu"].status, FileStatus::kFailed);
  EXPECT_EQ(files["bad.cu"].left_for_person, std::vector<std::string>{"translation failed: no parse"});
  EXPECT_EQ(files["run.sh"].status, FileStatus::kTranslated);
  EXPECT_TRUE(files["run.sh"].from_cache);
  EXPECT_EQ(files["run.sh"].changed_by, std::set<std::string>{"HB504"});
  EXPECT_EQ(files["run.sh"].left_for_person, std::vector<std::string>{"HB504 line 1: check"});
  EXPECT_EQ(files["ext/op.cu"].status, FileStatus::kUnchanged);
  EXPECT_EQ(files["ext/op.cu"].left_for_person.size(), 1u);
  EXPECT_EQ(files["README.md"].status, FileStatus::kCopied);
  ASSERT_EQ(events_.size(), 5u);
  EXPECT_EQ(events_.back().stage, "write");
  EXPECT_EQ(events_.back().done, 5);
}

TEST_F(WriteOutputTreeTest, RenamedSourcesAndTheIncludesOfThemFollow) {
  AddWritten("src/k.cu", RepoFileKind::kCudaSource, "k\n");
  AddWritten("src/main.cpp", RepoFileKind::kCppSource, "#include \"k.cu\"\n#include \"other.cu\"\n");
  AddWritten("notes.txt", RepoFileKind::kOther, "#include \"src/k.cu\"\n");
  state_.plan->context.renamed = {{"src/k.cu", "src/k.hip"}};
  ASSERT_TRUE(WriteOutputTree(state_, Tools()).ok());
  EXPECT_TRUE(fs::exists(state_.trees->output / "src/k.hip"));
  EXPECT_FALSE(fs::exists(state_.trees->output / "src/k.cu"));
  EXPECT_EQ(ReadText(state_.trees->output / "src/main.cpp"), "#include \"k.hip\"\n#include \"other.cu\"\n");
  EXPECT_EQ(ReadText(state_.trees->output / "notes.txt"), "#include \"src/k.hip\"\n");
  auto files = Summaries();
  EXPECT_EQ(files["src/k.hip"].source_path, "src/k.cu");
  EXPECT_EQ(files["src/k.hip"].status, FileStatus::kTranslated);
  EXPECT_TRUE(files["src/k.hip"].changed_by.count("rename"));
  EXPECT_TRUE(files["src/main.cpp"].changed_by.count("rename"));
}

TEST_F(WriteOutputTreeTest, GeneratedFilesAreAddedUnlessTheTreeHasThemAndSymlinksAreCopied) {
  AddWritten("CMakeLists.txt", RepoFileKind::kCMake, "project(p)\n");
  AddWritten("cmake/own.cmake", RepoFileKind::kCMake, "# mine\n");
  fs::create_symlink("CMakeLists.txt", state_.trees->input / "link.txt");
  state_.files->symlinks = {"link.txt"};
  state_.rewrites->by_path["CMakeLists.txt"] = {
      .output = "project(p)\ninclude(cmake/hipforge/HipMigration.cmake)\n",
      .generated_files = {{"cmake/hipforge/HipMigration.cmake", "a\nb\n"}, {"cmake/own.cmake", "# not mine\n"}}};
  ASSERT_TRUE(WriteOutputTree(state_, Tools()).ok());
  EXPECT_EQ(ReadText(state_.trees->output / "cmake/hipforge/HipMigration.cmake"), "a\nb\n");
  EXPECT_EQ(ReadText(state_.trees->output / "cmake/own.cmake"), "# mine\n") << "the repository's own file wins";
  auto files = Summaries();
  ASSERT_EQ(files.count("cmake/hipforge/HipMigration.cmake"), 1u);
  const FileSummary& module = files["cmake/hipforge/HipMigration.cmake"];
  EXPECT_EQ(module.source_path, "");
  EXPECT_EQ(module.kind, RepoFileKind::kCMake);
  EXPECT_EQ(module.changed_by, (std::set<std::string>{"HB502", "generated"}));
  EXPECT_EQ(module.lines_changed, 0) << "no line of the submitted code changed";
  EXPECT_TRUE(fs::is_symlink(state_.trees->output / "link.txt"));
  EXPECT_EQ(fs::read_symlink(state_.trees->output / "link.txt"), "CMakeLists.txt");
  EXPECT_TRUE(state_.result.notes.empty());
}

}  // namespace
}  // namespace hipforge::translate::testing
