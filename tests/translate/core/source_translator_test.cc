// Library-level behaviour of the translator: headers in context, extra edits, cache, compile database.
#include "worker/translate/core/source_translator.h"

#include <gtest/gtest.h>

#include <barrier>
#include <fstream>
#include <random>
#include <thread>

#include "worker/translate/core/token_sites.h"
#include "worker/translate/frontend/c_literals.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

// One integer-literal parser (frontend/c_literals.h) for the analyzer's token rules and the token pass's
// full-mask test. The token pass used std::stoull before: no digit separators, no 0b literals.
TEST(CLiterals, OneIntegerParserForAnalyzerAndTokenPass) {
  unsigned long long value = 0;
  EXPECT_TRUE(ParseIntegerLiteral("0xFFFFFFFFu", &value));
  EXPECT_EQ(value, 0xffffffffULL);
  EXPECT_TRUE(ParseIntegerLiteral("1'000ull", &value));
  EXPECT_EQ(value, 1000u);
  EXPECT_TRUE(ParseIntegerLiteral("0b101", &value));
  EXPECT_EQ(value, 5u);
  EXPECT_TRUE(ParseIntegerLiteral("017", &value));
  EXPECT_EQ(value, 15u);
  EXPECT_TRUE(ParseIntegerLiteral("32", &value));
  EXPECT_EQ(value, 32u);
  EXPECT_FALSE(ParseIntegerLiteral("1.5f", &value));
  EXPECT_FALSE(ParseIntegerLiteral("warpSize", &value));
  EXPECT_FALSE(ParseIntegerLiteral("0x", &value));
  EXPECT_FALSE(ParseIntegerLiteral("0x1ffffffffffffffff", &value));  // 65 bits
  EXPECT_TRUE(IsFullWarpMaskLiteral("0xffffffff"));
  EXPECT_TRUE(IsFullWarpMaskLiteral("(~0u)"));
  EXPECT_TRUE(IsFullWarpMaskLiteral("-1"));
  // Where the copies disagreed (HB102 took these as full masks, the token pass did not):
  EXPECT_TRUE(IsFullWarpMaskLiteral("0xFFFF'FFFFu"));
  EXPECT_TRUE(IsFullWarpMaskLiteral("0b11111111111111111111111111111111"));
  EXPECT_FALSE(IsFullWarpMaskLiteral("0x0000ffff"));
  EXPECT_FALSE(IsFullWarpMaskLiteral("mask"));
}

class SourceTranslatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("hipforge-translator-test-" + std::to_string(std::random_device{}()));
    fs::create_directories(root_ / "src");
    fs::create_directories(root_ / "include");
  }
  void TearDown() override { fs::remove_all(root_); }

  void Write(const std::string& relative, const std::string& text) { std::ofstream(root_ / relative) << text; }

  TranslateOptions Options() {
    TranslateOptions options;
    options.hip_kernel_execution_syntax = true;
    options.jobs = 2;
    options.frontend.shim_directory = root_ / ".shims";
    options.pch_directory = root_ / ".pch";
    return options;
  }

  const FileTranslation* Find(const std::vector<FileTranslation>& results, const std::string& path) {
    for (const auto& result : results) {
      if (result.path == path) return &result;
    }
    return nullptr;
  }

  fs::path root_;
};

constexpr const char* kSharedHeader = R"(#pragma once
#include <cuda_runtime.h>
__global__ void shared_kernel(float* out) { out[threadIdx.x] = 0.f; }
inline void launch_shared(float* data, cudaStream_t stream) { shared_kernel<<<1, 32, 0, stream>>>(data); }
)";

