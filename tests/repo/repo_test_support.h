#pragma once
// Helpers shared by the repository-pass tests.
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include "tests/support/scratch_dir.h"
#include "worker/translate/repo/repository_migration.h"

namespace hipforge::translate {

inline std::filesystem::path RepoData(const std::string& name) {
  return std::filesystem::path(HIPFORGE_REPO_TEST_DATA) / name;
}

// Writes `text` to `path`, creating its directories.
inline void WriteText(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream data;
  data << in.rdbuf();
  return data.str();
}

// The repository tests' scratch tree (tests/support/scratch_dir.h).
class TempDir : public hipforge::testing::ScratchDir {
 public:
  TempDir() : ScratchDir("repo-test") {}
};

// A migration result, or why the test has to skip (the source translator is not built into this binary).
struct MigrationOrSkip {
  std::optional<MigrationResult> result;
  std::string skip_reason;
  bool translator_missing = false;
  explicit operator bool() const { return result.has_value(); }
  MigrationResult* operator->() { return &*result; }
  MigrationResult& operator*() { return *result; }
};

inline MigrationOrSkip MigrateOrSkip(const std::filesystem::path& input, const std::filesystem::path& output,
                                     const MigrationOptions& options) {
  absl::StatusOr<MigrationResult> result = MigrateRepository(input, output, options, nullptr);
  if (result.ok()) return {std::move(*result), "", false};
  if (result.status().code() == absl::StatusCode::kFailedPrecondition &&
      result.status().message().find("cannot be translated") != std::string_view::npos) {
    return {std::nullopt, std::string(result.status().message()), true};
  }
  return {std::nullopt, "migration failed: " + result.status().ToString(), false};
}

// Skips the test only when the translator is missing from this build; any other failure fails it.
#define HIPFORGE_MIGRATE_OR_SKIP(var, input, output, options)              \
  auto var = ::hipforge::translate::MigrateOrSkip(input, output, options); \
  if (!var) {                                                              \
    if (var.translator_missing) GTEST_SKIP() << var.skip_reason;           \
    FAIL() << var.skip_reason;                                             \
  }

}  // namespace hipforge::translate
