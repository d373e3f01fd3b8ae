// Compile arguments from data (job options, a repository's compile_commands.json): the allow-list, the
// re-rooting of a database written elsewhere, per-unit provenance and configurations, and the hostile cases
// of issue 11 item 2 (no file written, no host file's contents in any output).
#include "worker/translate/frontend/compile_arguments.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "worker/translate/analyze/analyzer.h"
#include "worker/translate/core/source_translator.h"
#include "worker/translate/core/unit_arguments.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

class CompileArgumentsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() / ("hipforge-args-test-" + std::to_string(std::random_device{}()));
    root_ = base_ / "tree";
    outside_ = base_ / "outside";
    fs::create_directories(root_ / "src");
    fs::create_directories(root_ / "include");
    fs::create_directories(outside_);
    root_ = fs::canonical(root_);
    outside_ = fs::canonical(outside_);
    // A host file whose contents must never appear anywhere (a stand-in for /etc/hostname).
    Write(outside_ / "secret.h", "hostile_secret_token_31337\n");
  }
  void TearDown() override { fs::remove_all(base_); }

  static void Write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }

  TranslateOptions Options() {
    TranslateOptions options;
    options.jobs = 1;
    options.frontend.shim_directory = base_ / "shims";
    options.pch_directory = base_ / "pch";
    return options;
  }

  static std::string Everything(const std::vector<FileTranslation>& results) {
    std::ostringstream all;
    for (const auto& result : results) {
      all << result.path << result.output << result.fallback_reason;
      for (const auto& finding : result.diagnostics) all << finding.message << finding.fix;
      for (const auto& config : result.arguments) {
        for (const auto& arg : config.used) all << arg.argument;
        for (const auto& arg : config.rejected) all << arg.argument << arg.source;
      }
    }
    return all.str();
  }

  static bool Contains(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
  }

  fs::path base_, root_, outside_;
};

TEST_F(CompileArgumentsTest, AllowListKeepsParsingFlagsInsideTheTree) {
  const ArgumentCheck check = AllowListArguments(
      {"-DUSE_CUBLAS", "-D", "N=4", "-UOLD", "-Iinclude", "-I", root_.string() + "/src", "--include-path=include",
       "-std=c++17", "-fno-exceptions", "-O3", "-c", "-o", "a.o", "-gencode", "arch=compute_80,code=sm_80"},
      root_, root_);
  EXPECT_TRUE(Contains(check.kept, "-DUSE_CUBLAS"));
  EXPECT_TRUE(Contains(check.kept, "-DN=4"));
  EXPECT_TRUE(Contains(check.kept, "-UOLD"));
  EXPECT_TRUE(Contains(check.kept, "-I" + (root_ / "include").string()));
  EXPECT_TRUE(Contains(check.kept, "-I" + (root_ / "src").string()));
  EXPECT_TRUE(Contains(check.kept, "-std=c++17"));
  EXPECT_TRUE(Contains(check.kept, "-fno-exceptions"));
  EXPECT_TRUE(check.rejected.empty()) << check.rejected.front().argument;
  EXPECT_TRUE(Contains(check.ignored, "-o a.o"));
}

TEST_F(CompileArgumentsTest, AllowListRefusesFlagsThatWriteReadOrLoad) {
  const ArgumentCheck check =
      AllowListArguments({"--serialize-diagnostics", (base_ / "diag").string(), "-Xclang", "-dependency-file",
                          "-Xclang", (base_ / "deps").string(), "-include", (outside_ / "secret.h").string(), "-I/etc",
                          "-I../outside", "-MD", "-MF", (base_ / "mf").string(), "@" + (outside_ / "secret.h").string(),
                          "-fplugin=/tmp/x.so", "-std=c++17;rm", "-isystem", "/usr/include"},
                         root_, root_);
  EXPECT_TRUE(check.kept.empty()) << check.kept.front();
  std::string rejected;
  for (const auto& r : check.rejected) rejected += r.argument + "|";
  for (const std::string expected : {"--serialize-diagnostics", "-Xclang -dependency-file", "-include", "-I/etc",
                                     "-I../outside", "-MF", "@", "-fplugin", "-std=c++17;rm", "-isystem/usr/include"}) {
    EXPECT_NE(rejected.find(expected), std::string::npos) << expected << " not rejected: " << rejected;
  }
}

