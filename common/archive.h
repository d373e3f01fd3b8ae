#pragma once
// Repository archives: the client packs a source tree into a compressed tar stream, the server and
// the workers unpack uploads and translated trees. Everything goes through libarchive; extraction
// treats every archive as hostile (see SafeExtract).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/process.h"

namespace hipforge {

enum class ArchiveCompression { kGzip, kZstd };

// Longest name per path component: uploads (input trees) 240 bytes, trees the service derives from
// them (translated, renamed) up to NAME_MAX, so a rename of an accepted name (kernel.cu -> kernel.hip)
// never fails later in the pipeline.
inline constexpr size_t kMaxInputNameBytes = 240;
inline constexpr size_t kMaxDerivedNameBytes = 255;

// ---- Packing -------------------------------------------------------------------------------------

struct PackOptions {
  ArchiveCompression compression = ArchiveCompression::kZstd;
  // In a git work tree, pack only what `git ls-files --cached --others --exclude-standard` lists
  // (tracked files plus untracked files that .gitignore does not exclude). `.git` is always skipped.
  bool honour_gitignore = true;
  size_t chunk_bytes = 64 << 10;               // size of the pieces handed to the sink (the last one may be smaller)
  size_t max_name_bytes = kMaxInputNameBytes;  // per component (kMaxDerivedNameBytes for derived trees)
};

struct PackProgress {
  uint64_t files_done = 0;
  uint64_t files_total = 0;
  uint64_t input_bytes_done = 0;   // file bytes read so far
  uint64_t input_bytes_total = 0;  // sum of the sizes of all files to pack (known before packing)
  uint64_t output_bytes = 0;       // compressed bytes handed to the sink so far
};

struct PackResult {
  uint64_t files = 0;  // regular files and symlinks written
  uint64_t input_bytes = 0;
  uint64_t output_bytes = 0;  // compressed size
};

// Receives the compressed archive in order. A non-OK status aborts packing and is returned.
using ArchiveChunkSink = std::function<absl::Status(std::string_view chunk)>;
using PackProgressCallback = std::function<void(const PackProgress&)>;

// Relative paths (generic form, '/' separated, sorted) of the entries PackDirectory would write.
// Symlinks that point outside `root` (or are absolute) are left out, since SafeExtract would refuse
// them. `launcher` runs git; it is not used for trees that are not git work trees.
absl::StatusOr<std::vector<std::string>> ListFilesToPack(const std::filesystem::path& root, ProcessLauncher& launcher,
                                                         const PackOptions& options = {});

// Packs `root` into a compressed tar streamed to `sink`. Entries carry relative paths, mode bits
// 0644/0755 only, uid/gid 0 and no owner names, so archives do not leak the packer's accounts.
absl::StatusOr<PackResult> PackDirectory(const std::filesystem::path& root, ProcessLauncher& launcher,
                                         const PackOptions& options, const ArchiveChunkSink& sink,
                                         const PackProgressCallback& progress = nullptr);

// Convenience wrappers over PackDirectory.
absl::StatusOr<PackResult> PackDirectoryToFile(const std::filesystem::path& root,
                                               const std::filesystem::path& archive_path, ProcessLauncher& launcher,
                                               const PackOptions& options = {});
absl::StatusOr<std::string> PackDirectoryToString(const std::filesystem::path& root, ProcessLauncher& launcher,
                                                  const PackOptions& options = {});

// ---- Extraction ----------------------------------------------------------------------------------

struct ExtractLimits {
  uint64_t max_compressed_bytes = 512ull << 20;  // archive size as received
  uint64_t max_uncompressed_bytes = 4ull << 30;  // sum of file contents
  uint64_t max_files = 200000;                   // entries of any kind
  // Decompression-bomb guard: uncompressed/compressed may not exceed this once more than
  // `ratio_check_floor_bytes` have been unpacked (small archives legitimately compress very well).
  double max_compression_ratio = 200.0;
  uint64_t ratio_check_floor_bytes = 8ull << 20;
  bool reject_empty = true;                    // an archive with no regular file is an error (InvalidArgument)
  size_t max_name_bytes = kMaxInputNameBytes;  // per component (kMaxDerivedNameBytes for derived trees)
};

struct ExtractResult {
  uint64_t files = 0;  // regular files (hard links included)
  uint64_t directories = 0;
  uint64_t symlinks = 0;
  // Logical sizes of all files written (hard links included), plus every body inflated without being
  // written (a hard link's own body, one declared on a directory or symlink).
  uint64_t uncompressed_bytes = 0;
  uint64_t compressed_bytes = 0;
};

// Pulls the next piece of an archive; an empty view means end of input. The view must stay valid
// until the next call.
using ArchiveChunkSource = std::function<absl::StatusOr<std::string_view>()>;

// Unpacks a (gzip/zstd/xz/bzip2-compressed or plain) tar into `target`, which must be absent or an
// empty directory. Refuses, with nothing left behind in `target`:
//   InvalidArgument    corrupt or truncated archive, not a tar, entry names that are absolute,
//                      contain "..", are not valid UTF-8, hold control characters or are longer
//                      than 3072 bytes or max_name_bytes per component,
//                      duplicate entries, symlinks or hard links leaving the root, symlinks that do
//                      not resolve (dangling, loops) or point at a directory that holds them
//                      (a directory loop: `src/self -> .`), device files, FIFOs, sockets, an archive
//                      without files (reject_empty);
//   ResourceExhausted  over max_compressed_bytes / max_uncompressed_bytes / max_files, or a
//                      compression ratio above max_compression_ratio (decompression bomb). Sizes
//                      count what is written: sparse entries at their full size, hard links at
//                      their target's size; a body that is skipped (a hard link's own) counts at
//                      its declared size, refused before it is inflated. The source is read
//                      in fixed blocks, so the outcome does not depend on how it is chunked;
//   FailedPrecondition `target` is not empty; Internal for local I/O errors.
// Nothing is ever written outside `target`: entry names are checked here and libarchive's
// ARCHIVE_EXTRACT_SECURE_SYMLINKS/NODOTDOT refuse writes through symlinks on disk.
absl::StatusOr<ExtractResult> SafeExtract(const ArchiveChunkSource& source, const std::filesystem::path& target,
                                          const ExtractLimits& limits = {});
absl::StatusOr<ExtractResult> SafeExtractFile(const std::filesystem::path& archive_path,
                                              const std::filesystem::path& target, const ExtractLimits& limits = {});
absl::StatusOr<ExtractResult> SafeExtractBuffer(std::string_view archive, const std::filesystem::path& target,
                                                const ExtractLimits& limits = {});

}  // namespace hipforge
