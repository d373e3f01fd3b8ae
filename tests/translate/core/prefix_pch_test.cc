// Project include prefixes precompiled per job (core/prefix_pch.h, issue 31): units that begin with the same
// project headers are parsed with one PCH of them. It must change nothing but the time: the translator's output
// and diagnostics and the analyzer's findings are those of parses without it; a PCH built for one configuration
// is never used for another; a header edit is never hidden by a PCH; a prefix whose header has no include guard
// is not precompiled; units beginning with their own header share the prefix that header begins with; the
// analyzer's device-side parses share prefixes too.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <random>

#include "tests/translate/core/temp_tree_test.h"
#include "worker/translate/analyze/analyzer.h"
#include "worker/translate/core/prefix_pch.h"
#include "worker/translate/core/prelude_pch.h"
#include "worker/translate/core/source_translator.h"
#include "worker/translate/frontend/unit_parser.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

// What the translator and the analyzer get from a header: a project macro, an inactive branch, a launch and a
// warp call inside a template the units instantiate, an argument rewrite, a CUDA-looking name of the project's.
constexpr const char* kCommonHeader = R"(#pragma once
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) return (int)e; } while (0)
int cudaBlockSize = 256;
#ifdef NEVER_DEFINED
inline void unused_branch() { cudaDeviceReset(); }
#endif
template <typename T> __global__ void scale(T* p, T by) {
  int lane = threadIdx.x % 32;
  p[lane] = __shfl_sync(0xffffffff, p[lane], 0) * by;
}
template <typename T> int launch_scale(T* p, T by) {
  scale<T><<<1, cudaBlockSize>>>(p, by);
  return (int)cudaGetLastError();
}
template <typename T> float low_half(T h2) { return __half2float(h2.x); }
__constant__ float table[4];
inline int load_table(const float* host) { CHECK(cudaMemcpyToSymbol(table, host, sizeof(table))); return 0; }
)";

std::string Unit(const std::string& type, const std::string& extra = "") {
  return "// a unit of the project\n#include \"common.cuh\"\n" + extra + "int run_" + type + "() {\n  " + type +
         "* d;\n  CHECK(cudaMalloc(&d, 64 * sizeof(" + type + ")));\n  int r = launch_scale<" + type + ">(d, (" + type +
         ")2);\n  __half2 h2 = __floats2half2_rn(1.f, 2.f);\n  r += (int)low_half(h2);\n  CHECK(cudaFree(d));\n"
         "  return r;\n}\n";
}

class PrefixPchTest : public TempTreeTest {
 protected:
  void SetUp() override {
    if (!fs::exists("/usr/local/cuda/include/cuda_runtime.h") && !std::getenv("CUDA_PATH")) {
      GTEST_SKIP() << "no CUDA toolkit: no prelude PCH to chain a prefix PCH on";
    }
    MakeTree("prefix-pch");
  }
  TranslateOptions Options(bool prefix) {
    TranslateOptions options = TreeOptions();
    options.use_prefix_pch = prefix;
    return options;
  }

  struct Run {
    std::map<std::string, std::string> outputs;
    std::vector<std::string> diagnostics;  // the translator's, per file
    std::vector<std::string> findings;     // the analyzer's AST rules' (through the shared parse)
    uint64_t pch_builds = 0;
    uint64_t parses = 0;
    uint64_t analyzer_pch_builds = 0;  // the analyzer's own parses (device side)
    uint64_t analyzer_parses = 0;
  };

