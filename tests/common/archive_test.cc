#include "common/archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>

namespace hipforge {
namespace {
namespace fs = std::filesystem;

// ---- helpers -------------------------------------------------------------------------------------

class TempDir {
 public:
  TempDir() {
    std::random_device random;
    path_ = fs::temp_directory_path() / ("hipforge-archive-test-" + std::to_string(random()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void WriteFile(const fs::path& path, const std::string& contents) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << contents;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// One entry of a hand-made (possibly hostile) archive.
struct TestEntry {
  std::string name;
  mode_t type = AE_IFREG;
  std::string data;
  std::string link;  // symlink target, or hard-link target when `hardlink` is set
  bool hardlink = false;
};

enum class TestFilter { kGzip, kZstd, kNone };

// Writes an archive with libarchive exactly as described; no sanitising, that is the point.
std::string MakeArchive(const std::vector<TestEntry>& entries, TestFilter filter = TestFilter::kGzip) {
  std::string bytes;
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  if (filter == TestFilter::kGzip) archive_write_add_filter_gzip(a);
  if (filter == TestFilter::kZstd) archive_write_add_filter_zstd(a);
  archive_write_set_bytes_in_last_block(a, 1);
  archive_write_open(
      a, &bytes, nullptr,
      [](archive*, void* client, const void* buffer, size_t length) -> la_ssize_t {
        static_cast<std::string*>(client)->append(static_cast<const char*>(buffer), length);
        return static_cast<la_ssize_t>(length);
      },
      nullptr);
  for (const auto& spec : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, spec.name.c_str());
    archive_entry_set_filetype(entry, spec.type);
    archive_entry_set_perm(entry, spec.type == AE_IFDIR ? 0755 : 0644);
    if (spec.hardlink) {
      archive_entry_set_hardlink(entry, spec.link.c_str());
    } else if (spec.type == AE_IFLNK) {
      archive_entry_set_symlink(entry, spec.link.c_str());
    }
    if (spec.type == AE_IFREG && !spec.hardlink) archive_entry_set_size(entry, spec.data.size());
    if (spec.type == AE_IFCHR || spec.type == AE_IFBLK) archive_entry_set_rdev(entry, 0x0103);
    EXPECT_EQ(archive_write_header(a, entry), ARCHIVE_OK) << archive_error_string(a);
    if (!spec.data.empty()) archive_write_data(a, spec.data.data(), spec.data.size());
    archive_entry_free(entry);
  }
  archive_write_close(a);
  archive_write_free(a);
  return bytes;
}

std::vector<std::string> ListTree(const fs::path& root) {
  std::vector<std::string> names;
  if (!fs::exists(root)) return names;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    names.push_back(it->path().lexically_relative(root).generic_string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class SafeExtractTest : public ::testing::Test {
 protected:
  // Extracts into sandbox/out; sandbox/ also holds a sentinel so escapes next to the target show up.
  absl::StatusOr<ExtractResult> Extract(const std::string& bytes, const ExtractLimits& limits = {}) {
    WriteFile(sandbox_.path() / "sentinel", "x");
    return SafeExtractBuffer(bytes, target(), limits);
  }
  fs::path target() const { return sandbox_.path() / "out"; }
  // Nothing but the sentinel and (maybe) an empty target remains next to the target.
  void ExpectNothingWrittenOutside() const {
    for (const auto& name : ListTree(sandbox_.path())) {
      EXPECT_TRUE(name == "sentinel" || name == "out") << "unexpected " << name;
    }
    EXPECT_FALSE(fs::exists("/tmp/hipforge-archive-escape"));
  }
  void ExpectRejected(const absl::StatusOr<ExtractResult>& result, absl::StatusCode code, const std::string& words) {
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), code) << result.status();
    EXPECT_NE(result.status().message().find(words), std::string::npos) << result.status();
    EXPECT_FALSE(fs::exists(target())) << "partial output left behind";
    ExpectNothingWrittenOutside();
  }

  TempDir sandbox_;
  BoostProcessLauncher launcher_;
};

// ---- packing -------------------------------------------------------------------------------------

TEST_F(SafeExtractTest, PackAndExtractRoundTripKeepsFilesModesAndInnerSymlinks) {
  TempDir source;
  WriteFile(source.path() / "src/kernel.cu", "__global__ void k() {}\n");
  WriteFile(source.path() / "include/kernel.h", "#pragma once\n");
  WriteFile(source.path() / "run.sh", "#!/bin/sh\necho hi\n");
  fs::permissions(source.path() / "run.sh", fs::perms::owner_exec, fs::perm_options::add);
  fs::create_symlink("../include/kernel.h", source.path() / "src/kernel_link.h");
  fs::create_symlink("/etc/passwd", source.path() / "outside_link");
  WriteFile(source.path() / ".git/config", "[core]\n");  // a .git without a repository: still skipped

  for (auto compression : {ArchiveCompression::kGzip, ArchiveCompression::kZstd}) {
    PackOptions options;
    options.compression = compression;
    auto bytes = PackDirectoryToString(source.path(), launcher_, options);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    TempDir destination;
    auto result = SafeExtractBuffer(*bytes, destination.path() / "tree");
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->files, 3u);
    EXPECT_EQ(result->symlinks, 1u);
    EXPECT_EQ(ListTree(destination.path() / "tree"),
              (std::vector<std::string>{"include", "include/kernel.h", "run.sh", "src", "src/kernel.cu",
                                        "src/kernel_link.h"}));
    EXPECT_EQ(ReadFile(destination.path() / "tree/src/kernel.cu"), "__global__ void k() {}\n");
    EXPECT_EQ(ReadFile(destination.path() / "tree/src/kernel_link.h"), "#pragma once\n");
    EXPECT_NE(fs::status(destination.path() / "tree/run.sh").permissions() & fs::perms::owner_exec, fs::perms::none);
  }
}

TEST_F(SafeExtractTest, PackHonoursGitignoreAndSkipsGitDirectory) {
  if (FindProgram("git").empty()) GTEST_SKIP() << "git not installed";
  TempDir repo;
  ProcessSpec init;
  init.argv = {"git", "init", "-q", repo.path().string()};
  ASSERT_EQ(launcher_.Run(init)->exit_code, 0);
  WriteFile(repo.path() / ".gitignore", "build/\n*.o\n");
  WriteFile(repo.path() / "src/a.cu", "a");
  WriteFile(repo.path() / "src/a.o", "object");
  WriteFile(repo.path() / "build/out.bin", "binary");
  WriteFile(repo.path() / "notes.txt", "untracked but not ignored");
  ProcessSpec add;
  add.argv = {"git", "add", "src/a.cu", ".gitignore"};
  add.working_directory = repo.path();
  ASSERT_EQ(launcher_.Run(add)->exit_code, 0);

  auto files = ListFilesToPack(repo.path(), launcher_);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_EQ(*files, (std::vector<std::string>{".gitignore", "notes.txt", "src/a.cu"}));

  PackOptions everything;
  everything.honour_gitignore = false;
  auto all = ListFilesToPack(repo.path(), launcher_, everything);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, (std::vector<std::string>{".gitignore", "build/out.bin", "notes.txt", "src/a.cu", "src/a.o"}));
}

TEST_F(SafeExtractTest, PackStreamsBoundedChunksAndReportsProgress) {
  TempDir source;
  std::mt19937 random(7);
  std::string noise(300000, '\0');
  for (auto& c : noise) c = static_cast<char>(random());
  WriteFile(source.path() / "noise.bin", noise);
  WriteFile(source.path() / "small.txt", "small");
  PackOptions options;
  options.chunk_bytes = 4096;
  std::string joined;
  size_t chunks = 0;
  PackProgress last;
  auto result = PackDirectory(
      source.path(), launcher_, options,
      [&](std::string_view chunk) {
        EXPECT_LE(chunk.size(), 4096u);
        joined.append(chunk);
        ++chunks;
        return absl::OkStatus();
      },
      [&](const PackProgress& progress) { last = progress; });
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_GT(chunks, 70u);
  EXPECT_EQ(result->output_bytes, joined.size());
  EXPECT_EQ(last.files_done, 2u);
  EXPECT_EQ(last.files_total, 2u);
  EXPECT_EQ(last.input_bytes_done, last.input_bytes_total);
  EXPECT_EQ(last.input_bytes_total, noise.size() + 5);

  // A failing sink stops packing with the sink's status.
  auto failed = PackDirectory(source.path(), launcher_, options,
                              [](std::string_view) { return absl::UnavailableError("connection lost"); });
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable);
}

TEST_F(SafeExtractTest, PackRejectsMissingDirectory) {
  auto result = PackDirectoryToString(sandbox_.path() / "nope", launcher_);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kNotFound);
}

// ---- extraction: good input ----------------------------------------------------------------------

TEST_F(SafeExtractTest, ExtractsPlainTarZstdAndDotSlashNames) {
  for (auto filter : {TestFilter::kNone, TestFilter::kZstd}) {
    auto bytes = MakeArchive({{"./", AE_IFDIR},
                              {"./src/", AE_IFDIR},
                              {"./src/a.cu", AE_IFREG, "kernel"},
                              {"src/", AE_IFDIR},
                              {"src/hard.cu", AE_IFREG, "", "src/a.cu", true}},
                             filter);
    auto result = Extract(bytes);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->files, 2u);
    EXPECT_EQ(ReadFile(target() / "src/hard.cu"), "kernel");
    fs::remove_all(target());
  }
}

