// Build-aware translation (issue 14 item 1): per-unit arguments from a project's CMake (configured once,
// sandboxed) and Makefile (make -n), reported per unit with their source.
#include "worker/translate/repo/build_commands.h"

#include <gtest/gtest.h>

#include "tests/repo/repo_test_support.h"
#include "worker/userbuild/sandbox.h"

#include <fstream>

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

TEST(BuildCommandsTest, MakeDryRunLinesBecomeCompileCommands) {
  const std::string output =
      "make: Entering directory '/src'\n"
      "nvcc -O3 -DUSE_CUBLAS -Iinc -c kernels.cu -o kernels.o\n"
      "make[1]: Entering directory '/src/lib'\n"
      "g++ -std=c++17 -DLIB=1 -c util.cpp -o util.o\n"
      "make[1]: Leaving directory '/src/lib'\n"
      "cd tools && /usr/bin/clang++ -c 'a b.cc'\n"
      "echo nvcc -c not_a_command.cu\n"
      "nvcc -o app kernels.o util.o\n";
  const nlohmann::json commands = CompileCommandsFromMakeDryRun(output, "/src");
  ASSERT_EQ(commands.size(), 3u) << commands.dump(1);
  EXPECT_EQ(commands[0]["file"], "/src/kernels.cu");
  EXPECT_EQ(commands[0]["directory"], "/src");
  EXPECT_EQ(commands[0]["arguments"][2], "-DUSE_CUBLAS");
  EXPECT_EQ(commands[1]["file"], "/src/lib/util.cpp");
  EXPECT_EQ(commands[2]["file"], "/src/tools/a b.cc");
}

TEST(BuildCommandsTest, CompilerLinesBehindAnEnvironmentPrefixAreCompileCommandsToo) {
  // issue 29: `PATH=... nvcc ...` lines were skipped, so the unit got g++ flags.
  const std::string output =
      "PATH=/usr/local/cuda/bin:/usr/bin NVCC_APPEND_FLAGS=-lineinfo nvcc -DFROM_MAKE=1 -c main.cu -o main.o\n"
      "env CUDA_HOME=/usr/local/cuda nvcc -DTOOL=2 -c tool.cu -o tool.o\n"
      "FLAGS=x echo nvcc -c not_a_command.cu\n";
  const nlohmann::json commands = CompileCommandsFromMakeDryRun(output, "/src");
  ASSERT_EQ(commands.size(), 2u) << commands.dump(1);
  EXPECT_EQ(commands[0]["file"], "/src/main.cu");
  EXPECT_EQ(commands[0]["arguments"][0], "nvcc");
  EXPECT_EQ(commands[0]["arguments"][1], "-DFROM_MAKE=1");
  EXPECT_EQ(commands[1]["file"], "/src/tool.cu");
}

TEST(BuildCommandsTest, EachProgramsUnitsGetTheirOwnProgramsDefines) {
  // issue 29: with the Makefiles in sub-directories nothing was discovered, and the build-file scan then applied
  // every -D of every file to every unit (another program's -DUSE_X= broke a parse).
  {
    BoostProcessLauncher probe;
    if (!validate::ProbeSandbox(probe, "/usr/bin/bwrap").ok()) GTEST_SKIP() << "no sandbox";
  }
  TempDir dir;
  WriteText(dir.path() / "src/alpha/Makefile", "all:\n\tnvcc -DALPHA_ONLY=1 -c alpha.cu -o alpha.o\n");
  WriteText(dir.path() / "src/alpha/alpha.cu", "__global__ void a() {}\n");
  WriteText(dir.path() / "src/beta/Makefile", "all:\n\tnvcc -DBETA_ONLY=2 -c beta.cu -o beta.o\n");
  WriteText(dir.path() / "src/beta/beta.cu", "__global__ void b() {}\n");
  BuildDiscoveryOptions options;
  options.scratch = dir.path() / "scratch";
  BoostProcessLauncher launcher;
  BuildDiscovery discovery = DiscoverBuildCommands(launcher, dir.path() / "src", options);
  ASSERT_TRUE(discovery.compile_commands.has_value()) << (discovery.notes.empty() ? "" : discovery.notes.back());
  const nlohmann::json commands = nlohmann::json::parse(std::ifstream(*discovery.compile_commands));
  ASSERT_EQ(commands.size(), 2u) << commands.dump(1);
  for (const auto& command : commands) {
    const std::string file = command["file"];
    const std::string words = command["arguments"].dump();
    if (file.ends_with("alpha.cu")) {
      EXPECT_NE(words.find("-DALPHA_ONLY=1"), std::string::npos) << words;
      EXPECT_EQ(words.find("BETA_ONLY"), std::string::npos) << words;
    } else {
      EXPECT_NE(words.find("-DBETA_ONLY=2"), std::string::npos) << words;
      EXPECT_EQ(words.find("ALPHA_ONLY"), std::string::npos) << words;
    }
  }
  EXPECT_EQ(discovery.notes.size(), 2u) << "one note per build root";
}

