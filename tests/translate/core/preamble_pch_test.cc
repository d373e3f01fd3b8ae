// The library preamble PCH (core/prelude_pch.h): units whose leading directives include only library headers
// are parsed with a PCH of those directives, chained on the prelude PCH. It must change nothing but the time:
// the same output as without it, one PCH for units with the same preamble, none for a preamble seen only once,
// a stale one rebuilt, and never a project header inside it.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "worker/translate/core/prelude_pch.h"
#include "worker/translate/core/source_translator.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLibraryHeader = R"(#pragma once
#define LIBRARY_BLOCK 64
__host__ __device__ inline int library_scale(int x) { return x * LIBRARY_BLOCK; }
)";

// A unit whose preamble is only library includes (the toolkit's and library/'s), with leading comments.
std::string LibraryUnit(const std::string& comment) {
  return "// " + comment + "\n#include <cuda_runtime.h>\n#include \"library.h\"\n" + R"(
__global__ void fill(int* out) { out[threadIdx.x] = library_scale(LIBRARY_BLOCK); }
int main() {
  int* d;
  cudaMalloc(&d, 256);
  fill<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  cudaFree(d);
}
)";
}

class PreamblePchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists("/usr/local/cuda/include/cuda_runtime.h") && !std::getenv("CUDA_PATH")) {
      GTEST_SKIP() << "no CUDA toolkit: no prelude PCH to chain a preamble PCH on";
    }
    base_ = fs::temp_directory_path() / ("hipforge-preamble-pch-" + std::to_string(std::random_device{}()));
    fs::create_directories(base_ / "tree");
    fs::create_directories(base_ / "library");
    root_ = fs::canonical(base_ / "tree");
    Write(base_ / "library" / "library.h", kLibraryHeader);
  }
  void TearDown() override {
    if (!base_.empty()) fs::remove_all(base_);
  }

  static void Write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
  }

  TranslateOptions Options(bool preamble) {
    TranslateOptions options;
    options.jobs = 1;
    options.frontend.shim_directory = base_ / "shims";
    options.frontend.include_dirs = {base_ / "library", root_ / "include"};
    options.pch_directory = base_ / "pch";
    options.use_preamble_pch = preamble;
    return options;
  }

  std::vector<FileTranslation> Translate(bool preamble, const std::vector<fs::path>& files) {
    auto translator = CreateSourceTranslator(Options(preamble));
    EXPECT_TRUE(translator.ok()) << translator.status();
    auto translated = (*translator)->Translate(root_, files, {}, nullptr);
    EXPECT_TRUE(translated.ok()) << translated.status();
    for (const FileTranslation& file : *translated) {
      EXPECT_NE(file.status, FileStatus::kFailed) << file.path;
      EXPECT_TRUE(file.fallback_reason.empty()) << file.path << ": " << file.fallback_reason;
    }
    return std::move(*translated);
  }

  // Translates with a cache directory only (the PCHs and shims below it, as users and the repository pass do).
  std::vector<FileTranslation> TranslateCached(const fs::path& cache, const std::vector<fs::path>& files,
                                               std::optional<uint64_t> cap = std::nullopt) {
    TranslateOptions options = Options(true);
    options.frontend.shim_directory.clear();
    options.pch_directory.reset();
    options.cache_directory = cache;
    options.pch_cache_bytes = cap;
    auto translator = CreateSourceTranslator(options);
    EXPECT_TRUE(translator.ok()) << translator.status();
    auto translated = (*translator)->Translate(root_, files, {}, nullptr);
    EXPECT_TRUE(translated.ok()) << translated.status();
    for (const FileTranslation& file : *translated) {
      EXPECT_TRUE(file.fallback_reason.empty()) << file.path << ": " << file.fallback_reason;
    }
    return std::move(*translated);
  }

  static uint64_t DirectoryBytes(const fs::path& directory) {
    uint64_t bytes = 0;
    for (const auto& entry : fs::directory_iterator(directory)) bytes += entry.file_size();
    return bytes;
  }

  size_t PreamblePchFiles(const std::optional<fs::path>& directory = std::nullopt) {
    size_t count = 0;
    for (const auto& entry : fs::directory_iterator(directory.value_or(base_ / "pch"))) {
      const std::string name = entry.path().filename().string();
      count += name.rfind("preamble-", 0) == 0 && entry.path().extension() == ".pch";
    }
    return count;
  }

  static std::map<std::string, std::string> Outputs(const std::vector<FileTranslation>& files) {
    std::map<std::string, std::string> outputs;
    for (const FileTranslation& file : files) outputs[file.path] = file.output;
    return outputs;
  }

  fs::path base_, root_;
};