  // The repository pass's order: the translator parses with the analyzer's companion, the analyzer takes the
  // companion's results, the translator composes.
  Run Translate(const TranslateOptions& options, const std::vector<fs::path>& files, AnalyzeOptions analyze = {}) {
    Run run;
    const Engines engines = MakeEngines(options, std::move(analyze));
    const uint64_t builds = PchBuildCount(), parses = UnitParseCount();
    auto parsed = engines.translator->Parse(root_, files, engines.companion.get(), nullptr);
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    run.pch_builds = PchBuildCount() - builds;
    run.parses = UnitParseCount() - parses;
    const uint64_t analyzer_builds = PchBuildCount(), analyzer_parses = UnitParseCount();
    auto analysis = engines.analyzer->Analyze(root_, files, nullptr, engines.companion.get());
    EXPECT_TRUE(analysis.ok()) << analysis.status();
    run.analyzer_pch_builds = PchBuildCount() - analyzer_builds;
    run.analyzer_parses = UnitParseCount() - analyzer_parses;
    auto translations = engines.translator->Compose(*parsed, {}, nullptr);
    EXPECT_TRUE(translations.ok()) << translations.status();
    for (const FileTranslation& file : *translations) {
      EXPECT_NE(file.status, FileStatus::kFallback) << file.path << ": " << file.fallback_reason;
      run.outputs[file.path] = file.output;
      for (const Finding& finding : file.diagnostics) {
        run.diagnostics.push_back(DiagnosticLine(file.path, finding));
      }
    }
    for (const Finding& finding : analysis->findings) {
      run.findings.push_back(FindingLine(finding));
    }
    return run;
  }

  // A run with PCHs gives what the run without them gives: outputs, the translator's diagnostics, the findings.
  static void ExpectWhatPlainGets(const Run& shared, const Run& plain) {
    EXPECT_EQ(shared.outputs, plain.outputs);
    EXPECT_EQ(shared.diagnostics, plain.diagnostics);
    EXPECT_EQ(shared.findings, plain.findings);
  }

  // `units` translated without and with prefix PCHs: the same results, `builds` PCHs built (`why`), one parse each.
  Run SharedAsPlain(const std::vector<fs::path>& units, uint64_t builds, const std::string& why) {
    const Run plain = Translate(Options(false), units);
    Run shared = Translate(Options(true), units);
    EXPECT_EQ(shared.pch_builds, builds) << why;
    EXPECT_EQ(shared.parses, units.size()) << "no unit parsed twice: each parse with a PCH kept it";
    ExpectWhatPlainGets(shared, plain);
    return shared;
  }

  size_t LeftInPchDirectory(const std::string& prefix) {
    size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(base_ / "pch")) {
      count += entry.path().filename().string().rfind(prefix, 0) == 0;
    }
    return count;
  }
};

TEST_F(PrefixPchTest, UnitsSharingAProjectPrefixGetWhatTheyGetWithoutIt) {
  Write("common.cuh", kCommonHeader);
  Write("a.cu", Unit("float"));
  Write("b.cu", Unit("int", "#define B_UNIT 1\n"));
  Write("c.cu", Unit("double"));
  const Run plain = Translate(Options(false), {"a.cu", "b.cu", "c.cu"});
  const Run shared = Translate(Options(true), {"a.cu", "b.cu", "c.cu"});
  EXPECT_EQ(shared.pch_builds, 1u) << "one PCH of `#include \"common.cuh\"` for the three units";
  EXPECT_EQ(shared.parses, 3u) << "and one parse per unit";
  ExpectWhatPlainGets(shared, plain);
  // What the header's facts decide: the inactive branch, the argument rewrite, the project's own names.
  const std::string& header = shared.outputs.at("common.cuh");
  EXPECT_NE(header.find("hipDeviceReset"), std::string::npos) << header;
  EXPECT_NE(header.find("int cudaBlockSize"), std::string::npos) << "the project's own name is kept: " << header;
  EXPECT_NE(header.find("hipMemcpyToSymbol(HIP_SYMBOL(table)"), std::string::npos) << header;
  EXPECT_FALSE(shared.findings.empty()) << "the analyzer's rules saw the header's warp call";
  EXPECT_EQ(LeftInPchDirectory("prefix-"), 0u) << "the job's prefix PCHs go with it";
}

