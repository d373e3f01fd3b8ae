// One Clang parse per translation unit and configuration (frontend/unit_parser.h): the translator's parse feeds
// the analyzer's AST rules too, with the same arguments, one fallback decision, and a cache that serves both.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>

#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"

#include "worker/translate/analyze/analyzer.h"
#include "worker/translate/analyze/ast_runner.h"
#include "worker/translate/core/source_translator.h"
#include "worker/translate/frontend/unit_parser.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

// A kernel the analyzer has findings for (a full lane mask, a warp of 32) and the translator rewrites.
constexpr const char* kKernel = R"(#include <cuda_runtime.h>
__global__ void lanes(int* out) {
  int lane = threadIdx.x % 32;
  out[lane] = __shfl_sync(0xffffffff, lane, 0);
}
int main() {
  int* d;
  cudaMalloc(&d, 128);
  lanes<<<1, 32>>>(d);
  cudaFree(d);
}
)";

class SharedParseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("hipforge-shared-parse-" + std::to_string(std::random_device{}()));
    fs::create_directories(base_ / "tree");
    root_ = fs::canonical(base_ / "tree");
  }
  void TearDown() override { fs::remove_all(base_); }

  void Write(const std::string& relative, const std::string& text) {
    fs::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative) << text;
  }

  TranslateOptions Options() {
    TranslateOptions options;
    options.jobs = 1;
    options.frontend.shim_directory = base_ / "shims";
    options.pch_directory = base_ / "pch";
    return options;
  }

  std::unique_ptr<Analyzer> MakeAnalyzer(const TranslateOptions& translate) {
    AnalyzeOptions options;
    options.jobs = 1;
    options.frontend = translate.frontend;
    auto lookup = MakeUnitArgumentLookup(translate, root_);
    EXPECT_TRUE(lookup.ok()) << lookup.status();
    options.unit_arguments = *lookup;
    auto analyzer = CreateAnalyzer(options);
    EXPECT_TRUE(analyzer.ok()) << analyzer.status();
    return std::move(*analyzer);
  }

  struct Run {
    std::vector<FileTranslation> translations;
    AnalysisResult analysis;
    uint64_t parses = 0;
    std::unique_ptr<ParseCompanion> companion;
  };

  // What the repository pass does: the translator parses with the analyzer's companion, the analyzer takes the
  // companion's results, the translator composes.
  Run Shared(const TranslateOptions& options, const std::vector<fs::path>& files) {
    Run run;
    auto translator = CreateSourceTranslator(options);
    EXPECT_TRUE(translator.ok()) << translator.status();
    auto analyzer = MakeAnalyzer(options);
    const uint64_t before = UnitParseCount();
    run.companion = analyzer->MakeParseCompanion(root_);
    EXPECT_NE(run.companion, nullptr);
    auto parsed = (*translator)->Parse(root_, files, run.companion.get(), nullptr);
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    auto analysis = analyzer->Analyze(root_, files, nullptr, run.companion.get());
    EXPECT_TRUE(analysis.ok()) << analysis.status();
    auto translations = (*translator)->Compose(*parsed, {}, nullptr);
    EXPECT_TRUE(translations.ok()) << translations.status();
    run.parses = UnitParseCount() - before;
    run.analysis = std::move(*analysis);
    run.translations = std::move(*translations);
    return run;
  }

  static std::vector<std::string> FindingKeys(const AnalysisResult& result) {
    std::vector<std::string> keys;
    for (const Finding& finding : result.findings) {
      keys.push_back(finding.rule_id + " " + finding.location.path + ":" + std::to_string(finding.location.line) + ":" +
                     std::to_string(finding.location.column) + " edits=" + std::to_string(finding.edits.size()));
    }
    return keys;
  }

  fs::path base_, root_;
};

TEST_F(SharedParseTest, TranslatingAndAnalysingAUnitParsesItOnce) {
  Write("kernel.cu", kKernel);
  const TranslateOptions options = Options();

  // Apart, as before issue 15: the analyzer parses, then the translator parses again.
  auto alone = MakeAnalyzer(options);
  uint64_t before = UnitParseCount();
  auto separate = alone->Analyze(root_, {"kernel.cu"}, nullptr);
  ASSERT_TRUE(separate.ok()) << separate.status();
  auto translator = CreateSourceTranslator(options);
  ASSERT_TRUE(translator.ok());
  auto translated = (*translator)->Translate(root_, {"kernel.cu"}, {}, nullptr);
  ASSERT_TRUE(translated.ok());
  EXPECT_EQ(UnitParseCount() - before, 2u);

  const Run shared = Shared(options, {"kernel.cu"});
  EXPECT_EQ(shared.parses, 1u) << "one configuration: one parse for the translator and the analyzer";
  ASSERT_EQ(shared.translations.size(), 1u);
  EXPECT_EQ(shared.translations[0].status, FileStatus::kTranslated) << shared.translations[0].fallback_reason;
  EXPECT_EQ(shared.translations[0].output, (*translated)[0].output);
  ASSERT_EQ(shared.analysis.files.size(), 1u);
  EXPECT_TRUE(shared.analysis.files[0].ast_analyzed) << shared.analysis.files[0].ast_skipped_reason;
  // The same findings (rules, places, fixes) as the analyzer's own parse.
  EXPECT_FALSE(shared.analysis.findings.empty());
  EXPECT_EQ(FindingKeys(shared.analysis), FindingKeys(*separate));
}