TEST_F(CompileArgumentsTest, SymlinkedIncludeDirOutOfTheTreeIsRefused) {
  fs::create_directory_symlink(outside_, root_ / "include" / "escape");
  const ArgumentCheck check = AllowListArguments({"-Iinclude/escape"}, root_, root_);
  EXPECT_TRUE(check.kept.empty());
  ASSERT_EQ(check.rejected.size(), 1u);
  EXPECT_EQ(check.rejected[0].reason, "path outside the repository tree");
}

TEST_F(CompileArgumentsTest, CompileCommandsFromAnotherMachineAreRerooted) {
  Write(root_ / "src/a.cu", "int main() { return 0; }\n");
  Write(root_ / "compile_commands.json", R"([{"directory": "/home/someone/proj/build",
    "command": "/usr/local/cuda/bin/nvcc -DUSE_X -I/home/someone/proj/include -I../src -c /home/someone/proj/src/a.cu",
    "file": "/home/someone/proj/src/a.cu"}])");
  auto commands = ReadCompileCommands(root_ / "compile_commands.json", root_, ArgumentSource::kCompileDatabase);
  ASSERT_TRUE(commands.ok()) << commands.status();
  ASSERT_EQ(commands->size(), 1u);
  EXPECT_EQ((*commands)[0].file, root_ / "src/a.cu");
  EXPECT_EQ((*commands)[0].directory, root_ / "build");
  EXPECT_TRUE(Contains((*commands)[0].arguments, "-I" + (root_ / "include").string()));
  const ArgumentCheck check = AllowListArguments((*commands)[0].arguments, root_, (*commands)[0].directory);
  EXPECT_TRUE(Contains(check.kept, "-DUSE_X"));
  EXPECT_TRUE(Contains(check.kept, "-I" + (root_ / "src").string()));
}

// A unit compiled for two targets with different defines: both configurations are parsed and each one's
// code is translated (the CUBLAS branch and the CURAND branch), and the report says where each -D came from.
TEST_F(CompileArgumentsTest, EveryConfigurationOfAUnitIsParsedAndReported) {
  Write(root_ / "src/a.cu",
        "#include <cuda_runtime.h>\n"
        "#ifdef WITH_A\nvoid a(float* p) { cudaMalloc(&p, 4); }\n#endif\n"
        "#ifdef WITH_B\nvoid b(float* p) { cudaFree(p); }\n#endif\n"
        "#if !defined(WITH_A) && !defined(WITH_B)\nthis does not parse\n#endif\n");
  const std::string file = (root_ / "src/a.cu").string();
  Write(root_ / "compile_commands.json",
        "[{\"directory\": \"" + root_.string() + "\", \"command\": \"nvcc -DWITH_A -c " + file + "\", \"file\": \"" +
            file + "\"},\n {\"directory\": \"" + root_.string() + "\", \"command\": \"nvcc -DWITH_B -c " + file +
            "\", \"file\": \"" + file + "\"}]");
  auto translator = CreateSourceTranslator(Options());
  ASSERT_TRUE(translator.ok());
  auto results = (*translator)->Translate(root_, {"src/a.cu"}, {}, nullptr);
  ASSERT_TRUE(results.ok()) << results.status();
  const FileTranslation& unit = (*results)[0];
  EXPECT_EQ(unit.status, FileStatus::kTranslated) << unit.fallback_reason;
  EXPECT_NE(unit.output.find("hipMalloc"), std::string::npos);
  EXPECT_NE(unit.output.find("hipFree"), std::string::npos);
  ASSERT_EQ(unit.arguments.size(), 2u);
  EXPECT_EQ(unit.arguments[0].used.front().argument, "-DWITH_A");
  EXPECT_EQ(unit.arguments[0].used.front().source, "compile_commands.json");
  EXPECT_EQ(unit.arguments[1].used.front().argument, "-DWITH_B");
}

