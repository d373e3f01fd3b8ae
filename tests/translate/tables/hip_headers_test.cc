// Every runtime-API HIP name the tables claim for HIP <= 5.2 must be declared somewhere in the installed HIP
// headers (Debian's HIP 5.2 on the build machine). Catches typos and wrong versions in the data.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <string>
#include <unordered_set>

#include "worker/translate/tables/mapping_index.h"

namespace hipforge::translate {
namespace {

std::unordered_set<std::string> IdentifiersUnder(const std::filesystem::path& dir) {
  std::unordered_set<std::string> identifiers;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream file(entry.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    size_t i = 0;
    while (i < text.size()) {
      const unsigned char c = text[i];
      if (std::isalpha(c) || c == '_') {
        size_t end = i + 1;
        while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
        identifiers.emplace(text, i, end - i);
        i = end;
      } else {
        ++i;
      }
    }
  }
  return identifiers;
}

// Returns how many records were checked; adds the missing ones to `missing`.
int CheckLibrary(const MappingIndex& index, ApiLibrary library, ApiVersion hip_version,
                 const std::unordered_set<std::string>& identifiers, std::vector<std::string>& missing) {
  int checked = 0;
  for (const ApiMapping& m : index.Table(library)) {
    if (m.hip_name.empty() || m.hip_state == SupportState::kUnsupported) continue;
    if (!m.hip_introduced.IsSet() || hip_version < m.hip_introduced) continue;
    ++checked;
    std::string_view spelled = HipNameFor(m, hip_version);
    // Cooperative-groups names are qualified (cooperative_groups::sync); the headers declare the last part.
    if (const size_t colons = spelled.rfind("::"); colons != std::string_view::npos) spelled.remove_prefix(colons + 2);
    if (!identifiers.count(std::string(spelled))) {
      missing.push_back(std::string(m.cuda_name) + " -> " + std::string(spelled) + " (HIP " +
                        std::to_string(m.hip_introduced.major) + "." + std::to_string(m.hip_introduced.minor) + ")");
    }
  }
  return checked;
}

class HipHeadersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::is_directory(HIPFORGE_HIP_INCLUDE_DIR)) {
      GTEST_SKIP() << "no HIP headers at " << HIPFORGE_HIP_INCLUDE_DIR << " (install libamdhip64-dev)";
    }
    identifiers_ = IdentifiersUnder(HIPFORGE_HIP_INCLUDE_DIR);
  }
  std::unordered_set<std::string> identifiers_;
  const MappingIndex index_;
};

TEST_F(HipHeadersTest, RuntimeApiTargetsUpTo52ExistInInstalledHeaders) {
  std::vector<std::string> missing;
  const int checked = CheckLibrary(index_, ApiLibrary::kRuntime, {5, 2}, identifiers_, missing);
  std::cout << "  runtime: checked " << checked << " HIP names, missing " << missing.size() << "\n";
  for (const std::string& line : missing) std::cout << "  missing: " << line << "\n";
  EXPECT_GT(checked, 150);
  EXPECT_TRUE(missing.empty());
}

// Same check for the driver API, the runtime/driver types and cuComplex, which the translator also emits for
// HIP 5.2. Names HIP renamed after 5.2 are checked in their 5.2 spelling (hip_name_before).
TEST_F(HipHeadersTest, DriverApiAndTypeTargetsUpTo52ExistInInstalledHeaders) {
  for (ApiLibrary library :
       {ApiLibrary::kDriver, ApiLibrary::kTypes, ApiLibrary::kComplex, ApiLibrary::kDevice, ApiLibrary::kRtc}) {
    std::vector<std::string> missing;
    const int checked = CheckLibrary(index_, library, {5, 2}, identifiers_, missing);
    std::cout << "  " << LibraryName(library) << ": checked " << checked << " HIP names, missing " << missing.size()
              << "\n";
    for (const std::string& line : missing) std::cout << "  missing: " << line << "\n";
    EXPECT_GT(checked, 0);
    EXPECT_TRUE(missing.empty()) << LibraryName(library);
  }
}

// Every hip/... header the headers table emits for HIP 5.2 is installed by the host's libamdhip64-dev (5.2.3).
// Headers HIP added later (hip_introduced after 5.2: hip_math_constants.h, hip_bf16.h, hip_fp8.h) are checked
// against the 5.7/6.4 toolchains' real headers by toolchain_build_tests.
TEST_F(HipHeadersTest, HipHeaderTargetsExist) {
  const std::filesystem::path include_root = std::filesystem::path(HIPFORGE_HIP_INCLUDE_DIR).parent_path();
  int checked = 0;
  for (const ApiMapping& m : index_.Table(ApiLibrary::kHeaders)) {
    if (m.hip_state == SupportState::kUnsupported || m.hip_name.substr(0, 4) != "hip/") continue;
    if (!AvailableInHip(m, {5, 2})) continue;
    ++checked;
    const std::string name(m.hip_name);
    EXPECT_TRUE(std::filesystem::exists(include_root / name)) << m.cuda_name << " -> " << name;
  }
  EXPECT_GT(checked, 10);
}

}  // namespace
}  // namespace hipforge::translate