TEST_F(SourceTranslatorTest, HeaderIncludedByTwoUnitsIsTranslatedOnceInContext) {
  Write("include/shared.cuh", kSharedHeader);
  Write("src/a.cu", "#include \"shared.cuh\"\nint main() { float* d; cudaMalloc(&d, 4); launch_shared(d, 0); }\n");
  Write("src/b.cu", "#include \"shared.cuh\"\nvoid other() { float* d; cudaFree(d); }\n");
  auto translator = CreateSourceTranslator(Options());
  ASSERT_TRUE(translator.ok()) << translator.status();
  auto results = (*translator)->Translate(root_, {"src/a.cu", "src/b.cu"}, {}, nullptr);
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 3u);
  EXPECT_EQ((*results)[0].path, "src/a.cu");
  EXPECT_EQ((*results)[1].path, "src/b.cu");
  const FileTranslation* header = Find(*results, "include/shared.cuh");
  ASSERT_NE(header, nullptr);
  EXPECT_EQ(header->status, FileStatus::kTranslated);
  EXPECT_NE(header->output.find("hipLaunchKernelGGL(shared_kernel, dim3(1), dim3(32), 0, stream, data)"),
            std::string::npos)
      << header->output;
  EXPECT_NE(header->output.find("hipStream_t stream"), std::string::npos);
  // One launch in the header, although two units saw it.
  EXPECT_EQ(header->stats.converted.at("launch"), 1);
  EXPECT_NE((*results)[0].output.find("hipMalloc(&d, 4)"), std::string::npos);
  EXPECT_NE((*results)[1].output.find("hipFree(d)"), std::string::npos);
}

// nvcc includes cuda_runtime.h before a unit's first line. A C++ unit that defines a one-letter macro and then
// includes a header using the runtime without including it (HeCBench pad: host_task.cpp, `#define T double`,
// support/partitioner.h) must meet HIP's headers before its macro, or HIP's templates break.
TEST_F(SourceTranslatorTest, AUnitSeesTheRuntimeBeforeItsOwnMacros) {
  Write("include/part.h",
        "#pragma once\nstruct Part { int* list; };\n"
        "__device__ inline int first(Part* p) { return atomicAdd(p->list, 1); }\n"
        "inline void sync_part(cudaStream_t s) { cudaStreamSynchronize(s); }\n");
  Write("src/host.cpp", "#define T double\n#include \"part.h\"\nT host(Part* p) { return 0; }\n");
  auto translator = CreateSourceTranslator(Options());
  ASSERT_TRUE(translator.ok());
  auto results = (*translator)->Translate(root_, {"src/host.cpp"}, {}, nullptr);
  ASSERT_TRUE(results.ok()) << results.status();
  const FileTranslation* header = Find(*results, "include/part.h");
  const FileTranslation* unit = Find(*results, "src/host.cpp");
  ASSERT_NE(header, nullptr);
  ASSERT_NE(unit, nullptr);
  EXPECT_NE(header->output.find("#include <hip/hip_runtime.h>"), std::string::npos) << header->output;
  const size_t runtime = unit->output.find("#include <hip/hip_runtime.h>");
  ASSERT_NE(runtime, std::string::npos) << unit->output;
  EXPECT_LT(runtime, unit->output.find("#define T double")) << unit->output;
}

TEST_F(SourceTranslatorTest, ExtraEditsAreAppliedWithTheTranslatorsOwn) {
  Write("src/a.cu", "#include <cuda_runtime.h>\nint main() { int* d; cudaMalloc(&d, 4); return 0; }\n");
  auto translator = CreateSourceTranslator(Options());
  ASSERT_TRUE(translator.ok());
  EditsByFile extra;
  const std::string text = "return 0;";
  const uint32_t offset =
      static_cast<uint32_t>(std::string("#include <cuda_runtime.h>\nint main() { int* d; cudaMalloc(&d, 4); ").size());
  extra["src/a.cu"].push_back({offset, static_cast<uint32_t>(text.size()), "return 1;", "HB999"});
  auto results = (*translator)->Translate(root_, {"src/a.cu"}, extra, nullptr);
  ASSERT_TRUE(results.ok());
  EXPECT_EQ((*results)[0].output, "#include <hip/hip_runtime.h>\nint main() { int* d; hipMalloc(&d, 4); return 1; }\n");
  EXPECT_TRUE((*results)[0].changed_by.count("HB999"));
  EXPECT_TRUE((*results)[0].changed_by.count("runtime"));
}

