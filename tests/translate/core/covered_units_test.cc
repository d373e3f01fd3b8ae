// Units that only include and instantiate (TranslateOptions::skip_covered_units): ggml's template-instance units are
// an #include of a kernel header and a macro call. One whose headers an earlier unit of the same configuration
// parsed is not parsed; the translator's output and diagnostics and the analyzer's findings are those of parsing
// every unit, and the report names the unit that covered it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>

#include "tests/translate/core/temp_tree_test.h"
#include "worker/translate/analyze/analyzer.h"
#include "worker/translate/core/source_translator.h"
#include "worker/translate/frontend/unit_parser.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

// A kernel template with a warp call and a device-only block, its launcher with a launch, an API call and an
// argument rewrite, an inactive branch, and the macro the instance units instantiate the launcher with.
constexpr const char* kKernels = R"(#pragma once
#include <cuda_runtime.h>
template <typename T> __global__ void scale(T* p, T by) {
  int lane = threadIdx.x % 32;
#ifdef __CUDA_ARCH__
  by = __shfl_sync(0xffffffff, by, 0);
#endif
  p[lane] = __shfl_sync(0xffffffff, p[lane], 0) * by;
}
__constant__ float table[4];
template <typename T> int launch_scale(T* p, T by, const float* host) {
  cudaMemcpyToSymbol(table, host, sizeof(table));
  scale<T><<<1, 32>>>(p, by);
  return (int)cudaGetLastError();
}
#ifdef NEVER_DEFINED
inline void unused_branch() { cudaDeviceReset(); }
#endif
#define INSTANTIATE_SCALE(T) template int launch_scale<T>(T*, T, const float*)
extern INSTANTIATE_SCALE(double);
extern INSTANTIATE_SCALE(int);
)";

constexpr const char* kMain = R"(#include "kernels.cuh"
__global__ void fill(float* p) { p[threadIdx.x] = 1.f; }
int run(float* d, const float* host) { return launch_scale<float>(d, 2.f, host); }
)";

// Another unit with GPU code of its own that reaches the same __CUDA_ARCH__ block.
constexpr const char* kOther = R"(#include "kernels.cuh"
__global__ void zero(int* p) { p[threadIdx.x] = 0; }
)";

class CoveredUnitsTest : public TempTreeTest {
 protected:
  void SetUp() override {
    MakeTree("covered-units");
    Write("kernels.cuh", kKernels);
    Write("main.cu", kMain);
    Write("other.cu", kOther);
    Write("instances/scale_double.cu", "// generated\n\n#include \"../kernels.cuh\"\n\nINSTANTIATE_SCALE(double);\n");
    Write("instances/scale_int.cu", "#include \"../kernels.cuh\"\nINSTANTIATE_SCALE(int);\n");
  }
  TranslateOptions Options(bool skip) {
    TranslateOptions options = TreeOptions();
    options.skip_covered_units = skip;
    return options;
  }

  struct Run {
    std::map<std::string, std::string> outputs;
    std::map<std::string, int> statuses;
    std::vector<std::string> diagnostics;  // the translator's, per file
    std::vector<std::string> findings;     // the analyzer's (through the shared parse, and its device side)
    std::map<std::string, std::string> covered_by;
    uint64_t parses = 0;  // the translator's and the analyzer's, host and device side
  };

