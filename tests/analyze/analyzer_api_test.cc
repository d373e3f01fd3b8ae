// Analyzer API behaviour beyond single rules: catalog and docs, unparsable files, preprocessor-skipped blocks,
// annotations, rule selection and the effort model.
#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

#include "tests/analyze/test_support.h"
#include "tests/support/scratch_dir.h"
#include "worker/translate/analyze/findings_json.h"
#include "worker/translate/analyze/token_file.h"
#include "worker/translate/tables/ptx_table.h"

namespace hipforge::translate {
namespace {

using testing::AnalyzeDir;
using testing::FindingKeys;
using testing::ReadText;
using testing::RuleDir;
using testing::SourceDir;

// A directory of this test process's own scratch tree (removed when the process ends).
std::filesystem::path ScratchDir(const std::string& name) {
  static const hipforge::testing::ScratchDir root("analyzer-api");
  const auto dir = root.path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

void Write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

// The token rules read Clang's raw lexer (frontend/raw_lexer.h), the one the translator's token pass reads:
// digit separators inside a number, a raw string as one literal, comments skipped, a launch's <<< / >>> as the
// C++ tokens "<<" "<" / ">>" ">", and the analyzer's own bookkeeping (directives, scopes) on top.
TEST(TokenFileTest, TokensAreTheSharedLexersWithDirectivesAndScopes) {
  const std::string code =
      "#include <cuda.h> // c\n"
      "namespace n { __global__ void k() { int x = 1'000; } }\n"
      "void f() { k<<<1, 2>>>(); auto s = R\"(a\"b)\"; }\n";
  const analyze::TextFile file("a.cu", FileKind::kCudaSource, code);
  std::vector<std::string> texts;
  for (const analyze::Token& token : file.tokens()) texts.emplace_back(token.text);
  const std::vector<std::string> expected = {
      "#",   "include", "<",  "cuda",  ".", "h", ">", "namespace", "n", "{", "__global__",  "void", "k", "(",  ")", "{",
      "int", "x",       "=",  "1'000", ";", "}", "}", "void",      "f", "(", ")",           "{",    "k", "<<", "<", "1",
      ",",   "2",       ">>", ">",     "(", ")", ";", "auto",      "s", "=", "R\"(a\"b)\"", ";",    "}"};
  EXPECT_EQ(texts, expected);
  const auto& tokens = file.tokens();
  EXPECT_TRUE(tokens[1].in_directive);
  EXPECT_EQ(tokens[1].directive, "include");
  EXPECT_FALSE(tokens[7].in_directive);
  EXPECT_TRUE(tokens[7].at_line_start);
  EXPECT_EQ(tokens[10].scope, 0u);                     // inside a namespace is file scope
  EXPECT_EQ(tokens[16].scope, tokens[15].offset + 1);  // `int` inside k's body
  EXPECT_EQ(tokens[21].scope, 0u);                     // the body's closing brace is outside it
  EXPECT_EQ(tokens[19].kind, analyze::TokenKind::kNumber);
  EXPECT_EQ(tokens[30].offset, code.find("<<<") + 2);
  EXPECT_EQ(tokens[42].kind, analyze::TokenKind::kString);
  EXPECT_EQ(tokens[42].offset, code.find("R\"("));
}

TEST(RuleCatalogTest, HasTheStableIdsEachWithADocPage) {
  const std::vector<std::string> expected = {"HB101", "HB102", "HB103", "HB104", "HB105", "HB106", "HB107", "HB201",
                                             "HB202", "HB203", "HB204", "HB205", "HB206", "HB207", "HB301", "HB302",
                                             "HB303", "HB304", "HB305", "HB401", "HB402", "HB403", "HB404", "HB405",
                                             "HB406", "HB407", "HB408", "HB501", "HB502", "HB503", "HB504", "HB505"};
  std::vector<std::string> ids;
  const std::string index = ReadText(SourceDir() / "docs/rules/README.md");
  for (const auto& rule : RuleCatalog()) {
    ids.push_back(rule.id);
    EXPECT_TRUE(std::filesystem::exists(SourceDir() / rule.help_path)) << rule.help_path;
    EXPECT_NE(index.find(rule.id + ".md"), std::string::npos) << rule.id << " missing from the index";
    EXPECT_FALSE(rule.title.empty());
  }
  EXPECT_EQ(ids, expected);
  EXPECT_TRUE(std::filesystem::exists(SourceDir() / "docs/rules/effort-model.md"));
  EXPECT_EQ(RuleCatalogToJson().size(), expected.size());
}

// HB201's page lists every record of the PTX idiom table (the data the rewrite reads).
TEST(RuleCatalogTest, InlinePtxPageListsEveryPtxIdiom) {
  const std::string page = ReadText(SourceDir() / "docs/rules/HB201.md");
  for (const PtxIdiom& idiom : PtxIdioms()) {
    EXPECT_NE(page.find("| `" + std::string(idiom.ptx) + "` |"), std::string::npos) << idiom.ptx;
  }
}

TEST(AnalyzerTest, UnparsableFileStillGetsTokenRulesAndSaysWhy) {
  const auto dir = ScratchDir("unparsable");
  Write(dir / "broken.cu",
        "#include \"missing_header.h\"\n"
        "__global__ void k(float* out, unsigned* r) {\n"
        "  float v = out[threadIdx.x];\n"
        "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
        "  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(*r));\n"
        "  out[threadIdx.x % 32] = __ldcg(out) + v;\n"
        "}\n");
  auto analyzer = CreateAnalyzer({});
  ASSERT_TRUE(analyzer.ok());
  auto result = (*analyzer)->Analyze(dir, {"broken.cu"}, nullptr);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->files.size(), 1u);
  EXPECT_FALSE(result->files[0].ast_analyzed);
  EXPECT_NE(result->files[0].ast_skipped_reason.find("could not parse"), std::string::npos)
      << result->files[0].ast_skipped_reason;
  EXPECT_EQ(FindingKeys(result->findings),
            (std::set<std::string>{"broken.cu:4:16 HB104", "broken.cu:4:57 HB102", "broken.cu:5:3 HB201",
                                   "broken.cu:6:21 HB101", "broken.cu:6:21 HB106", "broken.cu:6:27 HB203"}));
  // HB106: the file reads %laneid and indexes with `% 32` (a 32-lane range; wave64 lanes go to 63).
  const EditsByFile edits = CollectFixEdits(*result, false);
  const std::string fixed = testing::ApplyEdits(ReadText(dir / "broken.cu"), edits.at("broken.cu"));
  EXPECT_NE(fixed.find("for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffffffffffull"),
            std::string::npos)
      << fixed;
  EXPECT_NE(fixed.find("__ldg(out)"), std::string::npos) << fixed;
}

TEST(AnalyzerTest, PreprocessorSkippedBlocksGetTokenRules) {
  const auto dir = ScratchDir("skipped");
  Write(dir / "arch.cu",
        "__global__ void k(float* out) {\n"
        "  float v = out[threadIdx.x];\n"
        "#if defined(USE_PTX_PATH)\n"
        "  v = __shfl_xor_sync(0xffffffff, v, 1);\n"
        "#endif\n"
        "  out[threadIdx.x] = v;\n"
        "}\n");
  auto result = AnalyzeDir(dir);
  ASSERT_EQ(result.files.size(), 1u);
  EXPECT_TRUE(result.files[0].ast_analyzed) << result.files[0].ast_skipped_reason;
  EXPECT_EQ(FindingKeys(result.findings), (std::set<std::string>{"arch.cu:4:23 HB102"}));
}

// Code under a define the build never sets is listed but marked inactive (the effort model does not charge it);
// the same code in the branch the build takes, and device code under __CUDA_ARCH__, is active. So is a branch only
// a compiler-predefined macro drops: Clang's CUDA parse defines __PTX__ even on the host side, the HIP build does
// not (HeCBench attentionMultiHeadKVCache's `#if defined(__PTX__) asm ... #else __shfl_xor_sync ... #endif`).
TEST(AnalyzerTest, FindingsInBranchesTheBuildDropsAreInactive) {
  const auto dir = ScratchDir("inactive");
  Write(dir / "arch.cu",
        "__device__ float warp_max(float v) {\n"
        "#ifdef __CUDA_ARCH__\n"
        "  v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 1));\n"
        "#endif\n"
        "  return v;\n"
        "}\n"
        "__global__ void k(float* out) {\n"
        "  float v = out[threadIdx.x];\n"
        "#if defined(NEVER_SET)\n"
        "  v = __shfl_xor_sync(0xffffffff, v, 1);\n"
        "#else\n"
        "  v = __shfl_xor_sync(0xffffffff, v, 2);\n"
        "#endif\n"
        "#if 0\n"
        "  v = __shfl_xor_sync(0xffffffff, v, 4);\n"
        "#endif\n"
        "#if defined(__PTX__)\n"
        "  v += 1;\n"
        "#else\n"
        "  v = __shfl_xor_sync(0xffffffff, v, 8);\n"
        "#endif\n"
        "  out[threadIdx.x] = warp_max(v);\n"
        "}\n");
  auto result = AnalyzeDir(dir);
  ASSERT_EQ(result.files.size(), 1u);
  EXPECT_TRUE(result.files[0].ast_analyzed) << result.files[0].ast_skipped_reason;
  std::set<std::string> inactive, active;
  for (const Finding& finding : result.findings) {
    (finding.inactive ? inactive : active).insert(finding.rule_id + " line " + std::to_string(finding.location.line));
  }
  EXPECT_EQ(inactive, (std::set<std::string>{"HB102 line 10", "HB102 line 15"}));
  EXPECT_EQ(active, (std::set<std::string>{"HB102 line 3", "HB102 line 12", "HB102 line 20"}));
  // The translator's diagnostics are marked from the same lines.
  std::vector<Finding> diagnostics(2);
  diagnostics[0].location = {"arch.cu", 10, 7};
  diagnostics[1].location = {"arch.cu", 12, 7};
  MarkInactiveFindings(diagnostics, result.files);
  EXPECT_TRUE(diagnostics[0].inactive);
  EXPECT_FALSE(diagnostics[1].inactive);
}

// A warp reduction only the device side sees (under __CUDA_ARCH__): HB104 and HB102 on line 3.
constexpr char kDeviceOnlyWarpMax[] =
    "__device__ float warp_max(float v) {\n"
    "#ifdef __CUDA_ARCH__\n"
    "  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));\n"
    "#endif\n"
    "  return v;\n"
    "}\n"
    "__global__ void k(float* out) { out[threadIdx.x] = warp_max(out[threadIdx.x]); }\n";

// Device code under __CUDA_ARCH__ is parsed by a device-side pass: the AST rules (here HB104's loop analysis,
// which has no token form) see it, each finding once, and the token rules do not repeat them.
TEST(AnalyzerTest, DeviceOnlyBlocksGetTheAstRulesOnce) {
  const auto dir = ScratchDir("device-pass");
  Write(dir / "arch.cu", kDeviceOnlyWarpMax);
  auto result = AnalyzeDir(dir);
  ASSERT_EQ(result.files.size(), 1u);
  EXPECT_TRUE(result.files[0].ast_analyzed) << result.files[0].ast_skipped_reason;
  EXPECT_EQ(FindingKeys(result.findings), (std::set<std::string>{"arch.cu:3:16 HB104", "arch.cu:3:65 HB102"}));
}

// A device-side parse is given the prelude PCH AnalyzeOptions::device_prelude_pch names for its arguments; one that
// fails with it (here a file that is no PCH) is parsed again without: the PCH never decides the findings.
TEST(AnalyzerTest, ADeviceSideParseThatFailsWithItsPreludePchIsParsedAgainWithout) {
  const auto dir = ScratchDir("device-pass-pch");
  Write(dir / "arch.cu", kDeviceOnlyWarpMax);
  Write(dir / "not-a.pch", "not a PCH");
  std::vector<std::vector<std::string>> asked;
  AnalyzeOptions options;
  options.device_prelude_pch = [&](const std::vector<std::string>& args) -> std::optional<std::filesystem::path> {
    asked.push_back(args);
    return dir / "not-a.pch";
  };
  auto result = AnalyzeDir(dir, options);
  ASSERT_EQ(asked.size(), 1u) << "one device-side parse";
  EXPECT_NE(std::find(asked[0].begin(), asked[0].end(), "--cuda-device-only"), asked[0].end());
  EXPECT_EQ(FindingKeys(result.findings), (std::set<std::string>{"arch.cu:3:16 HB104", "arch.cu:3:65 HB102"}));
}

// A .cu unit is analysed even when it names no CUDA API itself: ggml's template-instance units and fattn.cu only
// include a header and instantiate its kernels, and the findings inside those instantiations (here HB104's width
// 32, known only once `width` is 32) exist only in that unit's parse. Since 46bd1dc such units were skipped.
TEST(AnalyzerTest, ACudaUnitThatOnlyInstantiatesAHeadersKernelsIsAnalysed) {
  const auto dir = ScratchDir("instance-unit");
  Write(dir / "reduce.cuh",
        "template <int width>\n"
        "__device__ int all_lanes(int x) {\n"
        "  for (int offset = width / 2; offset > 0; offset >>= 1) x = __shfl_xor_sync(0xffffffff, x, offset, width) && "
        "x;\n"
        "  return x;\n"
        "}\n"
        "template <int width> __global__ void reduce(int* out) { out[0] = all_lanes<width>(out[0]); }\n"
        "template <int width> void launch(int* out) { reduce<width><<<1, width>>>(out); }\n");
  Write(dir / "instance.cu", "// generated\n#include \"reduce.cuh\"\ntemplate void launch<32>(int* out);\n");
  auto result = AnalyzeDir(dir);
  EXPECT_EQ(FindingKeys(result.findings),
            (std::set<std::string>{"reduce.cuh:3:21 HB104", "reduce.cuh:3:78 HB102", "reduce.cuh:3:101 HB104"}));
}

// Units without GPU code of their own (ggml's template instances: an include and an instantiation) get a
// device-side parse only for a gated header no other device-side parse covers; on ggml the 120 such parses cost
// 263 s of CPU and found nothing new. Each parse is one entry in the analyzer's parse cache, which counts them.
TEST(AnalyzerTest, AUnitWithoutGpuCodeIsParsedOnTheDeviceSideOnlyForAGatedHeaderNoOtherCovers) {
  const std::string header =
      "template <int width> __device__ int lanes(int x) {\n"
      "#ifdef __CUDA_ARCH__\n"
      "  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xffffffff, x, o);\n"
      "#endif\n"
      "  return x;\n"
      "}\n"
      "template <int width> __global__ void reduce(int* out) { out[0] = lanes<width>(out[0]); }\n"
      "template <int width> void launch(int* out) { reduce<width><<<1, width>>>(out); }\n";
  const std::string instance = "#include \"reduce.cuh\"\ntemplate void launch<32>(int* out);\n";
  auto entries = [](const std::filesystem::path& cache) {
    int count = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(cache)) count += entry.is_regular_file();
    return count;
  };
  const std::set<std::string> expected = {"reduce.cuh:3:16 HB104", "reduce.cuh:3:57 HB102"};