TEST_F(SafeExtractTest, ExtractFileReadsFromDisk) {
  const fs::path archive_path = sandbox_.path() / "upload.tar.gz";
  WriteFile(archive_path, MakeArchive({{"a.cu", AE_IFREG, "x"}}));
  auto result = SafeExtractFile(archive_path, sandbox_.path() / "tree");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(ReadFile(sandbox_.path() / "tree/a.cu"), "x");
  EXPECT_EQ(result->compressed_bytes, fs::file_size(archive_path));
}

// ---- extraction: every bad-input class -----------------------------------------------------------

TEST_F(SafeExtractTest, RejectsGarbage) {
  ExpectRejected(Extract(std::string(5000, 'z')), absl::StatusCode::kInvalidArgument, "archive");
}

TEST_F(SafeExtractTest, RejectsTruncatedArchive) {
  std::mt19937 random(3);
  std::string noise(200000, '\0');
  for (auto& c : noise) c = static_cast<char>(random());
  auto bytes = MakeArchive({{"a.bin", AE_IFREG, noise}, {"b.txt", AE_IFREG, "b"}});
  ExpectRejected(Extract(bytes.substr(0, bytes.size() / 2)), absl::StatusCode::kInvalidArgument, "truncated");
}

TEST_F(SafeExtractTest, RejectsCorruptedCompressedStream) {
  auto bytes = MakeArchive({{"a.txt", AE_IFREG, std::string(100000, 'a')}, {"b.txt", AE_IFREG, "b"}});
  for (size_t i = 20; i < bytes.size() - 10; i += 7) bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
  ExpectRejected(Extract(bytes), absl::StatusCode::kInvalidArgument, "archive");
}