  // The repository pass's order: the translator parses with the analyzer's companion, the analyzer takes the
  // companion's results (and parses the device side), the translator composes.
  Run Translate(const TranslateOptions& options, const std::vector<fs::path>& files) {
    Run run;
    AnalyzeOptions analyze;
    analyze.skip_repeated_device_parses = options.skip_covered_units;
    const Engines engines = MakeEngines(options, analyze);
    const uint64_t parses = UnitParseCount();
    auto parsed = engines.translator->Parse(root_, files, engines.companion.get(), nullptr);
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    auto analysis = engines.analyzer->Analyze(root_, files, nullptr, engines.companion.get());
    EXPECT_TRUE(analysis.ok()) << analysis.status();
    run.parses = UnitParseCount() - parses;
    auto translations = engines.translator->Compose(*parsed, {}, nullptr);
    EXPECT_TRUE(translations.ok()) << translations.status();
    for (const FileTranslation& file : *translations) {
      EXPECT_NE(file.status, FileStatus::kFallback) << file.path << ": " << file.fallback_reason;
      run.outputs[file.path] = file.output;
      run.statuses[file.path] = static_cast<int>(file.status);
      if (!file.covered_by.empty()) run.covered_by[file.path] = file.covered_by;
      for (const Finding& finding : file.diagnostics) {
        run.diagnostics.push_back(DiagnosticLine(file.path, finding));
      }
    }
    for (const Finding& finding : analysis->findings) {
      run.findings.push_back(FindingLine(finding));
    }
    for (const AnalyzedFile& file : analysis->files) {
      run.findings.push_back(file.path + (file.ast_analyzed ? " AST" : " tokens: " + file.ast_skipped_reason));
    }
    return run;
  }
};

TEST_F(CoveredUnitsTest, InstanceUnitsAnEarlierUnitCoversAreNotParsedAndChangeNothing) {
  const std::vector<fs::path> files = {"main.cu", "instances/scale_double.cu", "instances/scale_int.cu", "other.cu",
                                       "kernels.cuh"};
  const Run every = Translate(Options(false), files);
  const Run skipping = Translate(Options(true), files);
  EXPECT_EQ(every.covered_by.size(), 0u);
  EXPECT_EQ(skipping.covered_by, (std::map<std::string, std::string>{{"instances/scale_double.cu", "main.cu"},
                                                                     {"instances/scale_int.cu", "main.cu"}}));
  // Host side: main.cu, other.cu and one parse of both instance units together for the analyzer's rules over their
  // instantiations (was all four). Device side: main.cu (was main.cu and other.cu, which reaches no host-skipped
  // code main.cu did not; the instance units were left out before too).
  EXPECT_EQ(every.parses, 6u);
  EXPECT_EQ(skipping.parses, 4u);
  EXPECT_EQ(skipping.outputs, every.outputs);
  EXPECT_EQ(skipping.statuses, every.statuses);
  EXPECT_EQ(skipping.diagnostics, every.diagnostics);
  EXPECT_EQ(skipping.findings, every.findings);
  // What the header's facts decide, from main.cu's parse: the symbol argument, the inactive branch.
  const std::string& header = skipping.outputs.at("kernels.cuh");
  EXPECT_NE(header.find("hipMemcpyToSymbol(HIP_SYMBOL(table)"), std::string::npos) << header;
  EXPECT_NE(header.find("hipDeviceReset"), std::string::npos) << header;
  EXPECT_NE(skipping.outputs.at("instances/scale_int.cu").find("#include <hip/hip_runtime.h>"), std::string::npos)
      << "a unit's runtime include, from its tokens";

  // A re-run with the facts cache: nothing parsed, the same again (a covered unit is decided anew, not cached).
  TranslateOptions cached = Options(true);
  cached.cache_directory = base_ / "cache";
  Translate(cached, files);
  const Run again = Translate(cached, files);
  EXPECT_EQ(again.parses, 1u) << "the device side of main.cu (the analyzer's parse cache is not given); the instance "
                                 "units' rules come from the facts cache";
  EXPECT_EQ(again.outputs, every.outputs);
  EXPECT_EQ(again.findings, every.findings);
  EXPECT_EQ(again.covered_by, skipping.covered_by);
}

