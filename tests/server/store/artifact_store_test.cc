// Content-addressed artifact files on disk.
#include "server/store/artifact_store.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "common/sha256.h"

namespace hipforge::server {
namespace {
namespace fs = std::filesystem;

class ArtifactStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/hipforge-artifacts-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    dir_ = pattern;
    store_ = std::make_unique<ArtifactStore>(dir_, 1 << 20);
    ASSERT_TRUE(store_->Init().ok());
  }
  void TearDown() override { fs::remove_all(dir_); }

  size_t FilesUnder(const fs::path& root) {
    size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(root)) count += entry.is_regular_file() ? 1 : 0;
    return count;
  }

  fs::path dir_;
  std::unique_ptr<ArtifactStore> store_;
};

TEST_F(ArtifactStoreTest, StreamingWriteRoundTrips) {
  std::string data;
  for (int i = 0; i < 5000; ++i) data += "chunk " + std::to_string(i) + "\n";
  auto writer = store_->NewWriter();
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (size_t offset = 0; offset < data.size(); offset += 777) {
    ASSERT_TRUE((*writer)->Append(std::string_view(data).substr(offset, 777)).ok());
  }
  auto stored = (*writer)->Finish();
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->digest, Sha256Hex(data));
  EXPECT_EQ(stored->size_bytes, static_cast<int64_t>(data.size()));
  EXPECT_TRUE(fs::is_regular_file(dir_ / "artifacts" / stored->digest.substr(0, 2) / stored->digest.substr(2)));
  EXPECT_TRUE(store_->Contains(stored->digest));

  auto reader = store_->Open(stored->digest);
  ASSERT_TRUE(reader.ok()) << reader.status();
  EXPECT_EQ((*reader)->size_bytes(), static_cast<int64_t>(data.size()));
  std::string read_back;
  for (;;) {
    auto chunk = (*reader)->Read(4096);
    ASSERT_TRUE(chunk.ok());
    if (chunk->empty()) break;
    read_back += *chunk;
  }
  EXPECT_EQ(read_back, data);
  EXPECT_EQ(*store_->ReadAll(stored->digest, 1 << 20), data);
  EXPECT_EQ(FilesUnder(dir_ / "artifacts" / "tmp"), 0u);
}

TEST_F(ArtifactStoreTest, IdenticalContentIsStoredOnce) {
  auto first = store_->Put("same bytes");
  auto second = store_->Put("same bytes");
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->digest, second->digest);
  EXPECT_EQ(FilesUnder(dir_ / "artifacts"), 1u);
}

TEST_F(ArtifactStoreTest, SizeLimitIsEnforcedWhileWriting) {
  auto writer = store_->NewWriter(/*max_bytes=*/100);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Append(std::string(60, 'x')).ok());
  const auto status = (*writer)->Append(std::string(60, 'y'));
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_FALSE((*writer)->Finish().ok());
  EXPECT_EQ(FilesUnder(dir_ / "artifacts"), 0u) << "a rejected upload leaves nothing behind";
  // The store-wide default applies too.
  ArtifactStore small(dir_, 10);
  EXPECT_EQ(small.Put(std::string(11, 'z')).status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(small.Put(std::string(10, 'z')).ok());
}

TEST_F(ArtifactStoreTest, UnfinishedWriterIsInvisibleAndCleanedUp) {
  auto writer = store_->NewWriter();
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Append("partial upload").ok());
  // Readers never see an artifact before Finish: it is only in tmp/ under a random name.
  EXPECT_FALSE(store_->Contains(Sha256Hex("partial upload")));
  EXPECT_EQ(FilesUnder(dir_ / "artifacts" / "tmp"), 1u);
  writer->reset();  // abandoned (client disconnected)
  EXPECT_EQ(FilesUnder(dir_ / "artifacts"), 0u);
}

TEST_F(ArtifactStoreTest, ConcurrentWritersOfSameContent) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  const std::string data(200000, 'q');
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      auto stored = store_->Put(data);
      if (!stored.ok() || stored->digest != Sha256Hex(data)) ++failures;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(*store_->ReadAll(Sha256Hex(data), 1 << 20), data);
  EXPECT_EQ(FilesUnder(dir_ / "artifacts"), 1u);
}

TEST_F(ArtifactStoreTest, MalformedOrMissingDigests) {
  EXPECT_EQ(store_->Open("../../etc/passwd").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Open(std::string(64, 'A')).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Open(std::string(64, 'a')).status().code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(store_->Contains("xyz"));
  auto stored = store_->Put(std::string(100, 'r'));
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(store_->ReadAll(stored->digest, 99).status().code(), absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace hipforge::server