TEST_F(PrefixPchTest, APrefixPchIsNeverUsedForAnotherConfiguration) {
  Write("common.cuh",
        std::string(kCommonHeader) + "#ifdef WIDE\ninline int wide() { return cudaDeviceSynchronize(); }\n#endif\n");
  Write("a.cu", Unit("float"));
  Write("b.cu", Unit("int"));
  Write("c.cu", Unit("double"));
  // a.cu and c.cu are built with WIDE, b.cu without: a.cu and c.cu share one PCH, b.cu has none.
  std::string database = "[";
  for (const char* unit : {"a.cu", "b.cu", "c.cu"}) {
    const std::string file = (root_ / unit).string();
    const std::string define = std::string(unit) == "b.cu" ? "" : "-DWIDE ";
    database += std::string(database.size() > 1 ? "," : "") + "{\"directory\": \"" + root_.string() +
                "\", \"command\": \"nvcc " + define + "-c " + file + "\", \"file\": \"" + file + "\"}";
  }
  Write("compile_commands.json", database + "]");
  const Run plain = Translate(Options(false), {"a.cu", "b.cu", "c.cu"});
  const Run shared = Translate(Options(true), {"a.cu", "b.cu", "c.cu"});
  EXPECT_EQ(shared.pch_builds, 1u) << "a.cu and c.cu (WIDE) share one; b.cu's configuration has no partner";
  ExpectWhatPlainGets(shared, plain);
  EXPECT_NE(shared.outputs.at("common.cuh").find("hipDeviceSynchronize"), std::string::npos);

  // Two configurations of one unit each pair with another unit's: one PCH per configuration.
  std::string two = "[";
  for (const char* unit : {"a.cu", "b.cu"}) {
    const std::string file = (root_ / unit).string();
    for (const char* define : {"-DWIDE ", ""}) {
      two += std::string(two.size() > 1 ? "," : "") + "{\"directory\": \"" + root_.string() +
             "\", \"command\": \"nvcc " + define + "-c " + file + "\", \"file\": \"" + file + "\"}";
    }
  }
  Write("compile_commands.json", two + "]");
  const Run plain_two = Translate(Options(false), {"a.cu", "b.cu"});
  const Run shared_two = Translate(Options(true), {"a.cu", "b.cu"});
  EXPECT_EQ(shared_two.pch_builds, 2u) << "one prefix PCH per configuration";
  EXPECT_EQ(shared_two.parses, 4u);
  EXPECT_EQ(shared_two.outputs, plain_two.outputs);
  EXPECT_EQ(shared_two.findings, plain_two.findings);
}

TEST_F(PrefixPchTest, AHeaderEditIsNeverHiddenByAPch) {
  Write("common.cuh", kCommonHeader);
  Write("a.cu", Unit("float"));
  Write("b.cu", Unit("int"));
  TranslateOptions options = Options(true);
  options.cache_directory = base_ / "cache";
  options.pch_directory.reset();  // <cache>/pch, as the repository pass has it
  const Run first = Translate(options, {"a.cu", "b.cu"});
  EXPECT_EQ(first.pch_builds, 2u) << "the prelude and the prefix";
  // The same size and modification time (a PCH checks only those): the facts cache sees the bytes.
  std::string edited = kCommonHeader;
  edited.replace(edited.find("cudaDeviceReset"), 15, "cudaGetLastError");
  edited.replace(edited.find("#ifdef NEVER_DEFINED"), 20, "#ifndef NEVER_DEFIN");
  ASSERT_EQ(edited.size(), std::string(kCommonHeader).size());
  const auto mtime = fs::last_write_time(root_ / "common.cuh");
  Write("common.cuh", edited);
  fs::last_write_time(root_ / "common.cuh", mtime);
  const Run second = Translate(options, {"a.cu", "b.cu"});
  EXPECT_EQ(second.parses, 2u) << "both units depend on the edited header";
  EXPECT_EQ(second.pch_builds, 1u) << "a new job, a new prefix PCH";
  EXPECT_NE(second.outputs.at("common.cuh").find("unused_branch() { hipGetLastError();"), std::string::npos)
      << second.outputs.at("common.cuh");
  EXPECT_EQ(second.outputs, Translate(Options(false), {"a.cu", "b.cu"}).outputs);
  EXPECT_EQ(LeftInPchDirectory("prefix-"), 0u);
}