TEST_F(SafeExtractTest, RejectsDotDotEntries) {
  ExpectRejected(Extract(MakeArchive({{"ok.cu", AE_IFREG, "ok"}, {"../escape.txt", AE_IFREG, "evil"}})),
                 absl::StatusCode::kInvalidArgument, "'..'");
  ExpectRejected(Extract(MakeArchive({{"src/../../escape.txt", AE_IFREG, "evil"}})), absl::StatusCode::kInvalidArgument,
                 "'..'");
}

TEST_F(SafeExtractTest, RejectsAbsolutePaths) {
  ExpectRejected(Extract(MakeArchive({{"ok.cu", AE_IFREG, "ok"}, {"/tmp/hipforge-archive-escape", AE_IFREG, "x"}})),
                 absl::StatusCode::kInvalidArgument, "absolute");
}

TEST_F(SafeExtractTest, RejectsSymlinksThatEscape) {
  ExpectRejected(Extract(MakeArchive({{"a.cu", AE_IFREG, "ok"}, {"passwd", AE_IFLNK, "", "/etc/passwd"}})),
                 absl::StatusCode::kInvalidArgument, "points outside");
  ExpectRejected(Extract(MakeArchive({{"a.cu", AE_IFREG, "ok"}, {"src/up", AE_IFLNK, "", "../../sentinel"}})),
                 absl::StatusCode::kInvalidArgument, "points outside");
}

TEST_F(SafeExtractTest, RejectsSymlinkChainsThatEscapeTogether) {
  // Each link looks inside on its own; together sub/up/.. is the parent of the root.
  ExpectRejected(Extract(MakeArchive({{"a.cu", AE_IFREG, "ok"},
                                      {"sub/", AE_IFDIR},
                                      {"sub/up", AE_IFLNK, "", ".."},
                                      {"chain", AE_IFLNK, "", "sub/up/.."}})),
                 absl::StatusCode::kInvalidArgument, "resolves outside");
}

TEST_F(SafeExtractTest, RejectsWritingThroughASymlink) {
  // "dir" is a link to an inner directory; a later entry tries to place a file through it.
  ExpectRejected(
      Extract(MakeArchive(
          {{"real/", AE_IFDIR}, {"dir", AE_IFLNK, "", "real"}, {"dir/file.txt", AE_IFREG, "through the link"}})),
      absl::StatusCode::kInvalidArgument, "non-directory");
}

TEST_F(SafeExtractTest, RejectsHardLinksThatEscapeOrPointNowhere) {
  ExpectRejected(Extract(MakeArchive({{"a.cu", AE_IFREG, "ok"}, {"h", AE_IFREG, "", "../sentinel", true}})),
                 absl::StatusCode::kInvalidArgument, "'..'");
  ExpectRejected(Extract(MakeArchive({{"a.cu", AE_IFREG, "ok"}, {"h", AE_IFREG, "", "/etc/passwd", true}})),
                 absl::StatusCode::kInvalidArgument, "absolute");
  ExpectRejected(Extract(MakeArchive({{"a.cu", AE_IFREG, "ok"}, {"h", AE_IFREG, "", "not/there", true}})),
                 absl::StatusCode::kInvalidArgument, "does not point to a file");
}

