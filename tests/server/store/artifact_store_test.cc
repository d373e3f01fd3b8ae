// Artifact stores. ArtifactStoreContractTest runs one set of checks against every implementation of
// artifact_store.h: the local directory, chunks in a real PostgreSQL (small chunks, so artifacts span many) and the
// in-memory fake consumers are unit-tested with. The fixtures after it check what only one store has.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include <pqxx/pqxx>

#include "common/sha256.h"
#include "server/store/local_artifact_store.h"
#include "server/store/postgres_artifact_store.h"
#include "server/store/postgres_job_store.h"
#include "tests/server/fakes/in_memory_artifact_store.h"
#include "tests/server/store/postgres_test_env.h"

namespace hipforge::server {
namespace {
namespace fs = std::filesystem;
using testing::ManualClock;
using namespace std::chrono_literals;

constexpr int64_t kChunkBytes = 1000;  // PostgreSQL chunks in these tests: most artifacts span several

fs::path MakeTempDir() {
  char pattern[] = "/tmp/hipforge-artifacts-XXXXXX";
  EXPECT_NE(::mkdtemp(pattern), nullptr);
  return pattern;
}

// A fresh migrated schema on the test PostgreSQL, dropped at the end.
class TestSchema {
 public:
  TestSchema() : name_(testing::FreshSchemaName()) {
    EXPECT_FALSE(testing::TestDatabaseUrl().empty()) << "no test database";
    absl::StatusOr<std::vector<int>> applied = ApplyMigrations(testing::TestDatabaseUrl(), name_);
    EXPECT_TRUE(applied.ok()) << applied.status();
  }
  ~TestSchema() {
    pqxx::connection connection(testing::TestDatabaseUrl());
    pqxx::work tx(connection);
    tx.exec("SET LOCAL client_min_messages TO warning");
    tx.exec("DROP SCHEMA IF EXISTS " + tx.quote_name(name_) + " CASCADE");
    tx.commit();
  }
  const std::string& name() const { return name_; }
  std::unique_ptr<ArtifactStore> Open(const Clock& clock, int64_t default_max_bytes) const {
    PostgresArtifactStoreOptions options;
    options.database_url = testing::TestDatabaseUrl();
    options.schema = name_;
    options.chunk_bytes = kChunkBytes;
    options.default_max_bytes = default_max_bytes;
    absl::StatusOr<std::unique_ptr<ArtifactStore>> store = OpenPostgresArtifactStore(options, clock);
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? *std::move(store) : nullptr;
  }
  std::string Scalar(const std::string& sql) const {
    pqxx::connection connection(testing::TestDatabaseUrl());
    pqxx::work tx(connection);
    tx.exec("SET LOCAL search_path TO " + tx.quote_name(name_));
    const pqxx::result rows = tx.exec(sql);
    tx.commit();
    return rows.empty() || rows[0][0].is_null() ? "" : rows[0][0].as<std::string>();
  }