TEST(BuildCommandsTest, CudaSwitchesOfACMakeProjectAreFound) {
  const auto names = CudaOptionsInCMake(
      "option(GGML_CUDA \"ggml: use CUDA\" OFF)\noption(GGML_METAL \"m\" OFF)\n"
      "option(GGML_CUDA_FORCE_MMQ \"mmq\" OFF)\n"
      "option( USE_CUBLAS \"x\" OFF)\n");
  EXPECT_EQ(names, (std::vector<std::string>{"GGML_CUDA", "USE_CUBLAS"}));
}

constexpr const char* kGuardedSource =
    "#include \"util.cuh\"\n#ifdef USE_CUBLAS\n#include <cublas_v2.h>\n#else\n#error \"needs USE_CUBLAS\"\n#endif\n"
    "int main() { cublasHandle_t h; cublasCreate(&h); return util(); }\n";

// Defines and include dirs only the build knows (a target's USE_CUBLAS, a `headers/` dir no guess finds)
// reach the parse: the unit goes through Clang, the cuBLAS call is translated, the report names the source.
void ExpectBuildArgumentsReachTheParse(const fs::path& input, const std::string& source) {
  TempDir out;
  MigrationOptions options;
  options.translate.jobs = 1;
  options.analyze.jobs = 1;
  options.translate.cache_directory = out.path() / "cache";
  auto result = MigrateRepository(input, out.path() / "hip", options, nullptr);
  ASSERT_TRUE(result.ok()) << result.status();
  const FileTranslation* unit = nullptr;
  for (const auto& translation : result->translations) {
    if (translation.path == "main.cu") unit = &translation;
  }
  ASSERT_NE(unit, nullptr);
  std::string notes;
  for (const auto& note : result->notes) notes += note + "\n";
  EXPECT_EQ(unit->status, FileStatus::kTranslated) << unit->fallback_reason << "\nnotes:\n" << notes;
  EXPECT_NE(unit->output.find("hipblasCreate"), std::string::npos);
  ASSERT_FALSE(unit->arguments.empty());
  bool define_from_build = false;
  for (const auto& arg : unit->arguments[0].used) {
    if (arg.argument == "-DUSE_CUBLAS" && arg.source == source) define_from_build = true;
  }
  EXPECT_TRUE(define_from_build) << notes;
}

TEST(BuildCommandsTest, MakefileDefinesReachTheParse) {
  TempDir input;
  WriteText(input.path() / "headers/util.cuh", "#pragma once\ninline int util() { return 1; }\n");
  WriteText(input.path() / "main.cu", kGuardedSource);
  WriteText(input.path() / "Makefile",
            "FLAGS := -DUSE_CUBLAS -Iheaders\napp: main.cu\n\tnvcc $(FLAGS) -c main.cu -o main.o\n");
  ExpectBuildArgumentsReachTheParse(input.path(), "make -n");
}

TEST(BuildCommandsTest, CMakeTargetDefinesReachTheParse) {
  TempDir input;
  WriteText(input.path() / "headers/util.cuh", "#pragma once\ninline int util() { return 1; }\n");
  WriteText(input.path() / "main.cu", kGuardedSource);
  WriteText(input.path() / "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\nproject(demo LANGUAGES CXX CUDA)\n"
            "option(DEMO_USE_CUDA \"use CUDA\" OFF)\nif(DEMO_USE_CUDA)\n  add_executable(app main.cu)\n"
            "  target_compile_definitions(app PRIVATE USE_CUBLAS)\n  target_include_directories(app PRIVATE headers)\n"
            "endif()\n");
  ExpectBuildArgumentsReachTheParse(input.path(), "cmake");
}

}  // namespace
}  // namespace hipforge::translate
