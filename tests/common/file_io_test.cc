// common/file_io.h: the one whole-file read and write.
#include "common/file_io.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace hipforge