 private:
  std::string name_;
};

// One implementation under test, behind the interface only.
class ArtifactStoreContractTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { store_ = Make(1 << 20); }
  void TearDown() override {
    store_.reset();
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  std::unique_ptr<ArtifactStore> Make(int64_t default_max_bytes) {
    if (GetParam() == "local") {
      if (dir_.empty()) dir_ = MakeTempDir();
      auto local = std::make_unique<LocalArtifactStore>(dir_, default_max_bytes);
      EXPECT_TRUE(local->Init().ok());
      return local;
    }
    if (GetParam() == "postgres") {
      if (!schema_) schema_ = std::make_unique<TestSchema>();
      return schema_->Open(clock_, default_max_bytes);
    }
    return std::make_unique<testing::InMemoryArtifactStore>(clock_, default_max_bytes);
  }

  // Hands back other bytes under `digest`, as a damaged disk or table would: a flipped byte in the local file, two
  // chunks of the PostgreSQL list swapped (each still matches its own digest, the whole does not).
  bool Damage(const std::string& digest) {
    if (GetParam() == "local") {
      std::fstream file(*dynamic_cast<LocalArtifactStore&>(*store_).PathOf(digest),
                        std::ios::in | std::ios::out | std::ios::binary);
      file.seekg(0);
      const char first = static_cast<char>(file.get());
      file.seekp(0);
      file.put(static_cast<char>(first ^ 0x01));
      return file.good();
    }
    if (GetParam() == "postgres") {
      const std::string where = "WHERE digest = '" + digest + "' AND seq = ";
      schema_->Scalar("UPDATE stored_artifact_chunks SET seq = 1000000 " + where + "0; " +
                      "UPDATE stored_artifact_chunks SET seq = 0 " + where + "1; " +
                      "UPDATE stored_artifact_chunks SET seq = 1 " + where + "1000000");
      return true;
    }
    return dynamic_cast<testing::InMemoryArtifactStore&>(*store_).Damage(digest);
  }

  static std::string ReadInPieces(ArtifactReader& reader, size_t piece) {
    std::string all;
    for (;;) {
      absl::StatusOr<std::string> chunk = reader.Read(piece);
      EXPECT_TRUE(chunk.ok()) << chunk.status();
      if (!chunk.ok() || chunk->empty()) return all;
      EXPECT_LE(chunk->size(), piece);
      all += *chunk;
    }
  }

  ManualClock clock_;
  fs::path dir_;
  std::unique_ptr<TestSchema> schema_;
  std::unique_ptr<ArtifactStore> store_;
};

TEST_P(ArtifactStoreContractTest, StreamingWriteRoundTrips) {
  std::string data;
  for (int i = 0; i < 5000; ++i) data += "chunk " + std::to_string(i) + "\n";
  auto writer = store_->NewWriter();
  ASSERT_TRUE(writer.ok()) << writer.status();
  for (size_t offset = 0; offset < data.size(); offset += 777) {
    ASSERT_TRUE((*writer)->Append(std::string_view(data).substr(offset, 777)).ok());
  }
  EXPECT_EQ((*writer)->bytes_written(), static_cast<int64_t>(data.size()));
  auto stored = (*writer)->Finish();
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->digest, Sha256Hex(data));
  EXPECT_EQ(stored->size_bytes, static_cast<int64_t>(data.size()));

  for (size_t piece : {size_t{1} << 20, size_t{4096}, size_t{333}}) {
    auto reader = store_->Open(stored->digest);
    ASSERT_TRUE(reader.ok()) << reader.status();
    EXPECT_EQ((*reader)->size_bytes(), static_cast<int64_t>(data.size()));
    EXPECT_EQ(ReadInPieces(**reader, piece), data) << "pieces of " << piece;
  }
  EXPECT_EQ(*store_->ReadAll(stored->digest, 1 << 20), data);
}

TEST_P(ArtifactStoreContractTest, EmptyArtifactAndIdenticalContent) {
  auto empty = store_->Put("");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->digest, Sha256Hex(""));
  EXPECT_EQ(*store_->ReadAll(empty->digest, 10), "");
  auto first = store_->Put("same bytes");
  auto second = store_->Put("same bytes");
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->digest, second->digest);
  EXPECT_EQ(*store_->ReadAll(first->digest, 100), "same bytes");
}

TEST_P(ArtifactStoreContractTest, SizeLimitIsEnforcedWhileWriting) {
  auto writer = store_->NewWriter(/*max_bytes=*/100);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Append(std::string(60, 'x')).ok());
  EXPECT_EQ((*writer)->Append(std::string(60, 'y')).code(), absl::StatusCode::kResourceExhausted);
  EXPECT_FALSE((*writer)->Finish().ok());
  EXPECT_EQ(store_->Open(Sha256Hex(std::string(60, 'x'))).status().code(), absl::StatusCode::kNotFound);
  // The store-wide default applies too.
  std::unique_ptr<ArtifactStore> small = Make(10);
  EXPECT_EQ(small->Put(std::string(11, 'z')).status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(small->Put(std::string(10, 'z')).ok());
}

TEST_P(ArtifactStoreContractTest, NothingIsReadableBeforeFinish) {
  const std::string data(5 * kChunkBytes + 17, 'p');  // several PostgreSQL chunks already written
  auto writer = store_->NewWriter();
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Append(data).ok());
  EXPECT_EQ(store_->Open(Sha256Hex(data)).status().code(), absl::StatusCode::kNotFound);
  writer->reset();  // abandoned (client disconnected)
  EXPECT_EQ(store_->Open(Sha256Hex(data)).status().code(), absl::StatusCode::kNotFound);
}