  // Only instance units include the header: the first of them is parsed on the device side, the second not.
  const auto alone = ScratchDir("device-side-instances");
  Write(alone / "reduce.cuh", header);
  Write(alone / "instance_a.cu", instance);
  Write(alone / "instance_b.cu", instance);
  AnalyzeOptions options;
  options.cache_directory = alone / ".cache";
  auto result = AnalyzeDir(alone, options);
  EXPECT_EQ(FindingKeys(result.findings), expected);
  EXPECT_EQ(entries(alone / ".cache"), 2 + 1) << "two host-side parses, one device-side";

  // A unit with GPU code covers the header: no instance unit is parsed on the device side.
  const auto shared = ScratchDir("device-side-shared");
  Write(shared / "reduce.cuh", header);
  Write(shared / "instance_a.cu", instance);
  Write(shared / "main.cu", "#include \"reduce.cuh\"\n__global__ void k(int* out) { out[0] = lanes<32>(out[0]); }\n");
  options.cache_directory = shared / ".cache";
  result = AnalyzeDir(shared, options);
  EXPECT_EQ(FindingKeys(result.findings), expected);
  EXPECT_EQ(entries(shared / ".cache"), 2 + 1) << "two host-side parses, main.cu's device-side";
}

// HB101 reports `% lanes` where `lanes` is a constant of 32, but edits only a literal written in the expression:
// the literal behind a named constant is in its (here constexpr) initializer, where warpSize does not compile.
TEST(AnalyzerTest, WarpSizeLiteralBehindANamedConstantIsReportedNotEdited) {
  const auto dir = ScratchDir("hb101-constant");
  Write(dir / "lanes.cu",
        "template <int D> __global__ void k(int* out) {\n"
        "  constexpr int lanes = (D / 4 < 32 ? D / 4 : 32);\n"
        "  const int lane = threadIdx.x % lanes;\n"
        "  out[lane] = __shfl_xor_sync(0xffffffff, lane, 1);\n"
        "  out[0] = threadIdx.x % 32;\n"
        "}\n"
        "template __global__ void k<128>(int*);\n");
  auto result = AnalyzeDir(dir);
  int reported = 0;
  for (const Finding& finding : result.findings) {
    if (finding.rule_id != "HB101") continue;
    ++reported;
    for (const auto& edit : finding.edits) {
      EXPECT_NE(finding.location.line, 3) << "no edit for the named constant's use";
      EXPECT_EQ(edit.offset, ReadText(dir / "lanes.cu").find("% 32") + 2) << "only the literal written in line 5";
    }
  }
  EXPECT_EQ(reported, 2);
}

// In an instantiation a template argument looks like a literal written where the parameter's name is; the rules
// report it there but never replace the name (warp_reduce_all<width> in ggml's common.cuh: `width` -> `warpSize`
// would change every other instantiation). The same literal written in the source is still fixed.
TEST(AnalyzerTest, ATemplateArgumentOf32IsReportedButItsParameterIsNotReplaced) {
  const auto dir = ScratchDir("template-argument-32");
  const std::string source =
      "template <int width, int start, unsigned mask>\n"
      "__device__ int reduce(int x) {\n"
      "  for (int o = start; o > 0; o /= 2) x += __shfl_xor_sync(mask, x, o, width);\n"
      "  return x + threadIdx.x % width;\n"
      "}\n"
      "__global__ void k(int* out) {\n"
      "  out[0] = reduce<32, 16, 0xffffffff>(out[0]);\n"
      "  for (int o = 16; o > 0; o /= 2) out[1] += __shfl_xor_sync(0xffffffff, out[1], o, 32);\n"
      "}\n";
  Write(dir / "reduce.cu", source);
  auto result = AnalyzeDir(dir);
  std::set<std::string> reported_in_template, edited;
  for (const Finding& finding : result.findings) {
    if (finding.location.line == 3 || finding.location.line == 4) reported_in_template.insert(finding.rule_id);
    for (const auto& edit : finding.edits) {
      edited.insert(finding.rule_id + " " + source.substr(edit.offset, edit.length));
    }
  }
  EXPECT_EQ(reported_in_template, (std::set<std::string>{"HB101", "HB102", "HB104"}));
  // Only literals are replaced: 16, 32 and the mask of line 8.
  EXPECT_EQ(edited, (std::set<std::string>{"HB104 16", "HB104 32", "HB102 0xffffffff"}));
}

// A macro definition reached from several expansions (ggml's `#define WARP_SIZE 32`, used as `/ WARP_SIZE` in one
// unit and `% WARP_SIZE` in another) is one finding; its message is the smallest of the expansions', whichever unit
// is parsed first (it was the first unit's), so a run that leaves units unparsed reports the same one.
TEST(AnalyzerTest, AMacroDefinitionReachedFromSeveralExpansionsKeepsTheSmallestMessage) {
  const std::string divide =
      "#include \"lanes.h\"\n"
      "__global__ void k(int* o) { int warp = threadIdx.x / LANES; o[warp] = __shfl_sync(0xffffffff, warp, 0); }\n";
  const std::string modulo =
      "#include \"lanes.h\"\n"
      "__global__ void m(int* o) { int lane = threadIdx.x % LANES; o[lane] = __shfl_sync(0xffffffff, lane, 0); }\n";
  std::vector<std::string> messages;
  for (const bool divide_first : {true, false}) {
    const auto dir = ScratchDir(divide_first ? "macro-divide-first" : "macro-modulo-first");
    Write(dir / "lanes.h", "#define LANES 32\n");
    Write(dir / "a.cu", divide_first ? divide : modulo);
    Write(dir / "b.cu", divide_first ? modulo : divide);
    for (const Finding& finding : AnalyzeDir(dir).findings) {
      if (finding.location.path == "lanes.h" && finding.rule_id == "HB101") messages.push_back(finding.message);
    }
  }
  ASSERT_EQ(messages.size(), 2u) << "one finding at the definition per run";
  EXPECT_EQ(messages[0], messages[1]);
  EXPECT_NE(messages[0].find("(`% 32`)"), std::string::npos) << messages[0];
}

// A kernel template's static LDS is the sum of its instantiation's __shared__ variables, each once: the matchers
// visited an instantiation twice (through its template, and as Sema hands it over), which reported twice the size
// (ggml's flash_attn_tile: "66560 bytes" for a configuration of 33280). The parse now visits it once.
TEST(AnalyzerTest, AKernelInstantiationsSharedMemoryIsCountedOnce) {
  auto reported = [](int n) {
    const auto dir = ScratchDir("hb205-instantiation-" + std::to_string(n));
    Write(dir / "k.cu",
          "template <int N> __global__ void twice(float* p) {\n"
          "  __shared__ float a[N];\n"
          "  __shared__ float b[N];\n"
          "  a[threadIdx.x] = p[threadIdx.x];\n"
          "  b[threadIdx.x] = a[N - 1 - threadIdx.x];\n"
          "  p[threadIdx.x] = b[threadIdx.x];\n"
          "}\n"
          "template <int N> void launch(float* p) { twice<N><<<1, 64>>>(p); }\n"
          "template void launch<" +
              std::to_string(n) + ">(float*);\n");
    std::vector<std::string> messages;
    for (const Finding& finding : AnalyzeDir(dir).findings) {
      if (finding.rule_id == "HB205") messages.push_back(finding.message);
    }
    return messages;
  };
  EXPECT_TRUE(reported(5000).empty()) << "2 x 20000 bytes fit in 64 KiB";
  const std::vector<std::string> over = reported(9000);
  ASSERT_EQ(over.size(), 1u);
  EXPECT_NE(over[0].find("uses 72000 bytes"), std::string::npos) << over[0];
}

// Progress counts every file the AST rules cover up to its total: a header a source's parse covered is reported
// done after the sources (it is not parsed again), one no source includes after its own parse.
TEST(AnalyzerTest, ProgressReachesItsTotalWhenASourceCoversAHeader) {
  const auto dir = ScratchDir("progress");
  Write(dir / "k.cuh", "__device__ inline int lane() { return threadIdx.x % 32; }\n");
  Write(dir / "alone.cuh", "__device__ inline int warp() { return threadIdx.x / 32; }\n");
  Write(dir / "k.cu", "#include \"k.cuh\"\n__global__ void k(int* out) { out[0] = lane(); }\n");
  AnalyzeOptions options;
  options.jobs = 1;
  auto analyzer = CreateAnalyzer(options);
  ASSERT_TRUE(analyzer.ok()) << analyzer.status();
  std::vector<ProgressEvent> events;
  auto result = (*analyzer)->Analyze(dir, {"k.cu", "k.cuh", "alone.cuh"},
                                     [&](const ProgressEvent& event) { events.push_back(event); });
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(events.size(), 3u);
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(events[i].stage, "analyze");
    EXPECT_EQ(events[i].done, static_cast<int>(i + 1));
    EXPECT_EQ(events[i].total, 3);
  }
  EXPECT_EQ(events[0].message, "k.cu");
  EXPECT_EQ(events[1].message, "k.cuh") << "covered by k.cu's parse";
  EXPECT_EQ(events[2].message, "alone.cuh");
}