TEST_F(PreamblePchTest, UnitsWithTheSameLibraryPreambleShareOnePchAndKeepTheirOutput) {
  Write(root_ / "a.cu", LibraryUnit("first unit"));
  Write(root_ / "b.cu", LibraryUnit("second unit, other comment"));
  const auto plain = Outputs(Translate(false, {"a.cu", "b.cu"}));  // builds the prelude PCH only
  EXPECT_EQ(PreamblePchFiles(), 0u);

  const uint64_t before = PchBuildCount();
  const auto with_preamble = Outputs(Translate(true, {"a.cu", "b.cu"}));
  EXPECT_EQ(PchBuildCount() - before, 1u)
      << "the comments differ, the directives do not: b.cu is the second sighting, one preamble PCH";
  EXPECT_EQ(PreamblePchFiles(), 1u);
  EXPECT_EQ(with_preamble, plain);
  // The unit's own #include still reaches the translator's include rewriting.
  EXPECT_NE(with_preamble.at("a.cu").find("#include <hip/hip_runtime.h>"), std::string::npos)
      << with_preamble.at("a.cu");
  EXPECT_NE(with_preamble.at("a.cu").find("hipMalloc"), std::string::npos);

  const uint64_t again = PchBuildCount();
  EXPECT_EQ(Outputs(Translate(true, {"a.cu"})), (std::map<std::string, std::string>{{"a.cu", plain.at("a.cu")}}));
  EXPECT_EQ(PchBuildCount(), again) << "a later run reuses it";
}

TEST_F(PreamblePchTest, APreambleSeenOnceIsNotPrecompiledUntilItIsSeenAgain) {
  Write(root_ / "a.cu", LibraryUnit("unit"));
  const auto plain = Outputs(Translate(false, {"a.cu"}));
  const uint64_t before = PchBuildCount();
  EXPECT_EQ(Outputs(Translate(true, {"a.cu"})), plain);
  EXPECT_EQ(PchBuildCount(), before) << "first sighting: parsed with the prelude PCH alone, nothing written";
  EXPECT_EQ(PreamblePchFiles(), 0u);
  EXPECT_EQ(Outputs(Translate(true, {"a.cu"})), plain);
  EXPECT_EQ(PchBuildCount() - before, 1u) << "a later run sees it again: precompiled";
  EXPECT_EQ(PreamblePchFiles(), 1u);
  EXPECT_EQ(Outputs(Translate(true, {"a.cu"})), plain);
  EXPECT_EQ(PchBuildCount() - before, 1u) << "and then reused";
}