TEST_F(SharedParseTest, AnalyzerAndTranslatorParseWithTheSameArguments) {
  Write("include/lanes.cuh", "#pragma once\n#define LANES 32\n");
  Write("src/kernel.cu", std::string("#include \"lanes.cuh\"\n") + kKernel);
  TranslateOptions options = Options();
  options.use_prelude_pch = false;  // the PCH adds `-include-pch` to the parse; compared apart below
  options.frontend.defines = {"FROM_COMMAND_LINE=1"};
  const Run run = Shared(options, {"src/kernel.cu"});
  auto* companion = static_cast<analyze::AstRulesCompanion*>(run.companion.get());
  const auto seen = companion->Arguments(root_ / "src/kernel.cu");
  ASSERT_TRUE(seen.has_value());
  auto lookup = MakeUnitArgumentLookup(options, root_);
  ASSERT_TRUE(lookup.ok());
  // The analyzer's AST rules saw exactly the translator's per-unit arguments (the analyzer's own parses use
  // the same lookup), include dirs guessed from the tree and the command line's define included.
  EXPECT_EQ(*seen, (*lookup)(root_ / "src/kernel.cu"));
  EXPECT_NE(std::find(seen->begin(), seen->end(), "-DFROM_COMMAND_LINE=1"), seen->end());
  EXPECT_EQ(run.translations[0].status, FileStatus::kTranslated) << run.translations[0].fallback_reason;

  // With the prelude PCH, the only difference is the PCH itself.
  TranslateOptions with_pch = Options();
  with_pch.frontend.defines = options.frontend.defines;
  const Run pch_run = Shared(with_pch, {"src/kernel.cu"});
  auto* pch_companion = static_cast<analyze::AstRulesCompanion*>(pch_run.companion.get());
  auto pch_args = *pch_companion->Arguments(root_ / "src/kernel.cu");
  const auto include_pch = std::find(pch_args.begin(), pch_args.end(), "-include-pch");
  if (include_pch != pch_args.end()) pch_args.erase(include_pch, include_pch + 2);
  EXPECT_EQ(pch_args, (*lookup)(root_ / "src/kernel.cu"));
}

TEST_F(SharedParseTest, EachConfigurationIsParsedOnceAndTheAnalyzerRidesOnTheFirst) {
  Write("src/a.cu",
        "#include <cuda_runtime.h>\n"
        "#ifdef WITH_A\n__global__ void a(int* p) { p[threadIdx.x % 32] = __shfl_sync(0xffffffff, 1, 0); }\n#endif\n"
        "#ifdef WITH_B\nvoid b(float* p) { cudaFree(p); }\n#endif\n");
  const std::string file = (root_ / "src/a.cu").string();
  Write("compile_commands.json", "[{\"directory\": \"" + root_.string() + "\", \"command\": \"nvcc -DWITH_A -c " +
                                     file + "\", \"file\": \"" + file + "\"},\n {\"directory\": \"" + root_.string() +
                                     "\", \"command\": \"nvcc -DWITH_B -c " + file + "\", \"file\": \"" + file +
                                     "\"}]");
  const Run run = Shared(Options(), {"src/a.cu"});
  EXPECT_EQ(run.parses, 2u) << "two configurations, two parses; the analyzer adds none";
  ASSERT_EQ(run.translations.size(), 1u);
  EXPECT_NE(run.translations[0].output.find("hipFree"), std::string::npos);
  const auto findings = FindingKeys(run.analysis);
  EXPECT_TRUE(std::any_of(findings.begin(), findings.end(), [](const std::string& key) {
    return key.rfind("HB102 src/a.cu:3:", 0) == 0;
  })) << "the first configuration (WITH_A) is the analyzer's";
}

