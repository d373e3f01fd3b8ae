// common/file_io.h: the one whole-file read and write.
#include "common/file_io.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace hipforge {
namespace {
namespace fs = std::filesystem;

TEST(FileIo, WriteCreatesParentsReplacesAndReadsBackEveryByte) {
  const fs::path root = fs::path(::testing::TempDir()) / "file_io_test";
  fs::remove_all(root);
  const fs::path file = root / "a" / "b" / "data.bin";
  const std::string bytes("line\r\n\0binary\xff", 14);
  ASSERT_TRUE(WriteFileBytes(file, bytes).ok());
  EXPECT_EQ(ReadFileBytes(file), bytes);
  ASSERT_TRUE(WriteFileBytes(file, "short").ok());  // replaced, not appended
  absl::StatusOr<std::string> read = ReadFileOrStatus(file);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, "short");

  EXPECT_EQ(ReadFileBytes(root / "missing"), std::nullopt);
  absl::StatusOr<std::string> missing = ReadFileOrStatus(root / "missing");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("missing"), std::string_view::npos);
  // A directory where the file should be: the write fails with a status naming it.
  absl::Status blocked = WriteFileBytes(root / "a", "x");
  EXPECT_EQ(blocked.code(), absl::StatusCode::kInternal);
  EXPECT_NE(blocked.message().find((root / "a").string()), std::string_view::npos);
  fs::remove_all(root);
}

TEST(FileIo, AnAtomicWriteIsSeenWholeOrNotAtAllAndLeavesNoTemporary) {
  const fs::path root = fs::path(::testing::TempDir()) / "file_io_atomic_test";
  fs::remove_all(root);
  const fs::path file = root / "shared" / "shim.h";
  // Readers poll while writers replace the file with whole versions of different lengths.
  const std::string long_version(1 << 20, 'a'), short_version(10, 'b');
  std::atomic<bool> done{false};
  std::atomic<int> partial{0};
  std::thread reader([&] {
    while (!done.load()) {
      if (auto bytes = ReadFileBytes(file); bytes && *bytes != long_version && *bytes != short_version) ++partial;
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < 50; ++i) EXPECT_TRUE(WriteFileAtomically(file, w ? long_version : short_version).ok());
    });
  }
  for (auto& writer : writers) writer.join();
  done = true;
  reader.join();
  EXPECT_EQ(partial.load(), 0) << "a reader saw a file being written";
  size_t entries = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(root / "shared")) ++entries;
  EXPECT_EQ(entries, 1u) << "temporaries are renamed away";
  // A directory where the file should be: the write fails with a status naming it, and no temporary stays.
  absl::Status blocked = WriteFileAtomically(root / "shared", "x");
  EXPECT_EQ(blocked.code(), absl::StatusCode::kInternal);
  EXPECT_NE(blocked.message().find((root / "shared").string()), std::string_view::npos);
  size_t left = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(root)) ++left;
  EXPECT_EQ(left, 1u);
  fs::remove_all(root);
}

}  // namespace
}  // namespace hipforge