TEST_F(PreamblePchTest, UnitsWhoseArgumentsDifferOnlyInDiagnosticFlagsShareTheirPchs) {
  Write(root_ / "a.cu", LibraryUnit("unit"));
  const auto plain = Outputs(Translate(true, {"a.cu"}));  // the prelude PCH; the preamble's first sighting
  TranslateOptions noisy = Options(true);
  noisy.frontend.extra_args = {"-Wall",   "-Wno-unused-variable",      "-ferror-limit=50", "-Xclang",
                               "-Wundef", "-fdiagnostics-color=always"};
  const uint64_t before = PchBuildCount();
  auto translator = CreateSourceTranslator(noisy);
  ASSERT_TRUE(translator.ok()) << translator.status();
  auto translated = (*translator)->Translate(root_, {"a.cu"}, {}, nullptr);
  ASSERT_TRUE(translated.ok()) << translated.status();
  EXPECT_EQ(Outputs(*translated), plain);
  EXPECT_EQ(PchBuildCount() - before, 1u) << "the same prelude PCH; the preamble's second sighting builds one";
  EXPECT_EQ(PreamblePchFiles(), 1u);
  const uint64_t again = PchBuildCount();
  EXPECT_EQ(Outputs(Translate(true, {"a.cu"})), plain);
  EXPECT_EQ(PchBuildCount(), again) << "and the plain arguments reuse that preamble PCH";

  noisy.frontend.extra_args = {"-DLIBRARY_EXTRA=1"};  // a define may change what a header declares
  translator = CreateSourceTranslator(noisy);
  ASSERT_TRUE(translator.ok()) << translator.status();
  ASSERT_TRUE((*translator)->Translate(root_, {"a.cu"}, {}, nullptr).ok());
  EXPECT_EQ(PchBuildCount() - again, 1u) << "a define gets a prelude PCH of its own (its preamble: first sighting)";
}

TEST_F(PreamblePchTest, AStalePreamblePchIsRebuiltNotTrusted) {
  Write(root_ / "a.cu", LibraryUnit("unit"));
  Translate(true, {"a.cu"});
  Translate(true, {"a.cu"});  // the second sighting builds it
  ASSERT_EQ(PreamblePchFiles(), 1u);

  // The library changes under the PCH: its macro and function now differ, and the unit uses a new one.
  Write(base_ / "library" / "library.h",
        std::string(kLibraryHeader) + "__host__ __device__ inline int library_added(int x) { return x; }\n");
  std::string unit = LibraryUnit("unit");
  unit.replace(unit.find("library_scale(LIBRARY_BLOCK)"), 28, "library_added(LIBRARY_BLOCK)");
  Write(root_ / "a.cu", unit);
  const uint64_t before = PchBuildCount();
  const auto stale_run = Outputs(Translate(true, {"a.cu"}));  // would fail to parse with the stale PCH's view
  EXPECT_EQ(stale_run, Outputs(Translate(false, {"a.cu"})));
  EXPECT_EQ(PreamblePchFiles(), 0u) << "the stale PCH is removed";
  Translate(true, {"a.cu"});
  EXPECT_EQ(PchBuildCount() - before, 1u) << "and rebuilt on the next parse";
  EXPECT_EQ(PreamblePchFiles(), 1u);
}

TEST_F(PreamblePchTest, APreambleThatIncludesAProjectHeaderIsNotPrecompiled) {
  // Beside the unit (a quoted include finds it first) and on an include path inside the tree.
  Write(root_ / "helper.cuh", "#pragma once\ninline void helper(int** p) { cudaMalloc(p, 4); }\n");
  Write(root_ / "include" / "project.h", "#pragma once\ninline void project(int** p) { cudaMalloc(p, 8); }\n");
  Write(root_ / "beside.cu",
        "#include <cuda_runtime.h>\n#include \"helper.cuh\"\nint main() { int* p; helper(&p); }\n");
  Write(root_ / "on_path.cu", "#include <cuda_runtime.h>\n#include <project.h>\nint main() { int* p; project(&p); }\n");
  const auto plain = Outputs(Translate(false, {"beside.cu", "on_path.cu"}));
  const uint64_t before = PchBuildCount();
  const auto with_preamble = Outputs(Translate(true, {"beside.cu", "on_path.cu"}));
  EXPECT_EQ(with_preamble, plain);
  EXPECT_EQ(PreamblePchFiles(), 0u);
  EXPECT_EQ(PchBuildCount(), before) << "beside.cu: not a library preamble; on_path.cu: first sighting";
  ASSERT_TRUE(with_preamble.count("include/project.h"));
  EXPECT_NE(with_preamble.at("include/project.h").find("hipMalloc"), std::string::npos);
  EXPECT_NE(with_preamble.at("helper.cuh").find("hipMalloc"), std::string::npos);
  EXPECT_EQ(Outputs(Translate(true, {"beside.cu", "on_path.cu"})), plain);
  EXPECT_EQ(PreamblePchFiles(), 0u);
  EXPECT_EQ(PchBuildCount() - before, 1u) << "on_path.cu's second sighting: tried, entered project.h, dropped";
  Translate(true, {"on_path.cu"});
  EXPECT_EQ(PchBuildCount() - before, 1u) << "a preamble that cannot be precompiled is not tried again";
}