TEST_F(SourceTranslatorTest, CacheReturnsTheSameOutputAndNoticesHeaderChanges) {
  Write("include/shared.cuh", kSharedHeader);
  Write("src/a.cu", "#include \"shared.cuh\"\nint main() { float* d; cudaMalloc(&d, 4); }\n");
  TranslateOptions options = Options();
  options.cache_directory = root_ / ".cache";
  auto translator = CreateSourceTranslator(options);
  ASSERT_TRUE(translator.ok());
  auto first = (*translator)->Translate(root_, {"src/a.cu"}, {}, nullptr);
  auto second = (*translator)->Translate(root_, {"src/a.cu"}, {}, nullptr);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_FALSE((*first)[0].from_cache);
  EXPECT_TRUE((*second)[0].from_cache);
  EXPECT_EQ((*first)[0].output, (*second)[0].output);
  Write("include/shared.cuh", std::string(kSharedHeader) + "// changed\n");
  auto third = (*translator)->Translate(root_, {"src/a.cu"}, {}, nullptr);
  ASSERT_TRUE(third.ok());
  EXPECT_FALSE((*third)[0].from_cache);
}

TEST_F(SourceTranslatorTest, CompileDatabaseDefinesDecideWhatParses) {
  Write("src/a.cu",
        "#include <cuda_runtime.h>\n#ifndef NEEDED_DEFINE\nthis does not parse\n#endif\n"
        "int main() { int* d; cudaMalloc(&d, 4); return 0; }\n");
  Write("compile_commands.json", "[{\"directory\": \"" + root_.string() +
                                     "\", \"command\": \"nvcc -DNEEDED_DEFINE -c src/a.cu -o a.o\", "
                                     "\"file\": \"src/a.cu\"}]");
  TranslateOptions without = Options();
  without.guess_build_flags = false;
  without.find_compile_commands = false;
  auto plain = CreateSourceTranslator(without);
  ASSERT_TRUE(plain.ok());
  auto fallback = (*plain)->Translate(root_, {"src/a.cu"}, {}, nullptr);
  ASSERT_TRUE(fallback.ok());
  EXPECT_EQ((*fallback)[0].status, FileStatus::kFallback);
  EXPECT_NE((*fallback)[0].output.find("hipMalloc"), std::string::npos);

  TranslateOptions with = Options();
  with.compilation_database = root_;
  auto database = CreateSourceTranslator(with);
  ASSERT_TRUE(database.ok()) << database.status();
  auto parsed = (*database)->Translate(root_, {"src/a.cu"}, {}, nullptr);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ((*parsed)[0].status, FileStatus::kTranslated) << (*parsed)[0].fallback_reason;

  // The tree's own compile_commands.json is found without being named.
  auto found = CreateSourceTranslator(Options());
  ASSERT_TRUE(found.ok());
  auto found_parsed = (*found)->Translate(root_, {"src/a.cu"}, {}, nullptr);
  ASSERT_TRUE(found_parsed.ok());
  EXPECT_EQ((*found_parsed)[0].status, FileStatus::kTranslated) << (*found_parsed)[0].fallback_reason;
  ASSERT_EQ((*found_parsed)[0].arguments.size(), 1u);
  EXPECT_EQ((*found_parsed)[0].arguments[0].used.front().argument, "-DNEEDED_DEFINE");
  EXPECT_EQ((*found_parsed)[0].arguments[0].used.front().source, "compile_commands.json");
}

TEST_F(SourceTranslatorTest, DefinesFromBuildFilesAreGuessedWithoutADatabase) {
  Write("CMakeLists.txt", "add_definitions(-DNEEDED_DEFINE)\n");
  Write("src/a.cu",
        "#include <cuda_runtime.h>\n#ifndef NEEDED_DEFINE\nthis does not parse\n#endif\n"
        "int main() { int* d; cudaMalloc(&d, 4); return 0; }\n");
  auto translator = CreateSourceTranslator(Options());
  ASSERT_TRUE(translator.ok());
  auto results = (*translator)->Translate(root_, {"src/a.cu"}, {}, nullptr);
  ASSERT_TRUE(results.ok());
  EXPECT_EQ((*results)[0].status, FileStatus::kTranslated) << (*results)[0].fallback_reason;
}

