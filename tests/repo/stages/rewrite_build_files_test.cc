#include "worker/translate/repo/stages/rewrite_build_files.h"

#include "tests/repo/stages/stage_test_support.h"

namespace hipforge::translate::testing {
namespace {

// Upper-cases a Makefile and says whether it could translate CuPy snippets.
class UpperCaseRewriter final : public BuildFileRewriter {
 public:
  explicit UpperCaseRewriter(int* calls) : calls_(calls) {}
  RepoFileKind kind() const override { return RepoFileKind::kMakefile; }
  std::string name() const override { return "upper"; }
  int version() const override { return 1; }
  RewriteResult Rewrite(const std::string& path, const std::string& content,
                        const RewriteContext& context) const override {
    ++*calls_;
    RewriteResult result;
    for (char c : content) result.output += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    result.changed_by = {"upper"};
    result.notes = {{.origin = "HB501", .line = 1, .message = path + (context.translate_snippet ? " +snippets" : "")}};
    return result;
  }

 private:
  int* calls_;
};

class RewriteBuildFilesTest : public StageTest {
 protected:
  void SetUp() override {
    rewriters_.Register(std::make_unique<UpperCaseRewriter>(&calls_));
    Add("Makefile", RepoFileKind::kMakefile, "all: a\n");
    Add("sub/Makefile", RepoFileKind::kMakefile, "b: c\n");
    Add("a.cu", RepoFileKind::kCudaSource, "__global__ void k() {}\n");
  }
  int calls_ = 0;
};

TEST_F(RewriteBuildFilesTest, EachFileOfARewrittenKindGoesThroughItsRewriter) {
  ASSERT_TRUE(RewriteBuildFiles(state_, Tools()).ok());
  EXPECT_EQ(calls_, 2);
  ASSERT_EQ(state_.rewrites->by_path.size(), 2u);
  EXPECT_EQ(state_.rewrites->by_path["Makefile"].output, "ALL: A\n");
  EXPECT_EQ(state_.rewrites->by_path["sub/Makefile"].output, "B: C\n");
  EXPECT_EQ(state_.rewrites->by_path["Makefile"].notes[0].message, "Makefile") << "no translator, no snippets";
  EXPECT_TRUE(state_.rewrites->cached.empty());
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_EQ(events_[1].stage, "build-files");
  EXPECT_EQ(events_[1].done, 2);
  EXPECT_EQ(events_[1].total, 2) << "k of n, n the files a rewriter takes";
}

TEST_F(RewriteBuildFilesTest, WithATranslatorTheRewritersCanTranslateSnippets) {
  state_.engines->translator = std::make_unique<FakeTranslator>();
  ASSERT_TRUE(RewriteBuildFiles(state_, Tools()).ok());
  EXPECT_TRUE(state_.plan->context.translate_snippet);
  EXPECT_EQ(state_.rewrites->by_path["Makefile"].notes[0].message, "Makefile +snippets");
}

TEST_F(RewriteBuildFilesTest, AnUnchangedFileComesFromTheCache) {
  options_.translate.cache_directory = temp_.path() / "cache";
  ASSERT_TRUE(RewriteBuildFiles(state_, Tools()).ok());
  EXPECT_EQ(calls_, 2);

  state_.rewrites->by_path.clear();
  state_.files->contents["sub/Makefile"] = "b: d\n";
  ASSERT_TRUE(RewriteBuildFiles(state_, Tools()).ok());
  EXPECT_EQ(calls_, 3) << "only the changed file is rewritten again";
  EXPECT_EQ(state_.rewrites->cached, std::set<std::string>{"Makefile"});
  EXPECT_EQ(state_.rewrites->by_path["Makefile"].output, "ALL: A\n");
  EXPECT_EQ(state_.rewrites->by_path["sub/Makefile"].output, "B: D\n");

  // Another pass fingerprint (the target archs) is another key.
  options_.hip_architectures = {"gfx942"};
  state_.rewrites->cached.clear();
  ASSERT_TRUE(RewriteBuildFiles(state_, Tools()).ok());
  EXPECT_EQ(calls_, 5);
  EXPECT_TRUE(state_.rewrites->cached.empty());
}

}  // namespace
}  // namespace hipforge::translate::testing