// HB304 from the mapping tables: a runtime call the tables mark unsupported (and no ROCm library provides) is
// reported where it is called; a supported call next to it and a project function of the same name are not.
TEST(AnalyzerTest, CallsTheTablesMarkUnsupportedAreReported) {
  const auto dir = ScratchDir("tables-unsupported");
  Write(dir / "l2.cu",
        "#include <cuda_runtime.h>\n"
        "void reset(cudaStream_t s) {\n"
        "  cudaCtxResetPersistingL2Cache();\n"
        "  cudaStreamSynchronize(s);\n"
        "}\n"
        "namespace mine { int cudaInitDevice(int d) { return d; } }\n");
  auto result = AnalyzeDir(dir);
  EXPECT_EQ(FindingKeys(result.findings), (std::set<std::string>{"l2.cu:3:3 HB304"}));
}

TEST(AnalyzerTest, AnnotationsAreOffByDefaultAndIndentedWhenOn) {
  const auto dir = RuleDir("HB201");
  EXPECT_TRUE(AnalyzeDir(dir).annotations.empty());
  AnalyzeOptions options;
  options.annotate = true;
  const AnalysisResult result = AnalyzeDir(dir, options);
  ASSERT_TRUE(result.annotations.count("input.cu"));
  const std::string annotated =
      testing::ApplyEdits(ReadText(dir / "input.cu"), CollectFixEdits(result, true).at("input.cu"));
  EXPECT_NE(annotated.find("  // HIPFORGE HB201: inline PTX `mov.u32 $d,%laneid` has an exact HIP equivalent"),
            std::string::npos)
      << annotated;
  EXPECT_NE(annotated.find("  (r) = __lane_id();"), std::string::npos);
}

