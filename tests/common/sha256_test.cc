#include "common/sha256.h"
#include "tests/support/scratch_dir.h"

#include <gtest/gtest.h>

#include <fstream>

namespace hipforge {
namespace {

TEST(Sha256Test, KnownVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256Test, FileMatchesInMemoryDigest) {
  const hipforge::testing::ScratchDir scratch("sha256-test");
  const auto path = scratch.path() / "data.bin";
  std::string data(200000, 'x');
  std::ofstream(path, std::ios::binary) << data;
  auto digest = Sha256HexOfFile(path);
  ASSERT_TRUE(digest.ok()) << digest.status();
  EXPECT_EQ(*digest, Sha256Hex(data));
  std::filesystem::remove(path);
  EXPECT_EQ(Sha256HexOfFile(path).status().code(), absl::StatusCode::kNotFound);
}

TEST(Sha256Test, HasherOverPiecesMatchesOneShotDigest) {
  std::string data;
  for (int i = 0; i < 100000; ++i) data += static_cast<char>(i * 7);
  Sha256Hasher hasher;
  for (size_t offset = 0; offset < data.size(); offset += 777)
    hasher.Update(std::string_view(data).substr(offset, 777));
  EXPECT_EQ(hasher.HexDigest(), Sha256Hex(data));
}

}  // namespace
}  // namespace hipforge