TEST_F(SharedParseTest, OneFallbackDecisionForBoth) {
  Write("broken.cu", "#include <cuda_runtime.h>\n__global__ void k(int* p) { p[0] = undeclared_in_project; }\n");
  const Run run = Shared(Options(), {"broken.cu"});
  EXPECT_EQ(run.parses, 1u);
  ASSERT_EQ(run.translations.size(), 1u);
  EXPECT_EQ(run.translations[0].status, FileStatus::kFallback);
  EXPECT_NE(run.translations[0].fallback_reason.find("undeclared_in_project"), std::string::npos);
  ASSERT_EQ(run.analysis.files.size(), 1u);
  EXPECT_FALSE(run.analysis.files[0].ast_analyzed);
  // The analyzer's reason quotes the same first error as the translator's.
  EXPECT_NE(run.analysis.files[0].ast_skipped_reason.find(run.translations[0].fallback_reason), std::string::npos)
      << run.analysis.files[0].ast_skipped_reason;
}

TEST_F(SharedParseTest, AnUnchangedRerunWithTheCacheParsesNothing) {
  Write("kernel.cu", kKernel);
  TranslateOptions options = Options();
  options.cache_directory = base_ / "cache";
  const Run cold = Shared(options, {"kernel.cu"});
  EXPECT_EQ(cold.parses, 1u);
  const Run warm = Shared(options, {"kernel.cu"});
  EXPECT_EQ(warm.parses, 0u) << "the analyzer's results come from the translator's cache entry";
  EXPECT_EQ(FindingKeys(warm.analysis), FindingKeys(cold.analysis));
  ASSERT_EQ(warm.translations.size(), 1u);
  EXPECT_TRUE(warm.translations[0].from_cache);
  EXPECT_EQ(warm.translations[0].output, cold.translations[0].output);

  // A translator-only entry (migrate-hipify's) holds no analyzer results and is keyed apart: the shared run
  // parses again rather than analyse without them.
  TranslateOptions other = Options();
  other.cache_directory = base_ / "cache2";
  auto translator = CreateSourceTranslator(other);
  ASSERT_TRUE(translator.ok());
  ASSERT_TRUE((*translator)->Translate(root_, {"kernel.cu"}, {}, nullptr).ok());
  const Run after_translator_only = Shared(other, {"kernel.cu"});
  EXPECT_EQ(after_translator_only.parses, 1u);
  EXPECT_EQ(FindingKeys(after_translator_only.analysis), FindingKeys(cold.analysis));
}

// Counts the matches of each function instantiation and of the return statements in instantiated bodies.
class InstantiationVisits : public ParseConsumer, public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) override {
    using namespace clang::ast_matchers;
    finder.addMatcher(functionDecl(isTemplateInstantiation(), isDefinition()).bind("function"), this);
    finder.addMatcher(returnStmt(hasAncestor(functionDecl(isTemplateInstantiation()))).bind("return"), this);
  }
  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) override {
    if (const auto* function = result.Nodes.getNodeAs<clang::FunctionDecl>("function")) {
      std::string name;
      llvm::raw_string_ostream out(name);
      function->getNameForDiagnostic(out, function->getASTContext().getPrintingPolicy(), true);
      ++functions[out.str()];
    }
    if (result.Nodes.getNodeAs<clang::ReturnStmt>("return")) ++returns;
  }
  std::map<std::string, int> functions;
  int returns = 0;
};

// Sema hands each function it instantiates to the parse's consumer, and the matchers reach the same function
// through its template: the parse visits it once (a kernel template's shared memory was counted twice, 9cb7070).
TEST_F(SharedParseTest, EachTemplateInstantiationIsMatchedOnce) {
  Write("unit.cpp",
        "template <int N> int twice() { return N * 2; }\n"
        "template <typename T> struct Box { int size() const { return sizeof(T); } };\n"
        "namespace ns { template <typename T> T same(T v) { return v; } }\n"
        "template int twice<7>();\n"
        "int use() { Box<char> box; return twice<3>() + box.size() + ns::same(1); }\n");
  for (const bool instantiations_only : {false, true}) {
    UnitParseRequest request;
    request.root = root_;
    request.file = root_ / "unit.cpp";
    request.args = {"-xc++", "-std=c++17"};
    request.instantiations_only = instantiations_only;
    InstantiationVisits visits;
    const UnitParseResult parsed = ParseUnit(request, {&visits});
    ASSERT_TRUE(parsed.parsed) << parsed.first_error;
    const std::map<std::string, int> once = {
        {"Box<char>::size", 1}, {"ns::same<int>", 1}, {"twice<3>", 1}, {"twice<7>", 1}};
    EXPECT_EQ(visits.functions, once) << "instantiations_only " << instantiations_only;
    EXPECT_EQ(visits.returns, 4) << "instantiations_only " << instantiations_only;
  }
}

}  // namespace
}  // namespace hipforge::translate