TEST_F(PrefixPchTest, AKilledJobsDirectoryIsRemovedByALaterJob) {
  Write("common.cuh", kCommonHeader);
  Write("a.cu", Unit("float"));
  Write("b.cu", Unit("int"));
  const auto job = [&](const std::string& name, std::chrono::hours age) {
    fs::path directory = base_ / "pch" / name;
    fs::create_directories(directory);
    std::ofstream(directory / "prefix-x.pch") << "left behind";
    fs::last_write_time(directory, fs::file_time_type::clock::now() - age);
    return directory;
  };
  const fs::path killed = job("prefix-job-999999999-0", std::chrono::hours(2));  // no such process
  const fs::path running = job("prefix-job-" + std::to_string(::getpid()) + "-999", std::chrono::hours(2));
  const fs::path recent = job("prefix-job-999999999-1", std::chrono::hours(0));  // maybe another host's, at work
  Translate(Options(true), {"a.cu", "b.cu"});
  EXPECT_FALSE(fs::exists(killed));
  EXPECT_TRUE(fs::exists(running)) << "its process is alive";
  EXPECT_TRUE(fs::exists(recent)) << "written to within the hour";
}

TEST_F(PrefixPchTest, ARelativeCacheDirectoryKeepsItsPchs) {
  // migrate-cli translate --cache cache: PCHs are built and loaded from other working directories.
  Write("common.cuh", kCommonHeader);
  Write("a.cu", Unit("float"));
  Write("b.cu", Unit("int"));
  const fs::path working = fs::current_path();
  fs::current_path(base_);
  TranslateOptions options = Options(true);
  options.cache_directory = "cache";
  options.pch_directory.reset();
  options.frontend.shim_directory.clear();
  const Run run = Translate(options, {"a.cu", "b.cu"});
  fs::current_path(working);
  EXPECT_EQ(run.pch_builds, 2u) << "the prelude and the prefix, each built once and used";
  EXPECT_EQ(run.parses, 2u) << "no parse failed with a PCH";
  EXPECT_EQ(run.outputs, Translate(Options(false), {"a.cu", "b.cu"}).outputs);
}

TEST_F(PrefixPchTest, APrefixIncludingAHeaderWithoutGuardIsNotPrecompiled) {
  // Included again by the unit parsed with the PCH, an unguarded header would be read twice.
  Write("table.inc", "ENTRY(cudaMalloc)\nENTRY(cudaFree)\n");
  const std::string unit =
      "#define ENTRY(name) int name##_seen = 1;\n#include \"table.inc\"\n#undef ENTRY\n"
      "#include <cuda_runtime.h>\nint main() { int* d; cudaMalloc(&d, 4); return 0; }\n";
  Write("a.cu", unit);
  Write("b.cu", unit);
  const Run plain = Translate(Options(false), {"a.cu", "b.cu"});
  const Run shared = Translate(Options(true), {"a.cu", "b.cu"});
  EXPECT_EQ(shared.pch_builds, 1u) << "tried once, refused";
  EXPECT_EQ(shared.parses, 2u) << "each unit parsed once, without it";
  EXPECT_EQ(shared.outputs, plain.outputs);
  EXPECT_EQ(shared.diagnostics, plain.diagnostics);
}

TEST_F(PrefixPchTest, UnitsBeginningWithTheirOwnHeaderShareWhatTheHeaderBeginsWith) {
  // ggml's shape: acc.cu begins with `#include "acc.cuh"`, which begins with `#include "common.cuh"` (no guard of
  // its own); others' headers have #pragma once. No two units begin with the same header: without following the
  // headers they share nothing.
  Write("common.cuh", kCommonHeader);
  Write("a.cuh", "#include \"common.cuh\"\n#define A_BLOCK 64\nint a_helper();\n");
  Write("b.cuh", "#pragma once\n#include \"common.cuh\"\n#include <cuda_fp16.h>\nint b_helper();\n");
  Write("c.cuh", "#pragma once\n#include \"b.cuh\"\nint c_helper();\n");  // common.cuh two headers down
  Write("a.cu", "#include \"a.cuh\"\n" + Unit("float"));
  Write("b.cu", "#include \"b.cuh\"\n" + Unit("int", "#define B_UNIT 1\n"));
  Write("c.cu", "#include \"c.cuh\"\n" + Unit("double"));
  const Run shared = SharedAsPlain({"a.cu", "b.cu", "c.cu"}, 2,
                                   "`#include \"common.cuh\"` for a.cu (from inside a.cuh), `#include \"b.cuh\"` for "
                                   "b.cu and c.cu (from inside c.cuh)");
  EXPECT_NE(shared.outputs.at("common.cuh").find("hipMemcpyToSymbol(HIP_SYMBOL(table)"), std::string::npos);
  EXPECT_FALSE(shared.findings.empty());
}