TEST(AnalyzerTest, DisabledRulesStaySilentAndUnknownIdsAreRejected) {
  AnalyzeOptions options;
  options.disabled_rules = {"HB201"};
  const AnalysisResult result = AnalyzeDir(RuleDir("HB202"), options);
  for (const Finding& finding : result.findings) EXPECT_NE(finding.rule_id, "HB201");
  EXPECT_FALSE(result.findings.empty());
  options.disabled_rules = {"HB999"};
  EXPECT_FALSE(CreateAnalyzer(options).ok());
}

// Issue 29: a gfx942-only job was told about gfx90a. Messages and fixes name the job's targets only.
TEST(AnalyzerTest, MessagesNameOnlyTheJobsTargets) {
  const auto dir = ScratchDir("targets");
  Write(dir / "Makefile", "main: main.cu\n\tnvcc -arch=sm_60 -o main main.cu\n");
  Write(dir / "CMakeLists.txt", "project(p LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_ARCHITECTURES 60)\n");
  Write(dir / "main.cu",
        "#include <mma.h>\n"
        "__global__ void k(float* out, cudaDeviceProp p) {\n"
        "  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> c;\n"
        "  if (p.major >= 7) out[0] = 1;\n"
        "}\n"
        "int main() { float* m; cudaMallocManaged(&m, 4); }\n");
  AnalyzeOptions options;
  options.target_architectures = {"gfx942"};
  const AnalysisResult result = AnalyzeDir(dir, options);
  std::set<std::string> rules;
  for (const Finding& finding : result.findings) {
    rules.insert(finding.rule_id);
    EXPECT_EQ(finding.message.find("gfx90a"), std::string::npos) << finding.rule_id << ": " << finding.message;
    EXPECT_EQ(finding.fix.find("gfx90a"), std::string::npos) << finding.rule_id << ": " << finding.fix;
    if (finding.rule_id == "HB501") EXPECT_NE(finding.fix.find("--offload-arch=gfx942 "), std::string::npos);
  }
  EXPECT_TRUE(rules.count("HB501") && rules.count("HB502") && rules.count("HB202") && rules.count("HB404"))
      << ::testing::PrintToString(rules);
}