TEST_F(PreamblePchTest, ACacheCopiedElsewhereIsAFullHit) {
  Write(root_ / "a.cu", LibraryUnit("first unit"));
  Write(root_ / "b.cu", LibraryUnit("second unit"));
  const auto warm = Outputs(TranslateCached(base_ / "cache-a", {"a.cu", "b.cu"}));
  ASSERT_GE(PreamblePchFiles(base_ / "cache-a" / "pch"), 1u);
  fs::copy(base_ / "cache-a", base_ / "cache-b", fs::copy_options::recursive);

  const uint64_t before = PchBuildCount();
  const auto copied = TranslateCached(base_ / "cache-b", {"a.cu", "b.cu"});
  for (const FileTranslation& file : copied) EXPECT_TRUE(file.from_cache) << file.path;
  EXPECT_EQ(PchBuildCount(), before) << "no PCH rebuilt";
  EXPECT_EQ(Outputs(copied), warm);
}

TEST_F(PreamblePchTest, AMovedCachesPchsNamingTheOldPathAreRebuiltNotTrusted) {
  Write(root_ / "a.cu", LibraryUnit("first unit"));
  Write(root_ / "b.cu", LibraryUnit("second unit"));
  TranslateCached(base_ / "cache-a", {"a.cu", "b.cu"});
  ASSERT_GE(PreamblePchFiles(base_ / "cache-a" / "pch"), 1u);
  fs::rename(base_ / "cache-a", base_ / "cache-b");  // the preamble PCH names cache-a's prelude, now gone

  // A changed unit is parsed (its facts miss) with the moved PCHs: same output as a parse without them.
  std::string unit = LibraryUnit("first unit");
  unit.replace(unit.find("library_scale(LIBRARY_BLOCK)"), 28, "library_scale(LIBRARY_BLOCK + 1)");
  Write(root_ / "a.cu", unit);
  const auto moved = Outputs(TranslateCached(base_ / "cache-b", {"a.cu"}));
  EXPECT_EQ(moved, Outputs(Translate(false, {"a.cu"})));
  EXPECT_NE(moved.at("a.cu").find("library_scale(LIBRARY_BLOCK + 1)"), std::string::npos) << moved.at("a.cu");

  // Both were found stale and removed: the next parses rebuild them (two units: a second sighting, should a
  // preamble need one), naming cache-b; a further parse then uses them without another build.
  unit.replace(unit.find("LIBRARY_BLOCK + 1"), 17, "LIBRARY_BLOCK + 2");
  Write(root_ / "a.cu", unit);
  Write(root_ / "b.cu", unit);
  uint64_t before = PchBuildCount();
  TranslateCached(base_ / "cache-b", {"a.cu", "b.cu"});
  EXPECT_EQ(PchBuildCount() - before, 2u) << "the prelude and the preamble, rebuilt";
  unit.replace(unit.find("LIBRARY_BLOCK + 2"), 17, "LIBRARY_BLOCK + 3");
  Write(root_ / "a.cu", unit);
  before = PchBuildCount();
  const auto settled = Outputs(TranslateCached(base_ / "cache-b", {"a.cu"}));
  EXPECT_EQ(PchBuildCount(), before);
  EXPECT_EQ(settled, Outputs(Translate(false, {"a.cu"})));
  EXPECT_GE(PreamblePchFiles(base_ / "cache-b" / "pch"), 1u);
}