TEST_F(CoveredUnitsTest, AnInstanceUnitIsParsedWithoutAnEarlierCoverOfItsConfiguration) {
  // scale_int.cu comes before main.cu; scale_double.cu is built with another define than main.cu.
  std::string database = "[";
  for (const char* unit : {"main.cu", "instances/scale_double.cu", "instances/scale_int.cu"}) {
    const std::string file = (root_ / unit).string();
    const std::string define = std::string(unit) == "instances/scale_double.cu" ? "-DWIDE " : "";
    database += std::string(database.size() > 1 ? "," : "") + "{\"directory\": \"" + root_.string() +
                "\", \"command\": \"nvcc " + define + "-c " + file + "\", \"file\": \"" + file + "\"}";
  }
  Write("compile_commands.json", database + "]");
  const std::vector<fs::path> files = {"instances/scale_int.cu", "main.cu", "instances/scale_double.cu", "kernels.cuh"};
  const Run every = Translate(Options(false), files);
  const Run skipping = Translate(Options(true), files);
  EXPECT_EQ(skipping.covered_by.size(), 0u);
  EXPECT_EQ(skipping.parses, every.parses);
  EXPECT_EQ(skipping.outputs, every.outputs);
  EXPECT_EQ(skipping.diagnostics, every.diagnostics);
  EXPECT_EQ(skipping.findings, every.findings);

  // A unit with something of its own (a definition, a directive) is parsed even when covered.
  fs::remove(root_ / "compile_commands.json");
  Write("instances/scale_int.cu", "#include \"../kernels.cuh\"\n#define EXTRA 1\nINSTANTIATE_SCALE(int);\n");
  Write("instances/scale_double.cu",
        "#include \"../kernels.cuh\"\nINSTANTIATE_SCALE(double);\nint f() { return 0; }\n");
  const std::vector<fs::path> in_order = {"main.cu", "instances/scale_double.cu", "instances/scale_int.cu"};
  const Run own = Translate(Options(true), in_order);
  EXPECT_EQ(own.covered_by.size(), 0u);
  EXPECT_EQ(own.outputs, Translate(Options(false), in_order).outputs);
}

// The analyzer's rules judge instantiations, and one only a skipped unit makes (ggml: HB205 on a flash_attn_tile
// configuration only its template-instance units instantiate) is seen by the rules-only parse of the covered units.
TEST_F(CoveredUnitsTest, AFindingOnlyTheSkippedUnitsInstantiationShowsIsKept) {
  Write("big.cuh", R"(#pragma once
#include <cuda_runtime.h>
template <int N> __global__ void big(float* p) {
  __shared__ float s[N];
  s[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = s[N - 1 - threadIdx.x];
}
template <int N> void launch_big(float* p) { big<N><<<1, 64>>>(p); }
#define INSTANTIATE_BIG(N) template void launch_big<N>(float*)
extern INSTANTIATE_BIG(20000);
)");
  Write("user.cu", "#include \"big.cuh\"\nvoid run(float* p) { launch_big<64>(p); }\n");
  Write("instances/big_20000.cu", "#include \"../big.cuh\"\nINSTANTIATE_BIG(20000);\n");
  const std::vector<fs::path> files = {"user.cu", "instances/big_20000.cu", "big.cuh"};
  const Run every = Translate(Options(false), files);
  const Run skipping = Translate(Options(true), files);
  EXPECT_EQ(skipping.covered_by.size(), 1u);
  EXPECT_EQ(skipping.outputs, every.outputs) << "the translation is the same";
  EXPECT_EQ(skipping.diagnostics, every.diagnostics);
  auto shared_memory = [](const Run& run) {
    return std::count_if(run.findings.begin(), run.findings.end(),
                         [](const std::string& finding) { return finding.rfind("HB205 big.cuh", 0) == 0; });
  };
  EXPECT_EQ(shared_memory(every), 1) << "big<20000>: 80000 bytes of __shared__";
  EXPECT_EQ(shared_memory(skipping), 1);
  EXPECT_EQ(skipping.findings, every.findings);

  // A re-run with the facts cache: the covered unit's rules come from it, nothing of it parsed again.
  TranslateOptions cached = Options(true);
  cached.cache_directory = base_ / "cache";
  Translate(cached, files);
  const Run again = Translate(cached, files);
  EXPECT_EQ(again.findings, every.findings);
  EXPECT_EQ(again.parses, 0u) << "nothing is gated on __CUDA_ARCH__: no device side either";
  EXPECT_TRUE(TranslateOptions{}.skip_covered_units) << "on by default since the findings are kept";
}

}  // namespace
}  // namespace hipforge::translate