TEST_F(PrefixPchTest, LongerPrefixesAreChainedOnTheShorterOneTheyBeginWith) {
  // ggml's shape: every prefix begins with common.cuh; the two longer ones are built on its PCH, so common.cuh is
  // parsed once, and what the longer ones' headers hold (a macro, an inactive branch, a warp call in a template)
  // is still seen as a parse without PCHs sees it.
  Write("common.cuh", kCommonHeader);
  const auto header = [](const std::string& name) {
    return "#pragma once\n#define " + name + "_BLOCK 32\n#ifdef NEVER_DEFINED\ninline void unused_" + name +
           "() { cudaDeviceSynchronize(); }\n#endif\ntemplate <typename T> __global__ void " + name +
           "_kernel(T* p) {\n  p[threadIdx.x] = __shfl_down_sync(0xffffffff, p[0], 1);\n}\n"
           "template <typename T> int " +
           name + "_launch(T* p) {\n  " + name + "_kernel<T><<<1, " + name +
           "_BLOCK>>>(p);\n  return (int)cudaGetLastError();\n}\n";
  };
  Write("x.cuh", header("x"));
  Write("y.cuh", header("y"));
  const auto unit = [](const std::string& type, const std::string& with) {
    return Unit(type, "#include \"" + with + ".cuh\"\nint use_" + with + "_" + type + "(" + type + "* p) { return " +
                          with + "_launch<" + type + ">(p); }\n");
  };
  Write("a.cu", unit("float", "x"));
  Write("b.cu", unit("int", "x"));
  Write("c.cu", unit("double", "y"));
  Write("d.cu", unit("int", "y"));
  const Run shared = SharedAsPlain({"a.cu", "b.cu", "c.cu", "d.cu"}, 3,
                                   "`#include \"common.cuh\"` once, then `+ x.cuh` (a.cu, b.cu) and `+ y.cuh` (c.cu, "
                                   "d.cu) on it; unchained, the two would be built alone");
  EXPECT_NE(shared.outputs.at("x.cuh").find("hipDeviceSynchronize"), std::string::npos) << shared.outputs.at("x.cuh");
  EXPECT_NE(shared.outputs.at("common.cuh").find("hipMemcpyToSymbol(HIP_SYMBOL(table)"), std::string::npos);
  EXPECT_NE(std::find_if(shared.findings.begin(), shared.findings.end(),
                         [](const std::string& line) { return line.find(" y.cuh:") != std::string::npos; }),
            shared.findings.end())
      << "the rules saw y.cuh's warp call through the chained PCH: " << testing::PrintToString(shared.findings);
  EXPECT_EQ(LeftInPchDirectory("prefix-"), 0u);
}