Finding At(const std::string& rule, Severity severity, const std::string& path, uint32_t line) {
  Finding finding;
  finding.rule_id = rule;
  finding.severity = severity;
  finding.location = {path, line, 1};
  return finding;
}

TEST(EffortModelTest, FollowsTheDocumentedModel) {
  Finding ptx = At("HB201", Severity::kError, "a.cu", 10);
  Finding lane = At("HB101", Severity::kWarning, "a.cu", 12);
  lane.edits.push_back(TextEdit{0, 2, "warpSize", "HB101"});
  Finding unknown = At("TR008", Severity::kNote, "a.cu", 20);
  Finding copy = At("HB402", Severity::kWarning, "b.cu", 5);
  FileTranslation a;
  a.path = "a.cu";
  a.status = FileStatus::kTranslated;
  a.stats.converted["function"] = 90;
  a.stats.unconverted = 2;
  FileTranslation c;
  c.path = "c.cu";
  c.status = FileStatus::kFallback;
  const EffortEstimate effort = EstimateEffort({ptx, lane, unknown, copy}, {a, c});
  // a.cu: 2 (HB201) + 0.1 (reviewed fix) + 0.5 (TR008; the 2 unconverted uses are its count) + 0.25 = 2.85;
  // b.cu: 1 + 0.25; c.cu: 1 + 0.25.
  EXPECT_NEAR(effort.engineer_hours, 2.85 + 1.25 + 1.25, 1e-9);
  ASSERT_EQ(effort.files.size(), 3u);
  EXPECT_NEAR(effort.files[0].engineer_hours, 2.85, 1e-9);
  // Automatic: 90 converted + 1 fixable finding; manual: 2 unconverted + 3 findings without a fix.
  EXPECT_NEAR(effort.automatic_share, 91.0 / 96.0, 1e-9);
  EXPECT_EQ(effort.by_severity.at("error"), 1);
  EXPECT_EQ(effort.by_severity.at("warning"), 2);
  const auto json = EffortToJson(effort);
  EXPECT_EQ(json["by_severity"]["warning"], 2);
  EXPECT_EQ(EstimateEffort({}, {}).automatic_share, 1.0);
  // The items say how the total is computed: they add up to it.
  double items = 0;
  for (const auto& item : effort.items) {
    EXPECT_NEAR(item.hours, item.count * item.hours_each, 1e-9) << item.what;
    items += item.hours;
  }
  EXPECT_NEAR(items, effort.engineer_hours, 1e-9);
  EXPECT_EQ(effort.model, "docs/rules/effort-model.md");
}