TEST_F(PreamblePchTest, PerTaskShimDirectoriesReplaceThePreludeInsteadOfAddingOne) {
  // The translate worker's shims live in each task's directory (gone after the task), its PCHs in one cache,
  // and every parse is confined to the readable roots. A prelude PCH names the shims it was built with: the next
  // task finds it unusable (Clang: "could not find file ... referenced by AST file"), parses without it, and
  // rebuilds it under the same key, so tasks do not pile up preludes (they did while the key held the path).
  Write(root_ / "a.cu", LibraryUnit("first unit"));
  Write(root_ / "b.cu", LibraryUnit("second unit"));
  auto task = [&](const std::string& name) {
    TranslateOptions options = Options(true);
    options.frontend.shim_directory = base_ / name / "shim";
    options.frontend.confine_to_tree = true;
    auto translator = CreateSourceTranslator(options);
    EXPECT_TRUE(translator.ok()) << translator.status();
    auto translated = (*translator)->Translate(root_, {"a.cu", "b.cu"}, {}, nullptr);
    EXPECT_TRUE(translated.ok()) << translated.status();
    for (const FileTranslation& file : *translated) {
      EXPECT_TRUE(file.fallback_reason.empty()) << file.path << ": " << file.fallback_reason;
    }
    fs::remove_all(base_ / name);
    return Outputs(*translated);
  };
  auto prelude_pchs = [&] {
    size_t count = 0;
    for (const auto& entry : fs::directory_iterator(base_ / "pch")) {
      count += entry.path().extension() == ".pch" && entry.path().filename().string().rfind("preamble-", 0) != 0;
    }
    return count;
  };
  const auto first = task("task-1");
  EXPECT_EQ(task("task-2"), first);
  EXPECT_EQ(task("task-3"), first);
  EXPECT_EQ(prelude_pchs(), 1u);
}

TEST_F(PreamblePchTest, ATinyCapKeepsTheCacheUnderItAndTheOutputsTheSame) {
  // Three library preambles, two units each (a preamble may be precompiled only once it is seen twice).
  const std::vector<std::string> extra = {"", "#include <vector>\n", "#include <map>\n"};
  std::vector<fs::path> files;
  for (size_t i = 0; i < extra.size(); ++i) {
    for (const char* copy : {"a", "b"}) {
      std::string unit = LibraryUnit("unit");
      unit.insert(unit.find("\n__global__"), "\n" + extra[i]);
      files.push_back("u" + std::to_string(i) + copy + ".cu");
      Write(root_ / files.back(), unit);
    }
  }
  const auto unbounded = Outputs(TranslateCached(base_ / "unbounded", files, 0));
  ASSERT_EQ(PreamblePchFiles(base_ / "unbounded" / "pch"), extra.size());
  uint64_t prelude = 0, largest_preamble = 0;
  for (const auto& entry : fs::directory_iterator(base_ / "unbounded" / "pch")) {
    if (entry.path().extension() != ".pch") continue;
    const bool preamble = entry.path().filename().string().rfind("preamble-", 0) == 0;
    (preamble ? largest_preamble : prelude) = std::max(preamble ? largest_preamble : prelude, entry.file_size());
  }
  // Room for the prelude and one preamble (with their sources and stamps, < 1 KiB; a preamble PCH is > 16 KiB):
  // every new preamble evicts the last.
  const uint64_t cap = prelude + largest_preamble + 1024;
  const uint64_t before = PchBuildCount();
  const auto capped = TranslateCached(base_ / "capped", files, cap);
  EXPECT_EQ(Outputs(capped), unbounded);
  EXPECT_LE(DirectoryBytes(base_ / "capped" / "pch"), cap);
  EXPECT_LE(PreamblePchFiles(base_ / "capped" / "pch"), 1u);
  EXPECT_GE(PchBuildCount() - before, 1u + extra.size()) << "the prelude and each preamble were built";
  // Again, on its facts cache: nothing to parse, nothing evicted that the run needs; then with none.
  EXPECT_EQ(Outputs(TranslateCached(base_ / "capped", files, cap)), unbounded);
  fs::remove_all(base_ / "capped" / "facts");
  EXPECT_EQ(Outputs(TranslateCached(base_ / "capped", files, cap)), unbounded);
  EXPECT_LE(DirectoryBytes(base_ / "capped" / "pch"), cap);
}

}  // namespace
}  // namespace hipforge::translate