TEST_P(ArtifactStoreContractTest, LargeArtifactStreamsInBoundedPieces) {
  // 3 MiB in 64 KiB appends (3000+ PostgreSQL chunks here), read back in 64 KiB pieces and hashed as it goes:
  // neither side needs the whole artifact at once.
  constexpr size_t kAppend = 64 << 10;
  constexpr size_t kTotal = (3 << 20) + 4321;
  std::string block(kAppend, '\0');
  for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<char>((i * 131 + i / 977) & 0xff);
  auto writer = store_->NewWriter(/*max_bytes=*/8 << 20);
  ASSERT_TRUE(writer.ok());
  Sha256Hasher written;
  for (size_t offset = 0; offset < kTotal; offset += kAppend) {
    std::string piece = block.substr(0, std::min(kAppend, kTotal - offset));
    piece[0] = static_cast<char>(offset / kAppend);  // no two appends alike
    written.Update(piece);
    ASSERT_TRUE((*writer)->Append(piece).ok());
  }
  auto stored = (*writer)->Finish();
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->digest, written.HexDigest());
  EXPECT_EQ(stored->size_bytes, static_cast<int64_t>(kTotal));

  auto reader = store_->Open(stored->digest);
  ASSERT_TRUE(reader.ok()) << reader.status();
  Sha256Hasher read;
  size_t total = 0;
  for (;;) {
    absl::StatusOr<std::string> piece = (*reader)->Read(kAppend);
    ASSERT_TRUE(piece.ok()) << piece.status();
    if (piece->empty()) break;
    ASSERT_LE(piece->size(), kAppend);
    read.Update(*piece);
    total += piece->size();
  }
  EXPECT_EQ(total, kTotal);
  EXPECT_EQ(read.HexDigest(), stored->digest);
}

TEST_P(ArtifactStoreContractTest, OtherBytesUnderADigestFailTheReadWithDataLoss) {
  const std::string data = std::string(kChunkBytes, 'a') + std::string(kChunkBytes, 'b') + std::string(500, 'c');
  auto stored = store_->Put(data);
  ASSERT_TRUE(stored.ok()) << stored.status();
  ASSERT_TRUE(Damage(stored->digest));
  auto reader = store_->Open(stored->digest);
  ASSERT_TRUE(reader.ok()) << reader.status();
  std::string served;
  absl::Status status;
  for (;;) {
    absl::StatusOr<std::string> piece = (*reader)->Read(700);
    if (!piece.ok()) {
      status = piece.status();
      break;
    }
    if (piece->empty()) break;
    served += *piece;
  }
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_LT(served.size(), data.size()) << "the piece that completes the digest is never handed out";
  EXPECT_EQ(store_->ReadAll(stored->digest, 1 << 20).status().code(), absl::StatusCode::kDataLoss);
}

TEST_P(ArtifactStoreContractTest, ConcurrentWritersOfSameContent) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  std::string data;  // distinct chunks, so concurrent Finishes lock many of the same rows
  for (int i = 0; data.size() < 200000; ++i) data += std::to_string(i) + ";";
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      auto stored = store_->Put(data);
      if (!stored.ok() || stored->digest != Sha256Hex(data)) ++failures;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(*store_->ReadAll(Sha256Hex(data), 1 << 20), data);
}