// Issue 29: one call the tables mark unsupported showed HB304 (2 h), TR001 (1 h) and the translator's unsupported
// count (1 h) on one line: one place is charged once, at the largest.
TEST(EffortModelTest, OnePlaceIsChargedOnce) {
  Finding library_call = At("HB304", Severity::kError, "x.cu", 5);
  library_call.one_call = true;
  const Finding unsupported = At("TR001", Severity::kWarning, "x.cu", 5);
  FileTranslation x;
  x.path = "x.cu";
  x.status = FileStatus::kTranslated;
  x.stats.unsupported = 1;
  const EffortEstimate effort = EstimateEffort({library_call, unsupported}, {x});
  EXPECT_NEAR(effort.engineer_hours, 2.0 + 0.25, 1e-9);
  EXPECT_EQ(effort.by_severity.at("error"), 1);  // both are still listed and counted
  EXPECT_EQ(effort.by_severity.at("warning"), 1);
  double items = 0;
  for (const auto& item : effort.items) items += item.hours;
  EXPECT_NEAR(items, effort.engineer_hours, 1e-9);
}

// The same line under a define the build never sets costs nothing: listed, marked inactive.
TEST(EffortModelTest, LinesTheBuildDropsAreNotCharged) {
  Finding library_call = At("HB304", Severity::kError, "x.cu", 5);
  library_call.one_call = true;
  library_call.inactive = true;
  Finding unsupported = At("TR001", Severity::kWarning, "x.cu", 5);
  unsupported.inactive = true;
  FileTranslation x;
  x.path = "x.cu";
  x.status = FileStatus::kTranslated;
  x.stats.unsupported = 1;
  const EffortEstimate effort = EstimateEffort({library_call, unsupported}, {x});
  EXPECT_EQ(effort.engineer_hours, 0.0);
  EXPECT_TRUE(effort.by_severity.empty());
  ASSERT_EQ(effort.items.size(), 1u);
  EXPECT_EQ(effort.items[0].count, 2);
  EXPECT_EQ(effort.items[0].hours, 0.0);
}