TEST_F(PrefixPchTest, DeviceSideParsesShareAPrefixAndFindWhatTheyFindWithout) {
  // Device code under __CUDA_ARCH__ in the shared header and in each unit: the analyzer parses both units on the
  // device side, where the header's warp loop is seen (HB104, HB102).
  Write("common.cuh", std::string(kCommonHeader) +
                          "__device__ inline float warp_max(float v) {\n#ifdef __CUDA_ARCH__\n"
                          "  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, o));\n"
                          "#endif\n  return v;\n}\n");
  const auto unit = [](const std::string& name) {
    return "#include \"" + name + ".cuh\"\n__global__ void k_" + name + "(int* p) {\n#ifdef __CUDA_ARCH__\n" +
           "  p[0] = __shfl_xor_sync(0xffffffff, p[0], 16);\n#endif\n}\n";
  };
  Write("a.cuh", "#include \"common.cuh\"\nint a_helper();\n");
  Write("b.cuh", "#pragma once\n#include \"common.cuh\"\nint b_helper();\n");
  Write("a.cu", unit("a"));
  Write("b.cu", unit("b"));
  const std::vector<fs::path> files = {"a.cu", "b.cu", "common.cuh", "a.cuh", "b.cuh"};
  const TranslateOptions options = Options(false);  // the translator's own prefix PCHs stay out of it
  AnalyzeOptions analyze;
  analyze.device_prelude_pch = MakePreludePchLookup(options);
  const Run plain = Translate(options, files, analyze);
  TranslateOptions with_prefixes = options;
  with_prefixes.use_prefix_pch = true;
  analyze.device_prefixes = MakeSharedPrefixesFactory(with_prefixes);
  ASSERT_TRUE(analyze.device_prefixes);
  const Run shared = Translate(options, files, analyze);
  EXPECT_EQ(plain.analyzer_parses, 2u) << "both units on the device side";
  EXPECT_EQ(shared.analyzer_parses, 2u) << "and no parse with the prefix PCH failed";
  EXPECT_EQ(shared.analyzer_pch_builds, 1u) << "`#include \"common.cuh\"` from inside a.cuh and b.cuh, once";
  EXPECT_EQ(shared.findings, plain.findings);
  EXPECT_EQ(shared.outputs, plain.outputs);
  EXPECT_NE(std::find_if(shared.findings.begin(), shared.findings.end(),
                         [](const std::string& line) { return line.rfind("HB104 common.cuh:", 0) == 0; }),
            shared.findings.end())
      << "the header's device-only loop was seen: " << testing::PrintToString(shared.findings);
  EXPECT_EQ(LeftInPchDirectory("prefix-"), 0u) << "the pass's prefix PCHs go with it";

  TranslateOptions off = with_prefixes;
  off.use_prefix_pch = false;
  EXPECT_FALSE(MakeSharedPrefixesFactory(off)) << "off with the translator's";
}