TEST_P(ArtifactStoreContractTest, MalformedOrMissingDigests) {
  EXPECT_EQ(store_->Open("../../etc/passwd").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Open(std::string(64, 'A')).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(store_->Open(std::string(64, 'a')).status().code(), absl::StatusCode::kNotFound);
  auto stored = store_->Put(std::string(100, 'r'));
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(store_->ReadAll(stored->digest, 99).status().code(), absl::StatusCode::kResourceExhausted);
}

TEST_P(ArtifactStoreContractTest, RemovesOnlyOldUnreferencedArtifacts) {
  auto kept = store_->Put(std::string(3000, 'k'));
  auto orphan = store_->Put(std::string(2500, 'o'));
  ASSERT_TRUE(kept.ok() && orphan.ok());
  const std::set<std::string> keep = {kept->digest};
  // Stored after the cut-off: may belong to a job being created.
  EXPECT_EQ(*store_->RemoveUnreferenced(keep, clock_.Now() - 1h), 0);
  EXPECT_TRUE(store_->Open(orphan->digest).ok());
  absl::StatusOr<int> removed = store_->RemoveUnreferenced(keep, clock_.Now() + 1h);
  ASSERT_TRUE(removed.ok()) << removed.status();
  EXPECT_GE(*removed, 1);
  EXPECT_EQ(store_->Open(orphan->digest).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(*store_->ReadAll(kept->digest, 1 << 20), std::string(3000, 'k'));
  // Storing the same bytes again makes them young again.
  ASSERT_TRUE(store_->Put(std::string(2500, 'o')).ok());
  EXPECT_EQ(*store_->ReadAll(orphan->digest, 1 << 20), std::string(2500, 'o'));
}

INSTANTIATE_TEST_SUITE_P(Stores, ArtifactStoreContractTest, ::testing::Values("local", "postgres", "fake"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// ---- the local directory ----

class ArtifactStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    store_ = std::make_unique<LocalArtifactStore>(dir_, 1 << 20);
    ASSERT_TRUE(store_->Init().ok());
  }
  void TearDown() override { fs::remove_all(dir_); }

  size_t FilesUnder(const fs::path& root) {
    size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(root)) count += entry.is_regular_file() ? 1 : 0;
    return count;
  }

  fs::path dir_;
  std::unique_ptr<LocalArtifactStore> store_;
};

TEST_F(ArtifactStoreTest, FilesAreNamedByDigestAndTempFilesGo) {
  auto stored = store_->Put("some bytes");
  ASSERT_TRUE(stored.ok());
  EXPECT_TRUE(fs::is_regular_file(dir_ / "artifacts" / stored->digest.substr(0, 2) / stored->digest.substr(2)));
  EXPECT_TRUE(store_->Contains(stored->digest));
  ASSERT_TRUE(store_->Put("some bytes").ok());
  EXPECT_EQ(FilesUnder(dir_ / "artifacts"), 1u) << "identical content is stored once";
  EXPECT_EQ(FilesUnder(dir_ / "artifacts" / "tmp"), 0u);
}

TEST_F(ArtifactStoreTest, UnfinishedWriterLeavesOnlyATempFileWhileItLives) {
  auto writer = store_->NewWriter();
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Append("partial upload").ok());
  EXPECT_FALSE(store_->Contains(Sha256Hex("partial upload")));
  EXPECT_EQ(FilesUnder(dir_ / "artifacts" / "tmp"), 1u);
  writer->reset();
  EXPECT_EQ(FilesUnder(dir_ / "artifacts"), 0u);
  auto limited = store_->NewWriter(10);
  ASSERT_TRUE(limited.ok());
  EXPECT_FALSE((*limited)->Append(std::string(11, 'x')).ok());
  EXPECT_EQ(FilesUnder(dir_ / "artifacts"), 0u) << "a rejected upload leaves nothing behind";
}

TEST_F(ArtifactStoreTest, AFileChangedOnDiskFailsTheReadWithDataLoss) {
  const std::string data(10000, 'd');
  auto stored = store_->Put(data);
  ASSERT_TRUE(stored.ok());
  {
    std::fstream file(*store_->PathOf(stored->digest), std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(5000);
    file.put('X');
  }
  EXPECT_EQ(store_->ReadAll(stored->digest, 1 << 20).status().code(), absl::StatusCode::kDataLoss);
  fs::resize_file(*store_->PathOf(stored->digest), 100);  // truncated: the size is read at Open, so it hashes wrong
  EXPECT_EQ(store_->ReadAll(stored->digest, 1 << 20).status().code(), absl::StatusCode::kDataLoss);
}

// ---- chunks in PostgreSQL ----

class PostgresArtifactStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(testing::TestDatabaseUrl().empty()) << "no test database";
    schema_ = std::make_unique<TestSchema>();
    store_ = schema_->Open(clock_, 1 << 24);
    ASSERT_NE(store_, nullptr);
  }
  void TearDown() override {
    store_.reset();
    schema_.reset();
  }
  int Count(const std::string& table) { return std::stoi(schema_->Scalar("SELECT count(*) FROM " + table)); }

  ManualClock clock_;
  std::unique_ptr<TestSchema> schema_;
  std::unique_ptr<ArtifactStore> store_;
};

TEST_F(PostgresArtifactStoreTest, AnotherServerOnTheSameDatabaseReadsWhatOneWrote) {
  std::string data;
  for (int i = 0; data.size() < 50 * kChunkBytes + 123; ++i) data += std::to_string(i * 7919) + ",";
  auto stored = store_->Put(data);
  ASSERT_TRUE(stored.ok()) << stored.status();
  std::unique_ptr<ArtifactStore> other = schema_->Open(clock_, 1 << 24);
  EXPECT_EQ(*other->ReadAll(stored->digest, 1 << 24), data);
  EXPECT_EQ(schema_->Scalar("SELECT chunk_count FROM stored_artifacts WHERE digest = '" + stored->digest + "'"),
            std::to_string((data.size() + kChunkBytes - 1) / kChunkBytes));
  EXPECT_EQ(schema_->Scalar("SELECT max(length(data)) FROM artifact_chunks"), std::to_string(kChunkBytes));
}