// Issue 29: 10 x HB206 at 2 h for one texture pattern, 4 x HB202 at 16 h for one sample. A rule's first finding in
// a file costs its hours, each further one 10% of them; another file pays the first again.
TEST(EffortModelTest, OnePatternIsChargedOncePerFile) {
  std::vector<Finding> findings;
  for (uint32_t line = 1; line <= 10; ++line) findings.push_back(At("HB206", Severity::kError, "tex.cu", line));
  for (uint32_t line = 1; line <= 4; ++line) findings.push_back(At("HB202", Severity::kError, "mma.cu", line * 10));
  findings.push_back(At("HB206", Severity::kError, "other.cu", 3));
  const EffortEstimate effort = EstimateEffort(findings, {});
  ASSERT_EQ(effort.files.size(), 3u);
  EXPECT_EQ(effort.files[0].path, "mma.cu");
  EXPECT_NEAR(effort.files[0].engineer_hours, 16.0 + 3 * 1.6 + 0.25, 1e-9);
  EXPECT_NEAR(effort.files[1].engineer_hours, 2.0 + 0.25, 1e-9);
  EXPECT_NEAR(effort.files[2].engineer_hours, 2.0 + 9 * 0.2 + 0.25, 1e-9);
  EXPECT_EQ(effort.by_severity.at("error"), 15);
  double items = 0;
  for (const auto& item : effort.items) {
    EXPECT_NEAR(item.hours, item.count * item.hours_each, 1e-9) << item.what;
    items += item.hours;
  }
  EXPECT_NEAR(items, effort.engineer_hours, 1e-9);
}

