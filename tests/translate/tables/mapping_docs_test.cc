// docs/mappings must be exactly what gen_mapping_docs produces from the committed tables.
#include "worker/translate/tables/tools/mapping_docs.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

namespace hipforge::translate {
namespace {

const std::filesystem::path kDocsDir = std::filesystem::path(HIPFORGE_SOURCE_DIR) / "docs" / "mappings";

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

TEST(MappingDocsTest, CommittedDocsMatchTheTables) {
  const MappingIndex index;
  const auto rendered = RenderMappingDocs(index);
  for (const auto& [name, content] : rendered) {
    const auto path = kDocsDir / name;
    ASSERT_TRUE(std::filesystem::exists(path)) << path << " missing; run gen_mapping_docs docs/mappings";
    EXPECT_TRUE(ReadFile(path) == content) << path << " is stale; run gen_mapping_docs docs/mappings";
  }
  std::set<std::string> stray;
  for (const auto& entry : std::filesystem::directory_iterator(kDocsDir)) {
    if (!rendered.count(entry.path().filename().string())) stray.insert(entry.path().filename().string());
  }
  EXPECT_TRUE(stray.empty()) << "files in docs/mappings that no table produces: " << *stray.begin();
}

TEST(MappingDocsTest, RenderingIsDeterministicAndCoversEveryTable) {
  const MappingIndex index;
  const auto first = RenderMappingDocs(index);
  EXPECT_EQ(first, RenderMappingDocs(index));
  // One page per table, README.md and version-macros.md (rendered from the version-macro table).
  EXPECT_EQ(first.size(), index.Tables().size() + 2);
  EXPECT_TRUE(first.count("version-macros.md"));
  EXPECT_NE(first.at("README.md").find("[runtime](runtime.md)"), std::string::npos);
  EXPECT_NE(first.at("device.md").find("`__shfl_down_sync`"), std::string::npos);
}

}  // namespace
}  // namespace hipforge::translate