// Parse returns everything the call needs (root, unit arguments, facts) and Compose reads only that: two
// calls on one translator at the same time, over two different trees, give what each gives alone. (With the
// root and arguments kept in members, as before, the second call's root was read by the first one's units.)
TEST_F(SourceTranslatorTest, OneTranslatorServesConcurrentCalls) {
  // Several units per tree, so that each call's parse is still running when the other one starts.
  const fs::path tree_a = root_ / "tree_a", tree_b = root_ / "tree_b";
  fs::create_directories(tree_a / "src");
  fs::create_directories(tree_b / "kernels");
  std::ofstream(tree_a / "src/shared.cuh") << kSharedHeader;
  struct Call {
    fs::path root;
    std::vector<fs::path> files;
  };
  Call calls[] = {{tree_a, {}}, {tree_b, {}}};
  for (int unit = 0; unit < 4; ++unit) {
    const std::string n = std::to_string(unit);
    std::ofstream(tree_a / ("src/a" + n + ".cu"))
        << "#include \"shared.cuh\"\nint main" << n << "() { float* d; cudaMalloc(&d, 4); launch_shared(d, 0); }\n";
    std::ofstream(tree_b / ("kernels/b" + n + ".cu"))
        << "#include <cuda_runtime.h>\n__global__ void k" << n << "(int* x) { x[threadIdx.x] = " << n << "; }\n"
        << "void run" << n << "(int* x, cudaStream_t s) { k" << n
        << "<<<2, 64, 0, s>>>(x); cudaStreamSynchronize(s); }\n";
    calls[0].files.push_back("src/a" + n + ".cu");
    calls[1].files.push_back("kernels/b" + n + ".cu");
  }
  auto translator = CreateSourceTranslator(Options());
  ASSERT_TRUE(translator.ok()) << translator.status();
  SourceTranslator& shared = **translator;
  auto outputs = [](const absl::StatusOr<std::vector<FileTranslation>>& results) {
    std::vector<std::string> text;
    if (!results.ok()) return std::vector<std::string>{"error: " + results.status().ToString()};
    for (const FileTranslation& file : *results) {
      text.push_back(file.path + " " + std::string(report::FileStatusName(file.status)) + " " + file.fallback_reason +
                     "\n" + file.output);
    }
    return text;
  };
  std::vector<std::string> alone[2];
  for (int i = 0; i < 2; ++i) alone[i] = outputs(shared.Translate(calls[i].root, calls[i].files, {}, nullptr));
  ASSERT_EQ(alone[0].size(), 5u) << "the a*.cu and their header";
  ASSERT_EQ(alone[1].size(), 4u);
  EXPECT_NE(alone[1][0].find("hipStreamSynchronize"), std::string::npos) << alone[1][0];

  // Both halves at once, and Parse/Compose split with the other call's Parse in between.
  for (int round = 0; round < 2; ++round) {
    std::vector<std::string> together[2];
    std::barrier start(2);
    auto run = [&](int i) {
      start.arrive_and_wait();
      if (round % 2 == 0) {
        together[i] = outputs(shared.Translate(calls[i].root, calls[i].files, {}, nullptr));
        return;
      }
      absl::StatusOr<ParsedSources> parsed = shared.Parse(calls[i].root, calls[i].files, nullptr, nullptr);
      start.arrive_and_wait();  // both parsed before either composes
      together[i] = parsed.ok() ? outputs(shared.Compose(*parsed, {}, nullptr))
                                : std::vector<std::string>{parsed.status().ToString()};
    };
    std::thread first(run, 0), second(run, 1);
    first.join();
    second.join();
    EXPECT_EQ(together[0], alone[0]) << "round " << round;
    EXPECT_EQ(together[1], alone[1]) << "round " << round;
  }
}

}  // namespace
}  // namespace hipforge::translate