TEST(EffortModelTest, FindingsFixedAutomaticallyLeaveNoWork) {
  Finding fixed;
  fixed.rule_id = "HB503";
  fixed.severity = Severity::kError;
  fixed.location.path = "build.sh";
  fixed.auto_fixed = true;
  Finding left;
  left.rule_id = "HB402";
  left.severity = Severity::kWarning;
  left.location.path = "b.cu";
  const EffortEstimate effort = EstimateEffort({fixed, fixed, left}, {});
  EXPECT_NEAR(effort.engineer_hours, 1.0 + 0.25, 1e-9);  // only the HB402 and its file's rebuild
  EXPECT_EQ(effort.by_severity.count("error"), 0u);      // counts what is left
  EXPECT_EQ(effort.by_severity.at("warning"), 1);
  ASSERT_EQ(effort.files.size(), 1u);
  EXPECT_EQ(effort.files[0].path, "b.cu");
  EXPECT_NEAR(effort.automatic_share, 2.0 / 3.0, 1e-9);
}

TEST(FindingsJsonTest, UsesTheReportFieldNames) {
  const AnalysisResult result = AnalyzeDir(RuleDir("HB102"));
  const auto json = FindingsToJson(result.findings);
  ASSERT_FALSE(json.empty());
  for (const char* key : {"rule_id", "severity", "path", "line", "column", "message", "fix", "auto_fixed"}) {
    EXPECT_TRUE(json[0].contains(key)) << key;
  }
  EXPECT_EQ(json[0]["severity"], "error");
}

}  // namespace
}  // namespace hipforge::translate