TEST_F(PostgresArtifactStoreTest, ChunksAreContentAddressedAndSharedBetweenArtifacts) {
  const std::string common(4 * kChunkBytes, 'c');
  auto a = store_->Put(common + "tail a");
  auto b = store_->Put(common + "tail b");
  ASSERT_TRUE(a.ok() && b.ok());
  // 4 identical chunks stored once, plus one tail each.
  EXPECT_EQ(Count("artifact_chunks"), 3);
  EXPECT_EQ(Count("stored_artifact_chunks"), 10);
  // a goes; b's chunks, shared or not, stay.
  EXPECT_GE(*store_->RemoveUnreferenced({b->digest}, clock_.Now() + 1h), 2);
  EXPECT_EQ(Count("stored_artifacts"), 1);
  EXPECT_EQ(Count("artifact_chunks"), 2);
  EXPECT_EQ(*store_->ReadAll(b->digest, 1 << 20), common + "tail b");
}

TEST_F(PostgresArtifactStoreTest, ChunksOfAnAbandonedUploadAreCollectedAfterTheGracePeriod) {
  {
    auto writer = store_->NewWriter();
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Append(std::string(3 * kChunkBytes + 5, 'a')).ok());
  }                                        // the server died mid-upload: 3 chunks written, no artifact
  EXPECT_EQ(Count("artifact_chunks"), 1);  // three identical chunks, one row
  EXPECT_EQ(Count("stored_artifacts"), 0);
  EXPECT_EQ(*store_->RemoveUnreferenced({}, clock_.Now() - 1h), 0) << "young: the upload may be in flight";
  EXPECT_EQ(*store_->RemoveUnreferenced({}, clock_.Now() + 1h), 1);
  EXPECT_EQ(Count("artifact_chunks"), 0);
}

TEST_F(PostgresArtifactStoreTest, AnUploadWhoseChunksWereCollectedIsRefusedNotStoredBroken) {
  auto writer = store_->NewWriter();
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Append(std::string(2 * kChunkBytes, 'z')).ok());
  // An upload slower than the grace period: its chunks went.
  ASSERT_EQ(*store_->RemoveUnreferenced({}, clock_.Now() + 1h), 1);
  absl::StatusOr<StoredArtifact> finished = (*writer)->Finish();
  EXPECT_EQ(finished.status().code(), absl::StatusCode::kAborted) << finished.status();
  EXPECT_EQ(Count("stored_artifacts"), 0);
}

TEST_F(PostgresArtifactStoreTest, ADamagedOrMissingChunkFailsTheReadWithDataLoss) {
  const std::string data(3 * kChunkBytes, 'x');
  auto stored = store_->Put(data + "y");
  ASSERT_TRUE(stored.ok());
  const std::string last_chunk = "chunk_digest = '" + Sha256Hex("y") + "'";
  // The last chunk's bytes changed under its name: caught by the chunk's own digest.
  schema_->Scalar("UPDATE artifact_chunks SET data = '\\x7a'::bytea WHERE " + last_chunk);
  absl::StatusOr<std::unique_ptr<ArtifactReader>> reader = store_->Open(stored->digest);
  ASSERT_TRUE(reader.ok());
  absl::StatusOr<std::string> first = (*reader)->Read(3 * kChunkBytes);
  ASSERT_TRUE(first.ok()) << "the first three chunks are sound: " << first.status();
  EXPECT_EQ(*first, data);
  EXPECT_EQ((*reader)->Read(100).status().code(), absl::StatusCode::kDataLoss);
  schema_->Scalar("UPDATE artifact_chunks SET data = '\\x79'::bytea WHERE " + last_chunk);
  EXPECT_EQ(*store_->ReadAll(stored->digest, 1 << 20), data + "y");
  // A chunk missing from the list: the stream would be short.
  schema_->Scalar("DELETE FROM stored_artifact_chunks WHERE seq = 1");
  EXPECT_EQ(store_->ReadAll(stored->digest, 1 << 20).status().code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace hipforge::server