// Issue 11 item 2: a job's --serialize-diagnostics / -Xclang -dependency-file write nothing, -include of a host
// file and #include "/abs/host/file" put none of its contents into the translation or its diagnostics.
TEST_F(CompileArgumentsTest, HostileJobArgumentsWriteNothingAndLeakNothing) {
  Write(root_ / "src/a.cu", "#include <cuda_runtime.h>\n#include \"" + (outside_ / "secret.h").string() +
                                "\"\nint main() { int* d; cudaMalloc(&d, 4); return 0; }\n");
  Write(root_ / "src/link.cu", "#include \"escape.h\"\nint f() { return 0; }\n");
  fs::create_symlink(outside_ / "secret.h", root_ / "src" / "escape.h");
  TranslateOptions options = Options();
  options.frontend.confine_to_tree = true;
  options.frontend.untrusted_args = {"--serialize-diagnostics",
                                     (base_ / "diag.dia").string(),
                                     "-Xclang",
                                     "-dependency-file",
                                     "-Xclang",
                                     (base_ / "deps.d").string(),
                                     "-Xclang",
                                     "-MT",
                                     "-Xclang",
                                     "x",
                                     "-include",
                                     (outside_ / "secret.h").string(),
                                     "-DKEPT=1"};
  auto translator = CreateSourceTranslator(options);
  ASSERT_TRUE(translator.ok());
  auto results = (*translator)->Translate(root_, {"src/a.cu", "src/link.cu"}, {}, nullptr);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_FALSE(fs::exists(base_ / "diag.dia"));
  EXPECT_FALSE(fs::exists(base_ / "deps.d"));
  const std::string all = Everything(*results);
  EXPECT_EQ(all.find("hostile_secret_token_31337"), std::string::npos) << all;
  ASSERT_FALSE(results->empty());
  const auto& report = (*results)[0].arguments.at(0);
  EXPECT_EQ(report.used.back().argument, "-DKEPT=1");
  EXPECT_EQ(report.used.back().source, "job options");
  EXPECT_GE(report.rejected.size(), 3u);

  // The analyzer parses with the same rules.
  AnalyzeOptions analyze;
  analyze.frontend = options.frontend;
  analyze.jobs = 1;
  auto analyzer = CreateAnalyzer(analyze);
  ASSERT_TRUE(analyzer.ok());
  auto analysis = (*analyzer)->Analyze(root_, {"src/a.cu", "src/link.cu"}, nullptr);
  ASSERT_TRUE(analysis.ok()) << analysis.status();
  EXPECT_FALSE(fs::exists(base_ / "diag.dia"));
  EXPECT_FALSE(fs::exists(base_ / "deps.d"));
  std::string analyzed;
  for (const auto& file : analysis->files) analyzed += file.ast_skipped_reason;
  for (const auto& finding : analysis->findings) analyzed += finding.message;
  EXPECT_EQ(analyzed.find("hostile_secret_token_31337"), std::string::npos) << analyzed;
}

// A compile_commands.json in the uploaded tree is as hostile as job options.
TEST_F(CompileArgumentsTest, HostileCompileCommandsInTheTreeAreAllowListed) {
  const std::string file = (root_ / "src/a.cu").string();
  Write(root_ / "src/a.cu", "int main() { return 0; }\n");
  Write(root_ / "compile_commands.json",
        "[{\"directory\": \"" + root_.string() + "\", \"arguments\": [\"nvcc\", \"--serialize-diagnostics\", \"" +
            (base_ / "db.dia").string() + "\", \"@" + (outside_ / "secret.h").string() + "\", \"-include\", \"" +
            (outside_ / "secret.h").string() + "\", \"-c\", \"" + file + "\"], \"file\": \"" + file + "\"}]");
  TranslateOptions options = Options();
  options.frontend.confine_to_tree = true;
  auto translator = CreateSourceTranslator(options);
  ASSERT_TRUE(translator.ok());
  auto results = (*translator)->Translate(root_, {"src/a.cu"}, {}, nullptr);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_FALSE(fs::exists(base_ / "db.dia"));
  EXPECT_EQ(Everything(*results).find("hostile_secret_token_31337"), std::string::npos);
  ASSERT_EQ((*results)[0].arguments.size(), 1u);
  EXPECT_EQ((*results)[0].arguments[0].rejected.size(), 3u);
}

}  // namespace
}  // namespace hipforge::translate
