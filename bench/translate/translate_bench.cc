// Translation throughput: files/s and peak memory for one corpus, cold (empty fact cache and PCH directory)
// and warm (both filled by the cold run). Numbers are reported, never asserted.
//   translate_bench --corpus DIR [--jobs N] [--hip-kernel-execution-syntax]
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <random>
#include <thread>

#include "worker/translate/core/source_translator.h"

namespace fs = std::filesystem;
using namespace hipforge::translate;

namespace {

long PeakRssKib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

bool IsSource(const fs::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".cu" || ext == ".cpp" || ext == ".cc" || ext == ".cxx";
}

}  // namespace

int main(int argc, char** argv) {
  fs::path corpus;
  unsigned jobs = 0;
  bool hip_syntax = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--corpus" && i + 1 < argc) {
      corpus = argv[++i];
    } else if (arg == "--jobs" && i + 1 < argc) {
      jobs = static_cast<unsigned>(std::stoul(argv[++i]));
    } else if (arg == "--hip-kernel-execution-syntax") {
      hip_syntax = true;
    } else {
      std::cerr << "usage: translate_bench --corpus DIR [--jobs N] [--hip-kernel-execution-syntax]\n";
      return 2;
    }
  }
  if (corpus.empty() || !fs::is_directory(corpus)) {
    std::cerr << "translate_bench: --corpus must name a directory\n";
    return 2;
  }
  corpus = fs::canonical(corpus);
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(corpus)) {
    if (entry.is_regular_file() && IsSource(entry.path())) files.push_back(entry.path().lexically_relative(corpus));
  }
  std::sort(files.begin(), files.end());
  const fs::path scratch = fs::temp_directory_path() / ("hipforge-bench-" + std::to_string(std::random_device{}()));
  TranslateOptions options;
  options.jobs = jobs;
  options.hip_kernel_execution_syntax = hip_syntax;
  options.guess_build_flags = false;
  options.cache_directory = scratch / "cache";
  options.pch_directory = scratch / "pch";
  options.frontend.shim_directory = scratch / "shims";
  auto translator = CreateSourceTranslator(options);
  if (!translator.ok()) {
    std::cerr << "translate_bench: " << translator.status() << "\n";
    return 1;
  }
  std::cout << "corpus: " << corpus << " (" << files.size()
            << " source files), jobs=" << (jobs ? jobs : std::thread::hardware_concurrency()) << "\n";
  for (const char* phase : {"cold", "warm"}) {
    const auto started = std::chrono::steady_clock::now();
    auto results = (*translator)->Translate(corpus, files, {}, nullptr);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (!results.ok()) {
      std::cerr << "translate_bench: " << results.status() << "\n";
      return 1;
    }
    int fallback = 0, cached = 0;
    for (const auto& file : *results) {
      fallback += file.status == FileStatus::kFallback;
      cached += file.from_cache;
    }
    std::cout << std::fixed << std::setprecision(2) << phase << ": " << files.size() << " files in " << seconds
              << " s = " << files.size() / seconds << " files/s; outputs " << results->size() << " (fallback "
              << fallback << ", from cache " << cached << "); peak RSS " << PeakRssKib() / 1024 << " MiB\n";
  }
  fs::remove_all(scratch);
  return 0;
}