TEST_F(SafeExtractTest, RejectsDevicesAndFifos) {
  ExpectRejected(Extract(MakeArchive({{"a.cu", AE_IFREG, "ok"}, {"dev", AE_IFCHR}})),
                 absl::StatusCode::kInvalidArgument, "device");
  ExpectRejected(Extract(MakeArchive({{"a.cu", AE_IFREG, "ok"}, {"disk", AE_IFBLK}})),
                 absl::StatusCode::kInvalidArgument, "device");
  ExpectRejected(Extract(MakeArchive({{"a.cu", AE_IFREG, "ok"}, {"pipe", AE_IFIFO}})),
                 absl::StatusCode::kInvalidArgument, "FIFO");
  // Tar has no socket type (libarchive's tar writer refuses them), so sockets cannot arrive in an
  // upload; SafeExtract still has an explicit branch for them.
}

TEST_F(SafeExtractTest, RejectsDuplicateEntries) {
  ExpectRejected(Extract(MakeArchive({{"a.cu", AE_IFREG, "one"}, {"a.cu", AE_IFLNK, "", "b"}})),
                 absl::StatusCode::kInvalidArgument, "duplicate");
}

TEST_F(SafeExtractTest, RejectsTooManyFiles) {
  std::vector<TestEntry> entries;
  for (int i = 0; i < 20; ++i) entries.push_back({"f" + std::to_string(i), AE_IFREG, "x"});
  ExtractLimits limits;
  limits.max_files = 10;
  ExpectRejected(Extract(MakeArchive(entries), limits), absl::StatusCode::kResourceExhausted, "entries");
}

TEST_F(SafeExtractTest, RejectsArchivesOverTheSizeLimits) {
  std::mt19937 random(5);
  std::string noise(50000, '\0');
  for (auto& c : noise) c = static_cast<char>(random());
  const auto bytes = MakeArchive({{"noise.bin", AE_IFREG, noise}});
  ExtractLimits compressed;
  compressed.max_compressed_bytes = 10000;
  ExpectRejected(Extract(bytes, compressed), absl::StatusCode::kResourceExhausted, "compressed size limit");
  // The streaming path (no size known up front) enforces the same limit.
  size_t offset = 0;
  auto result = SafeExtract(
      [&]() -> absl::StatusOr<std::string_view> {
        std::string_view piece = std::string_view(bytes).substr(offset, 1000);
        offset += piece.size();
        return piece;
      },
      target(), compressed);
  ExpectRejected(result, absl::StatusCode::kResourceExhausted, "compressed size limit");

  ExtractLimits uncompressed;
  uncompressed.max_uncompressed_bytes = 20000;
  ExpectRejected(Extract(bytes, uncompressed), absl::StatusCode::kResourceExhausted, "uncompressed size limit");
}

TEST_F(SafeExtractTest, RejectsDecompressionBombs) {
  auto bytes = MakeArchive({{"zeros.bin", AE_IFREG, std::string(6 << 20, '\0')}}, TestFilter::kZstd);
  ASSERT_LT(bytes.size(), 20000u);  // >300:1
  ExtractLimits limits;
  limits.ratio_check_floor_bytes = 1 << 20;
  limits.max_compression_ratio = 100;
  ExpectRejected(Extract(bytes, limits), absl::StatusCode::kResourceExhausted, "compression ratio");
}

TEST_F(SafeExtractTest, RejectsEmptyArchives) {
  ExpectRejected(Extract(MakeArchive({})), absl::StatusCode::kInvalidArgument, "no files");
  ExpectRejected(Extract(MakeArchive({{"only-a-dir/", AE_IFDIR}})), absl::StatusCode::kInvalidArgument, "no files");
  ExpectRejected(Extract(""), absl::StatusCode::kInvalidArgument, "no files");
}

TEST_F(SafeExtractTest, RefusesNonEmptyTargetAndKeepsPreexistingEmptyTarget) {
  WriteFile(target() / "keep.txt", "mine");
  auto result = Extract(MakeArchive({{"a.cu", AE_IFREG, "x"}}));
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(ReadFile(target() / "keep.txt"), "mine");

  fs::remove(target() / "keep.txt");
  result = Extract(MakeArchive({{"a.cu", AE_IFREG, "x"}, {"../x", AE_IFREG, "x"}}));
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(fs::is_directory(target()));
  EXPECT_TRUE(fs::is_empty(target()));
}

}  // namespace
}  // namespace hipforge