TEST(IncludePrefixesTest, CutsAfterEachIncludeWithEveryConditionalClosed) {
  const fs::path dir = fs::temp_directory_path() / ("hipforge-prefixes-" + std::to_string(std::random_device{}()));
  fs::create_directories(dir);
  std::ofstream(dir / "beside.h") << "#pragma once\n";
  const fs::path unit = dir / "u.cu";
  const std::string content =
      "// leading comment\n#define FIRST 1\n#include \"beside.h\" // trailing\n#include \"elsewhere.h\"\n"
      "#ifdef FIRST\n#include <vector>\n#endif\n#include <map>\n#pragma once\n#include <set>\nint x;\n";
  const CacheLocations locations{dir / "pch", dir / "shims"};
  const auto prefixes = IncludePrefixes(content, unit, dir, {"-DX"}, locations, "salt");
  ASSERT_EQ(prefixes.size(), 3u) << "after beside.h, elsewhere.h and map; <vector> is inside #ifdef; #pragma ends";
  EXPECT_EQ(prefixes[0].text, "#define FIRST 1\n#include \"" + dir.string() + "/beside.h\"\n")
      << "a quoted include beside the unit is made absolute, comments are dropped";
  EXPECT_EQ(prefixes[2].text, prefixes[0].text +
                                  "#include \"elsewhere.h\"\n#ifdef FIRST\n#include <vector>\n"
                                  "#endif\n#include <map>\n");
  // The key holds the arguments and the salt: another configuration never shares it.
  EXPECT_NE(IncludePrefixes(content, unit, dir, {"-DY"}, locations, "salt")[0].key, prefixes[0].key);
  EXPECT_NE(IncludePrefixes(content, unit, dir, {"-DX"}, locations, "other")[0].key, prefixes[0].key);
  EXPECT_EQ(IncludePrefixes("// other comment\n" + content, unit, dir, {"-DX"}, locations, "salt")[0].key,
            prefixes[0].key);

  IncludePrefixPlan plan;
  plan.Count(prefixes);
  EXPECT_TRUE(plan.Choose(prefixes).empty()) << "no other unit has it";
  const auto other = IncludePrefixes("#define FIRST 1\n#include \"beside.h\"\n#include \"elsewhere.h\"\nint y;\n", unit,
                                     dir, {"-DX"}, locations, "salt");
  plan.Count(other);
  ASSERT_EQ(plan.Choose(prefixes).size(), 2u);
  EXPECT_EQ(plan.Choose(prefixes)[0].key, prefixes[1].key) << "the longest shared one first";
  EXPECT_TRUE(IncludePrefixes("#include SOME_MACRO\n#include <map>\n", unit, dir, {}, locations, "").empty());
  EXPECT_TRUE(
      IncludePrefixes("#if __has_include(<map>)\n#endif\n#include <map>\n", unit, dir, {}, locations, "").empty());
  // Library headers alone are left to the prelude and library preamble PCHs: a prefix must reach a project file,
  // beside the unit or through an -I directory in the tree (not one outside it).
  EXPECT_EQ(IncludePrefixes("#include <map>\n#include <set>\n", unit, dir, {}, locations, "").size(), 0u);
  EXPECT_EQ(IncludePrefixes("#include <map>\n#include \"beside.h\"\n", unit, dir, {}, locations, "").size(), 1u);
  fs::create_directories(dir / "include");
  std::ofstream(dir / "include" / "lib.h") << "#pragma once\n";
  EXPECT_EQ(IncludePrefixes("#include <lib.h>\n", unit, dir, {"-I", (dir / "include").string()}, locations, "").size(),
            1u);
  EXPECT_EQ(IncludePrefixes("#include <lib.h>\n", unit, dir / "elsewhere", {"-Iinclude"}, locations, "").size(), 0u);
  fs::remove_all(dir);
}

TEST(IncludePrefixesTest, FollowsAQuotedProjectHeaderIntoItsOwnLeadingIncludes) {
  const fs::path dir = fs::temp_directory_path() / ("hipforge-prefixes-" + std::to_string(std::random_device{}()));
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "common.cuh") << "#pragma once\nint common;\n";
  std::ofstream(dir / "own.cuh") << "// own header\n#pragma once\n#include \"common.cuh\"\n#define OWN 1\n"
                                    "#include <vector>\nint own;\n";
  std::ofstream(dir / "outer.cuh") << "#include \"own.cuh\"\n";
  std::ofstream(dir / "guarded.cuh") << "#ifndef GUARDED_CUH\n#define GUARDED_CUH\n#include \"common.cuh\"\n#endif\n";
  const fs::path unit = dir / "u.cu";
  const CacheLocations locations{dir / "pch", dir / "shims"};
  const std::string common = "#include \"" + dir.string() + "/common.cuh\"\n";
  const auto prefixes =
      IncludePrefixes("#define FIRST 1\n#include \"own.cuh\"\nint u;\n", unit, dir, {}, locations, "");
  ASSERT_EQ(prefixes.size(), 3u) << "two cuts inside own.cuh, then own.cuh's own include";
  EXPECT_EQ(prefixes[0].text, "#define FIRST 1\n" + common) << "past the header's #pragma once";
  EXPECT_EQ(prefixes[1].text, "#define FIRST 1\n" + common + "#define OWN 1\n#include <vector>\n");
  EXPECT_EQ(prefixes[2].text, "#define FIRST 1\n#include \"" + dir.string() + "/own.cuh\"\n");
  EXPECT_EQ(prefixes[0].inside, std::vector<fs::path>{dir.string() + "/own.cuh"});
  EXPECT_TRUE(prefixes[2].inside.empty());
  // The same text as a unit that begins with common.cuh itself: one PCH for both.
  EXPECT_EQ(IncludePrefixes("#define FIRST 1\n#include \"common.cuh\"\n", unit, dir, {}, locations, "")[0].key,
            prefixes[0].key);

  // Headers inside headers; quoted includes spelled from the header's directory, as the unit's parse reaches them.
  const auto nested = IncludePrefixes("#include \"../outer.cuh\"\n", dir / "sub" / "v.cu", dir, {}, locations, "");
  ASSERT_EQ(nested.size(), 4u);
  const std::string up = dir.string() + "/sub/..";
  EXPECT_EQ(nested[0].text, "#include \"" + up + "/common.cuh\"\n");
  EXPECT_EQ(nested[0].inside, (std::vector<fs::path>{up + "/outer.cuh", up + "/own.cuh"}));
  EXPECT_EQ(nested[2].text, "#include \"" + up + "/own.cuh\"\n");
  EXPECT_EQ(nested[3].text, "#include \"" + up + "/outer.cuh\"\n");

  // Not followed: an include inside a conditional, an #ifndef-guarded header (its #define would have to stay out),
  // a header outside the project.
  EXPECT_EQ(
      IncludePrefixes("#ifdef X\n#include \"own.cuh\"\n#endif\n#include \"common.cuh\"\n", unit, dir, {}, locations, "")
          .size(),
      1u);
  EXPECT_EQ(IncludePrefixes("#include \"guarded.cuh\"\n", unit, dir, {}, locations, "").size(), 1u);
  EXPECT_EQ(IncludePrefixes("#include \"own.cuh\"\n", unit, dir / "sub", {}, locations, "").size(), 1u)
      << "own.cuh lies outside this root: only its own include (beside the unit) is a candidate";
  fs::remove_all(dir);
}

