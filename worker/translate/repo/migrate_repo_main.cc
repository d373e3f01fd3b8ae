// hipforge-repo-migrate: runs the repository pass on a checkout (a developer driver; users get migrate-cli
// translate). Writes the tree, and optionally the report JSON and the patch.
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>

#include "worker/translate/core/pch_cache.h"
#include "worker/translate/repo/repository_migration.h"

int main(int argc, char** argv) {
  CLI::App app{"Migrate a CUDA repository to HIP (repository pass)"};
  std::string input, output, report_path, patch_path, cache;
  std::vector<std::string> archs;
  bool rename = false;
  app.add_option("input", input, "CUDA repository")->required();
  app.add_option("output", output, "where the HIP tree is written (new or empty)")->required();
  app.add_option("--arch", archs, "HIP architectures (default gfx90a gfx942)");
  app.add_flag("--rename-to-hip", rename, "rename .cu files to .hip");
  app.add_option("--report", report_path, "write the report JSON here");
  app.add_option("--patch", patch_path, "write the unified patch here");
  app.add_option("--cache", cache, "cache directory for unchanged files");
  std::string pch_cache_size;
  app.add_option("--pch-cache-size", pch_cache_size,
                 "size cap of the PCH cache, least recently used evicted past it (2G, 500M; 0: unbounded; default "
                 "$HIPFORGE_PCH_CACHE_SIZE, else 2G)");
  CLI11_PARSE(app, argc, argv);

  hipforge::translate::MigrationOptions options;
  if (!archs.empty()) options.hip_architectures = archs;
  options.rename_to_hip = rename;
  if (!cache.empty()) options.translate.cache_directory = cache;
  if (!pch_cache_size.empty()) {
    options.translate.pch_cache_bytes = hipforge::translate::ParseByteSize(pch_cache_size);
    if (!options.translate.pch_cache_bytes) {
      std::cerr << "bad --pch-cache-size '" << pch_cache_size << "' (expected e.g. 2G, 500M, 0)\n";
      return 2;
    }
  }
  auto result = hipforge::translate::MigrateRepository(input, output, options, nullptr);
  if (!result.ok()) {
    std::cerr << "migration failed: " << result.status() << "\n";
    return 1;
  }
  const nlohmann::json report = hipforge::translate::ToReportJson(*result);
  if (!report_path.empty()) std::ofstream(report_path) << report.dump(2) << "\n";
  if (!patch_path.empty()) std::ofstream(patch_path) << result->unified_patch;
  std::cout << report["translation"]["totals"].dump() << "\n";
  for (const auto& file : result->files) {
    if (!file.left_for_person.empty()) {
      for (const auto& step : file.left_for_person) std::cout << file.path << ": " << step << "\n";
    }
  }
  return 0;
}