// A PCH shared from inside different headers is a unit's only when it did not enter that unit's header: with
// x.h -> y.h -> x.h, a parse with y.h's PCH would skip x.h's body (#pragma once), which a parse without reads.
TEST(PrefixPchsTest, APchIsNotTheUnitsWhenItEnteredTheHeaderItWasTakenFrom) {
  const fs::path dir = fs::temp_directory_path() / ("hipforge-prefix-pchs-" + std::to_string(std::random_device{}()));
  fs::create_directories(dir / "tree");
  const fs::path root = fs::canonical(dir / "tree");
  const auto write = [&](const std::string& name, const std::string& text) { std::ofstream(root / name) << text; };
  write("y.h", "#pragma once\n#include \"x.h\"\nint y;\n");
  write("x.h", "#pragma once\n#include \"y.h\"\nint x;\n");
  write("z.h", "#pragma once\n#include \"y.h\"\nint z;\n");
  const CacheLocations locations{dir / "pch", dir / "shims"};
  const std::vector<std::string> args = {"-xc++", "-std=c++17"};
  const auto first = [&](const std::string& unit) {  // the candidate from inside `unit`'s own header
    for (IncludePrefix& prefix :
         IncludePrefixes("#include \"" + unit + "\"\nint u;\n", root / "u.cpp", root, args, locations, "")) {
      if (prefix.inside.size() == 1) return prefix;
    }
    return IncludePrefix{};
  };
  const IncludePrefix from_x = first("x.h"), from_z = first("z.h");
  ASSERT_FALSE(from_x.key.empty());
  ASSERT_EQ(from_x.key, from_z.key) << "both are `#include \"y.h\"`";
  IncludePrefixPlan plan;
  plan.Count(IncludePrefixes("#include \"x.h\"\n", root / "u.cpp", root, args, locations, ""));
  EXPECT_TRUE(plan.Choose({from_x}).empty()) << "reached twice through the cycle, still one unit's";
  PrefixPchs pchs(dir / "pch" / "job");
  const PrefixPchs::Request request{".cpp", args, {}, root, nullptr};
  EXPECT_NE(pchs.Get(from_z, request), nullptr);
  EXPECT_EQ(pchs.Get(from_x, request), nullptr);
  EXPECT_EQ(pchs.builds(), 1u) << "built once for both";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hipforge::translate
