#include "common/archive.h"

#include <archive.h>
#include <archive_entry.h>
#include <locale.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/utf8.h"
#include "spdlog/spdlog.h"

namespace hipforge {
namespace fs = std::filesystem;
namespace {

// Entry names leave room below PATH_MAX for the worker's scratch prefix; names per component are
// limited by the caller (kMaxInputNameBytes for uploads, kMaxDerivedNameBytes for trees derived from them).
constexpr size_t kMaxPathBytes = 3072;
constexpr size_t kReadBlockBytes = 64 << 10;

// libarchive converts names between the tar headers (pax: UTF-8) and the current locale's charset,
// and under the C locale every non-ASCII name fails ("Can't translate pathname"). Names here are
// UTF-8 end to end, so libarchive runs under C.UTF-8 on this thread only while it works.
class ScopedUtf8Locale {
 public:
  ScopedUtf8Locale() {
    static const locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(nullptr));
    if (utf8 != static_cast<locale_t>(nullptr)) previous_ = uselocale(utf8);
  }
  ~ScopedUtf8Locale() {
    if (previous_ != static_cast<locale_t>(nullptr)) uselocale(previous_);
  }
  ScopedUtf8Locale(const ScopedUtf8Locale&) = delete;
  ScopedUtf8Locale& operator=(const ScopedUtf8Locale&) = delete;

 private:
  locale_t previous_ = static_cast<locale_t>(nullptr);
};

struct ArchiveReadDeleter {
  void operator()(archive* a) const { archive_read_free(a); }
};
struct ArchiveWriteDeleter {
  void operator()(archive* a) const { archive_write_free(a); }
};
struct EntryDeleter {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};
using ReadArchive = std::unique_ptr<archive, ArchiveReadDeleter>;
using WriteArchive = std::unique_ptr<archive, ArchiveWriteDeleter>;
using Entry = std::unique_ptr<archive_entry, EntryDeleter>;

std::string ArchiveError(archive* a) {
  const char* message = archive_error_string(a);
  return message != nullptr ? message : "unknown libarchive error";
}

bool HasGitComponent(const fs::path& relative) {
  return std::any_of(relative.begin(), relative.end(), [](const fs::path& part) { return part == ".git"; });
}

// True when `target` (relative to the directory holding the link) stays inside the root, judged
// lexically. SafeExtract re-checks the real resolution after unpacking.
bool SymlinkTargetStaysInside(const std::string& link_relative_path, const std::string& target) {
  if (target.empty() || target.front() == '/') return false;
  std::vector<std::string> stack;
  for (const auto& part : fs::path(link_relative_path).parent_path()) stack.push_back(part.string());
  for (const auto& part : fs::path(target)) {
    const std::string piece = part.string();
    if (piece.empty() || piece == ".") continue;
    if (piece == "..") {
      if (stack.empty()) return false;
      stack.pop_back();
    } else {
      stack.push_back(piece);
    }
  }
  return true;
}

bool IsWithin(const fs::path& candidate, const fs::path& root) {
  auto mismatch = std::mismatch(root.begin(), root.end(), candidate.begin(), candidate.end());
  return mismatch.first == root.end();
}

// The server refuses what SafeExtract would refuse; say so before uploading, naming the file.
absl::Status CheckPackableName(const std::string& relative, size_t max_name_bytes) {
  if (!IsValidUtf8(relative)) {
    return absl::InvalidArgumentError(
        absl::StrCat("file name is not valid UTF-8 (rename it or add it to .gitignore): ", EscapeForMessage(relative)));
  }
  if (relative.size() > kMaxPathBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("path longer than ", kMaxPathBytes, " bytes: ", EscapeForMessage(relative.substr(0, 200)), "..."));
  }
  for (absl::string_view part : absl::StrSplit(relative, '/')) {
    if (part.size() > max_name_bytes) {
      return absl::InvalidArgumentError(
          absl::StrCat("file name longer than ", max_name_bytes, " bytes: ", EscapeForMessage(relative)));
    }
  }
  return absl::OkStatus();
}

bool IsGitWorkTree(const fs::path& root, ProcessLauncher& launcher) {
  ProcessSpec spec;
  spec.argv = {"git", "rev-parse", "--is-inside-work-tree"};
  spec.working_directory = root;
  spec.timeout = std::chrono::seconds(30);
  auto result = launcher.Run(spec);
  return result.ok() && result->exit_code == 0 && result->standard_output.rfind("true", 0) == 0;
}

// True when the link at `link` (absolute) resolves to a directory that contains the link itself
// (`src/self -> .`): whatever walks the tree following links never ends.
bool MakesDirectoryLoop(const fs::path& link, const fs::path& resolved) {
  std::error_code error;
  if (!fs::is_directory(resolved, error)) return false;
  const fs::path parent = fs::canonical(link.parent_path(), error);
  return !error && IsWithin(parent, resolved);
}

// Adds `relative` (a path under root) to `out` if it is something we pack; walks directories
// (submodules show up as directories in git's listing).
absl::Status CollectEntry(const fs::path& root, const fs::path& relative, size_t max_name_bytes,
                          std::set<std::string>& out) {
  if (relative.empty() || HasGitComponent(relative)) return absl::OkStatus();
  std::error_code error;
  const fs::path absolute = root / relative;
  const auto status = fs::symlink_status(absolute, error);
  if (error || !fs::exists(status)) return absl::OkStatus();  // deleted but still tracked: skip
  if (fs::is_symlink(status)) {
    const std::string target = fs::read_symlink(absolute, error).string();
    if (error || !SymlinkTargetStaysInside(relative.generic_string(), target)) {
      spdlog::warn("archive: skipping symlink {} -> {} (points outside the tree)",
                   EscapeForMessage(relative.generic_string()), EscapeForMessage(target));
      return absl::OkStatus();
    }
    // SafeExtract refuses links that do not resolve (dangling, loops): leave them out here.
    const fs::path resolved = fs::canonical(absolute, error);
    if (error || !IsWithin(resolved, root) || MakesDirectoryLoop(absolute, resolved)) {
      spdlog::warn("archive: skipping symlink {} -> {} (dangling or a loop)",
                   EscapeForMessage(relative.generic_string()), EscapeForMessage(target));
      return absl::OkStatus();
    }
    if (auto checked = CheckPackableName(relative.generic_string(), max_name_bytes); !checked.ok()) return checked;
    out.insert(relative.generic_string());
  } else if (fs::is_regular_file(status)) {
    if (auto checked = CheckPackableName(relative.generic_string(), max_name_bytes); !checked.ok()) return checked;
    out.insert(relative.generic_string());
  } else if (fs::is_directory(status)) {
    for (fs::recursive_directory_iterator it(absolute, fs::directory_options::none, error), end; it != end;
         it.increment(error)) {
      if (error) return absl::InternalError(absl::StrCat("cannot list ", absolute.string(), ": ", error.message()));
      if (it->path().filename() == ".git") {
        if (it->is_directory(error)) it.disable_recursion_pending();
        continue;
      }
      if (it->is_directory(error) && !it->is_symlink(error)) continue;
      auto status_of_child = CollectEntry(root, it->path().lexically_relative(root), max_name_bytes, out);
      if (!status_of_child.ok()) return status_of_child;
    }
    if (error) return absl::InternalError(absl::StrCat("cannot list ", absolute.string(), ": ", error.message()));
  }
  // Sockets, FIFOs and devices in a source tree are never packed.
  return absl::OkStatus();
}

// Buffers libarchive's output into `chunk_bytes` pieces for the sink.
struct SinkState {
  const ArchiveChunkSink* sink;
  size_t chunk_bytes;
  std::string pending;
  uint64_t delivered = 0;
  absl::Status error;

  bool Flush() {
    if (pending.empty()) return true;
    error = (*sink)(pending);
    delivered += pending.size();
    pending.clear();
    return error.ok();
  }
};

la_ssize_t WriteToSink(archive*, void* client, const void* buffer, size_t length) {
  auto* state = static_cast<SinkState*>(client);
  state->pending.append(static_cast<const char*>(buffer), length);
  while (state->pending.size() >= state->chunk_bytes) {
    std::string rest = state->pending.substr(state->chunk_bytes);
    state->pending.resize(state->chunk_bytes);
    if (!state->Flush()) return -1;
    state->pending = std::move(rest);
  }
  return static_cast<la_ssize_t>(length);
}

// ---- extraction helpers ----

// Hands libarchive blocks of kReadBlockBytes whatever the chunking of the source, so every decision
// taken while reading (the compression-ratio guard above all) is the same for one archive whether it
// arrives as one message (the server) or in 256 KiB pieces (a worker).
struct SourceState {
  const ArchiveChunkSource* source;
  uint64_t limit;
  uint64_t consumed = 0;  // bytes handed to libarchive
  bool over_limit = false;
  bool at_end = false;
  std::string_view pending;  // unread rest of the source's last chunk
  std::string block;
  absl::Status error;
};

la_ssize_t ReadFromSource(archive* a, void* client, const void** buffer) {
  auto* state = static_cast<SourceState*>(client);
  state->block.clear();
  while (state->block.size() < kReadBlockBytes && !state->at_end) {
    if (state->pending.empty()) {
      auto chunk = (*state->source)();
      if (!chunk.ok()) {
        state->error = chunk.status();
        archive_set_error(a, EIO, "%s", std::string(chunk.status().message()).c_str());
        return -1;
      }
      if (chunk->empty()) {
        state->at_end = true;
        break;
      }
      state->pending = *chunk;
    }
    const size_t take = std::min(kReadBlockBytes - state->block.size(), state->pending.size());
    state->block.append(state->pending.substr(0, take));
    state->pending.remove_prefix(take);
  }
  state->consumed += state->block.size();
  if (state->consumed > state->limit) {
    state->over_limit = true;
    archive_set_error(a, EFBIG, "archive larger than the limit");
    return -1;
  }
  *buffer = state->block.data();
  return static_cast<la_ssize_t>(state->block.size());
}

// Normalises an entry name to a relative generic path; empty result means "the root itself".
// Names must be valid UTF-8: reports, JSON and the database carry them (a Latin-1 name once made
// the report serialiser throw and took the server down).
absl::StatusOr<std::string> CheckedEntryName(const char* raw, const std::string& what, size_t max_name_bytes) {
  if (raw == nullptr) return absl::InvalidArgumentError(absl::StrCat(what, " has no readable name"));
  std::string name(raw);
  if (!IsValidUtf8(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " name is not valid UTF-8 (names must be UTF-8): ", EscapeForMessage(name)));
  }
  if (name.size() > kMaxPathBytes) {
    return absl::InvalidArgumentError(absl::StrCat(what, " path is longer than ", kMaxPathBytes, " bytes"));
  }
  if (!name.empty() && name.front() == '/') {
    return absl::InvalidArgumentError(absl::StrCat(what, " has an absolute path: ", EscapeForMessage(name)));
  }
  std::vector<std::string> parts;
  for (absl::string_view part : absl::StrSplit(name, '/')) {
    if (part.empty() || part == ".") continue;
    if (part == "..") return absl::InvalidArgumentError(absl::StrCat(what, " contains '..': ", EscapeForMessage(name)));
    if (part.size() > max_name_bytes) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " has a path component over ", max_name_bytes, " bytes: ", EscapeForMessage(name)));
    }
    if (std::any_of(part.begin(), part.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; })) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " name contains a control character: ", EscapeForMessage(name)));
    }
    parts.emplace_back(part);
  }
  std::string normal;
  for (const auto& part : parts) {
    if (!normal.empty()) normal += '/';
    normal += part;
  }
  return normal;
}

void RemoveContents(const fs::path& target, bool remove_target_itself) {
  std::error_code ignored;
  if (remove_target_itself) {
    fs::remove_all(target, ignored);
    return;
  }
  for (fs::directory_iterator it(target, ignored), end; it != end; it.increment(ignored)) {
    fs::remove_all(it->path(), ignored);
  }
}

enum class Kind { kFile, kDirectory, kSymlink };

class Extractor {
 public:
  Extractor(const fs::path& root, const ExtractLimits& limits) : root_(root), limits_(limits) {}

  absl::Status Run(const ArchiveChunkSource& source) {
    ReadArchive in(archive_read_new());
    archive_read_support_format_tar(in.get());
    archive_read_support_format_empty(in.get());
    // Only filters libarchive implements itself: never fall back to spawning external programs.
    archive_read_support_filter_gzip(in.get());
    archive_read_support_filter_zstd(in.get());
    archive_read_support_filter_xz(in.get());
    archive_read_support_filter_bzip2(in.get());
    source_ = SourceState{&source, limits_.max_compressed_bytes};
    if (archive_read_open(in.get(), &source_, nullptr, ReadFromSource, nullptr) != ARCHIVE_OK) {
      return ReadFailure(in.get(), "cannot open archive");
    }
    WriteArchive out(archive_write_disk_new());
    archive_write_disk_set_options(
        out.get(), ARCHIVE_EXTRACT_SECURE_SYMLINKS | ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_NO_OVERWRITE);
    for (;;) {
      archive_entry* entry = nullptr;
      const int header = archive_read_next_header(in.get(), &entry);
      if (header == ARCHIVE_EOF) break;
      if (header < ARCHIVE_WARN) return ReadFailure(in.get(), "corrupt or truncated archive");
      if (auto status = ExtractEntry(in.get(), out.get(), entry); !status.ok()) return status;
    }
    // libarchive can swallow a read error while it looks past the end of a compressed stream; an
    // error from the source (e.g. a malformed upload stream) still fails the extraction.
    if (!source_.error.ok()) return source_.error;
    result_.compressed_bytes = source_.consumed;
    if (archive_write_close(out.get()) != ARCHIVE_OK) {
      return absl::InternalError("finishing extraction: " + ArchiveError(out.get()));
    }
    if (limits_.reject_empty && result_.files == 0) {
      return absl::InvalidArgumentError("archive contains no files");
    }
    return CheckSymlinksResolveInside();
  }

  const ExtractResult& result() const { return result_; }

 private:
  absl::Status ReadFailure(archive* in, const std::string& context) {
    if (source_.over_limit) {
      return absl::ResourceExhaustedError(
          absl::StrCat("archive exceeds the compressed size limit of ", limits_.max_compressed_bytes, " bytes"));
    }
    if (!source_.error.ok()) return source_.error;
    return absl::InvalidArgumentError(absl::StrCat(context, ": ", ArchiveError(in)));
  }

  absl::Status ExtractEntry(archive* in, archive* out, archive_entry* entry) {
    if (++entries_ > limits_.max_files) {
      return absl::ResourceExhaustedError(absl::StrCat("archive has more than ", limits_.max_files, " entries"));
    }
    auto name = CheckedEntryName(archive_entry_pathname(entry), "archive entry", limits_.max_name_bytes);
    if (!name.ok()) return name.status();
    const std::string& relative = *name;
    const mode_t type = archive_entry_filetype(entry);
    const char* hardlink = archive_entry_hardlink(entry);
    if (relative.empty()) {
      if (type == AE_IFDIR && hardlink == nullptr) return absl::OkStatus();  // "./" entry for the root
      return absl::InvalidArgumentError("archive entry without a name");
    }
    if (auto status = CheckAncestorsAreDirectories(relative); !status.ok()) return status;

    std::string hardlink_relative;  // a hard link's target, checked like a name
    absl::StatusOr<Kind> classified = Classify(entry, relative, hardlink_relative);
    if (!classified.ok()) return classified.status();
    const Kind kind = *classified;
    if (auto existing = seen_.find(relative); existing != seen_.end()) {
      if (!(kind == Kind::kDirectory && existing->second == Kind::kDirectory)) {
        return absl::InvalidArgumentError(absl::StrCat("duplicate archive entry: ", relative));
      }
      return archive_read_data_skip(in) == ARCHIVE_OK ? absl::OkStatus()
                                                      : ReadFailure(in, "corrupt or truncated archive");
    }
    // What lands on disk is counted, not the data blocks read: a sparse entry (GNU or PAX) is as
    // large as its declared size (libarchive extends the file to it), and a hard link adds its
    // target's size once more (the tree then has that content under two names, and the translator
    // reads both). A hard link's own body would truncate and rewrite the file it links to, so it is
    // dropped: the link is just the other name.
    int64_t declared = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : 0;
    if (declared < 0) return absl::InvalidArgumentError(absl::StrCat("negative size for ", relative));
    // A body that is not written (a hard link's, or one declared on a directory or symlink) is still
    // inflated when libarchive skips it: it counts too, before a byte of it is decompressed.
    if (declared > 0 && !(kind == Kind::kFile && hardlink_relative.empty())) {
      if (auto status = Account(static_cast<uint64_t>(declared), relative); !status.ok()) return status;
    }
    if (!hardlink_relative.empty()) {
      archive_entry_set_size(entry, 0);
      declared = static_cast<int64_t>(file_sizes_[hardlink_relative]);
    } else if (kind != Kind::kFile) {
      declared = 0;
    }
    const uint64_t entry_size = static_cast<uint64_t>(declared);
    if (entry_size >
        limits_.max_uncompressed_bytes - std::min(limits_.max_uncompressed_bytes, result_.uncompressed_bytes)) {
      return UncompressedLimitError();
    }

    Sanitize(entry, relative, hardlink_relative, kind);
    if (archive_write_header(out, entry) < ARCHIVE_WARN) {
      return absl::InvalidArgumentError(absl::StrCat("refused to extract ", relative, ": ", ArchiveError(out)));
    }
    uint64_t written = 0;  // logical size of this entry's file so far (holes included)
    if (kind == Kind::kFile && hardlink_relative.empty()) {
      if (auto status = CopyData(in, out, relative, written); !status.ok()) return status;
    }
    // The rest of a sparse file (or a hard link's second name) materialises here.
    if (auto status = Account(std::max(written, entry_size) - written, relative); !status.ok()) return status;
    written = std::max(written, entry_size);
    if (archive_write_finish_entry(out) < ARCHIVE_WARN) {
      return absl::InternalError(absl::StrCat("writing ", relative, ": ", ArchiveError(out)));
    }
    Record(relative, kind, hardlink_relative.empty() ? written : file_sizes_[hardlink_relative]);
    return absl::OkStatus();
  }

  // What an entry is (a hard link is a file under a second name: `hardlink_relative` is set); devices, FIFOs,
  // sockets, symlinks pointing outside and hard links to anything but an earlier file are refused.
  absl::StatusOr<Kind> Classify(archive_entry* entry, const std::string& relative, std::string& hardlink_relative) {
    if (const char* hardlink = archive_entry_hardlink(entry); hardlink != nullptr) {
      auto link = CheckedEntryName(hardlink, absl::StrCat("hard link ", relative), limits_.max_name_bytes);
      if (!link.ok()) return link.status();
      auto known = seen_.find(*link);
      if (link->empty() || known == seen_.end() || known->second != Kind::kFile) {
        return absl::InvalidArgumentError(
            absl::StrCat("hard link ", relative, " -> ", *link, " does not point to a file inside the archive"));
      }
      hardlink_relative = *link;
      return Kind::kFile;
    }
    switch (archive_entry_filetype(entry)) {
      case AE_IFREG: return Kind::kFile;
      case AE_IFDIR: return Kind::kDirectory;
      case AE_IFLNK: {
        const char* target = archive_entry_symlink(entry);
        if (target == nullptr || !IsValidUtf8(target)) {
          return absl::InvalidArgumentError(absl::StrCat("symlink ", relative, " has no valid UTF-8 target"));
        }
        if (!SymlinkTargetStaysInside(relative, target)) {
          return absl::InvalidArgumentError(
              absl::StrCat("symlink ", relative, " -> ", EscapeForMessage(target), " points outside the archive"));
        }
        return Kind::kSymlink;
      }
      case AE_IFCHR:
      case AE_IFBLK: return absl::InvalidArgumentError(absl::StrCat("device file not allowed: ", relative));
      case AE_IFIFO: return absl::InvalidArgumentError(absl::StrCat("FIFO not allowed: ", relative));
      case AE_IFSOCK: return absl::InvalidArgumentError(absl::StrCat("socket not allowed: ", relative));
      default: return absl::InvalidArgumentError(absl::StrCat("unsupported entry type for ", relative));
    }
  }

  // Rewrites the entry to an absolute destination under the (canonical) root and strips ownership,
  // special mode bits, and anything else a hostile archive could smuggle in.
  void Sanitize(archive_entry* entry, const std::string& relative, const std::string& hardlink_relative, Kind kind) {
    archive_entry_set_pathname(entry, (root_ / relative).c_str());
    if (!hardlink_relative.empty()) archive_entry_set_hardlink(entry, (root_ / hardlink_relative).c_str());
    archive_entry_set_uid(entry, 0);
    archive_entry_set_gid(entry, 0);
    archive_entry_set_uname(entry, nullptr);
    archive_entry_set_gname(entry, nullptr);
    if (kind == Kind::kDirectory) {
      archive_entry_set_perm(entry, 0755);
    } else if (kind == Kind::kFile) {
      archive_entry_set_perm(entry, (archive_entry_perm(entry) & 0111) != 0 ? 0755 : 0644);
    }
  }

  // An entry on disk: counted, and known to later hard links and duplicates.
  void Record(const std::string& relative, Kind kind, uint64_t size) {
    seen_[relative] = kind;
    switch (kind) {
      case Kind::kFile:
        ++result_.files;
        file_sizes_[relative] = size;
        break;
      case Kind::kDirectory: ++result_.directories; break;
      case Kind::kSymlink:
        ++result_.symlinks;
        symlinks_.push_back(relative);
        break;
    }
  }

  // `written` tracks the entry's extent: data blocks of sparse entries come with offsets, and the
  // holes before them count as written.
  absl::Status CopyData(archive* in, archive* out, const std::string& relative, uint64_t& written) {
    for (;;) {
      const void* block = nullptr;
      size_t size = 0;
      la_int64_t offset = 0;
      const int read = archive_read_data_block(in, &block, &size, &offset);
      if (read == ARCHIVE_EOF) return absl::OkStatus();
      if (read < ARCHIVE_WARN) return ReadFailure(in, absl::StrCat("corrupt or truncated archive at ", relative));
      if (offset < 0) return absl::InvalidArgumentError(absl::StrCat("negative data offset in ", relative));
      const uint64_t extent = static_cast<uint64_t>(offset) + size;
      if (extent > written) {
        if (auto status = Account(extent - written, relative); !status.ok()) return status;
        written = extent;
      }
      if (archive_write_data_block(out, block, size, offset) < ARCHIVE_WARN) {
        return absl::InternalError(absl::StrCat("writing ", relative, ": ", ArchiveError(out)));
      }
    }
  }

  // Adds bytes about to be written and applies the size and bomb guards.
  absl::Status Account(uint64_t bytes, const std::string& relative) {
    if (bytes > limits_.max_uncompressed_bytes - std::min(limits_.max_uncompressed_bytes, result_.uncompressed_bytes)) {
      return UncompressedLimitError();
    }
    result_.uncompressed_bytes += bytes;
    if (result_.uncompressed_bytes > limits_.ratio_check_floor_bytes) {
      const double ratio = static_cast<double>(result_.uncompressed_bytes) /
                           static_cast<double>(std::max<uint64_t>(source_.consumed, 1));
      if (ratio > limits_.max_compression_ratio) {
        return absl::ResourceExhaustedError(absl::StrCat("compression ratio over ", limits_.max_compression_ratio,
                                                         ":1 (decompression bomb?) at ", relative));
      }
    }
    return absl::OkStatus();
  }

  absl::Status UncompressedLimitError() const {
    return absl::ResourceExhaustedError(
        absl::StrCat("archive exceeds the uncompressed size limit of ", limits_.max_uncompressed_bytes, " bytes"));
  }

  // Mirrors ARCHIVE_EXTRACT_SECURE_SYMLINKS with our own bookkeeping: nothing may be placed under
  // an entry that is a file or a symlink.
  absl::Status CheckAncestorsAreDirectories(const std::string& relative) const {
    for (size_t slash = relative.find('/'); slash != std::string::npos; slash = relative.find('/', slash + 1)) {
      auto ancestor = seen_.find(relative.substr(0, slash));
      if (ancestor != seen_.end() && ancestor->second != Kind::kDirectory) {
        return absl::InvalidArgumentError(
            absl::StrCat("archive entry ", relative, " lies under the non-directory ", ancestor->first));
      }
    }
    return absl::OkStatus();
  }

  // Chains of links can escape even when each link looks fine on its own ("a -> sub/.." where sub is
  // itself a link), so judge the real resolution once everything is on disk.
  absl::Status CheckSymlinksResolveInside() const {
    // A link must also resolve to something in the tree: dangling links and loops make later steps
    // (the patch's diff follows links) fail on every attempt, so they are refused here, at submit.
    for (const auto& relative : symlinks_) {
      std::error_code error;
      const fs::path resolved = fs::canonical(root_ / relative, error);
      if (error) {
        return absl::InvalidArgumentError(absl::StrCat("symlink ", relative,
                                                       " does not resolve to a file or directory in "
                                                       "the archive (dangling or a loop): ",
                                                       error.message()));
      }
      if (!IsWithin(resolved, root_)) {
        return absl::InvalidArgumentError(absl::StrCat("symlink ", relative, " resolves outside the archive"));
      }
    }
    // Then loops (after every escape is refused: an escape is the graver finding).
    for (const auto& relative : symlinks_) {
      std::error_code error;
      if (MakesDirectoryLoop(root_ / relative, fs::canonical(root_ / relative, error))) {
        return absl::InvalidArgumentError(
            absl::StrCat("symlink ", relative, " -> ", fs::read_symlink(root_ / relative, error).string(),
                         " makes a directory loop (it points at a directory that holds it)"));
      }
    }
    return absl::OkStatus();
  }

  fs::path root_;
  ExtractLimits limits_;
  SourceState source_{nullptr, 0};
  ExtractResult result_;
  uint64_t entries_ = 0;
  std::map<std::string, Kind> seen_;
  std::map<std::string, uint64_t> file_sizes_;  // logical size of each file written
  std::vector<std::string> symlinks_;
};

}  // namespace

absl::StatusOr<std::vector<std::string>> ListFilesToPack(const fs::path& root, ProcessLauncher& launcher,
                                                         const PackOptions& options) {
  std::error_code error;
  if (!fs::is_directory(root, error)) {
    return absl::NotFoundError(absl::StrCat("not a directory: ", root.string()));
  }
  const fs::path canonical_root = fs::canonical(root, error);
  if (error) return absl::InternalError(absl::StrCat("cannot resolve ", root.string(), ": ", error.message()));

  std::set<std::string> files;
  bool listed_by_git = false;
  if (options.honour_gitignore && IsGitWorkTree(canonical_root, launcher)) {
    ProcessSpec spec;
    spec.argv = {"git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"};
    spec.working_directory = canonical_root;
    spec.timeout = std::chrono::minutes(2);
    spec.max_output_bytes = 256 << 20;
    auto listing = launcher.Run(spec);
    if (listing.ok() && listing->exit_code == 0 && !listing->output_truncated) {
      listed_by_git = true;
      for (absl::string_view path : absl::StrSplit(listing->standard_output, '\0', absl::SkipEmpty())) {
        if (auto status = CollectEntry(canonical_root, fs::path(std::string(path)), options.max_name_bytes, files);
            !status.ok()) {
          return status;
        }
      }
    } else {
      spdlog::warn("archive: git ls-files failed in {} ({}); packing without .gitignore", canonical_root.string(),
                   listing.ok() ? listing->standard_error : std::string(listing.status().message()));
    }
  }
  if (!listed_by_git) {
    for (fs::directory_iterator it(canonical_root, error), end; it != end; it.increment(error)) {
      if (auto status = CollectEntry(canonical_root, it->path().filename(), options.max_name_bytes, files);
          !status.ok()) {
        return status;
      }
    }
    if (error) return absl::InternalError(absl::StrCat("cannot list ", root.string(), ": ", error.message()));
  }
  return std::vector<std::string>(files.begin(), files.end());
}

absl::StatusOr<PackResult> PackDirectory(const fs::path& root, ProcessLauncher& launcher, const PackOptions& options,
                                         const ArchiveChunkSink& sink, const PackProgressCallback& progress) {
  auto listing = ListFilesToPack(root, launcher, options);
  if (!listing.ok()) return listing.status();
  const fs::path canonical_root = fs::canonical(root);

  PackProgress state;
  state.files_total = listing->size();
  for (const auto& relative : *listing) {
    std::error_code error;
    const auto status = fs::symlink_status(canonical_root / relative, error);
    if (!error && fs::is_regular_file(status))
      state.input_bytes_total += fs::file_size(canonical_root / relative, error);
  }

  ScopedUtf8Locale utf8_names;
  SinkState out_state{&sink, std::max<size_t>(options.chunk_bytes, 1)};
  WriteArchive out(archive_write_new());
  archive_write_set_format_pax_restricted(out.get());
  const int filter = options.compression == ArchiveCompression::kZstd ? archive_write_add_filter_zstd(out.get())
                                                                      : archive_write_add_filter_gzip(out.get());
  if (filter != ARCHIVE_OK) return absl::InternalError("compression filter unavailable: " + ArchiveError(out.get()));
  archive_write_set_bytes_in_last_block(out.get(), 1);  // no padding after the compressed stream
  if (archive_write_open(out.get(), &out_state, nullptr, WriteToSink, nullptr) != ARCHIVE_OK) {
    return absl::InternalError("cannot start archive: " + ArchiveError(out.get()));
  }
  auto write_failure = [&](const std::string& context) -> absl::Status {
    if (!out_state.error.ok()) return out_state.error;
    return absl::InternalError(absl::StrCat(context, ": ", ArchiveError(out.get())));
  };

  std::vector<char> block(kReadBlockBytes);
  for (const auto& relative : *listing) {
    const fs::path absolute = canonical_root / relative;
    struct stat info {};
    if (::lstat(absolute.c_str(), &info) != 0) continue;  // vanished since listing
    Entry entry(archive_entry_new());
    archive_entry_set_pathname(entry.get(), relative.c_str());
    archive_entry_set_mtime(entry.get(), info.st_mtime, 0);
    std::ifstream file;
    if (S_ISLNK(info.st_mode)) {
      std::error_code error;
      const std::string target = fs::read_symlink(absolute, error).string();
      if (error) continue;
      archive_entry_set_filetype(entry.get(), AE_IFLNK);
      archive_entry_set_perm(entry.get(), 0777);
      archive_entry_set_symlink(entry.get(), target.c_str());
    } else {
      file.open(absolute, std::ios::binary);
      if (!file) return absl::PermissionDeniedError(absl::StrCat("cannot read ", absolute.string()));
      archive_entry_set_filetype(entry.get(), AE_IFREG);
      archive_entry_set_perm(entry.get(), (info.st_mode & 0111) != 0 ? 0755 : 0644);
      archive_entry_set_size(entry.get(), info.st_size);
    }
    if (archive_write_header(out.get(), entry.get()) != ARCHIVE_OK) return write_failure("writing " + relative);
    int64_t remaining = S_ISLNK(info.st_mode) ? 0 : info.st_size;
    while (remaining > 0) {
      file.read(block.data(), static_cast<std::streamsize>(std::min<int64_t>(remaining, block.size())));
      const auto got = file.gcount();
      if (got <= 0) return absl::DataLossError(absl::StrCat(absolute.string(), " shrank while it was being packed"));
      if (archive_write_data(out.get(), block.data(), static_cast<size_t>(got)) != got) {
        return write_failure("writing " + relative);
      }
      remaining -= got;
      state.input_bytes_done += static_cast<uint64_t>(got);
    }
    ++state.files_done;
    state.output_bytes = out_state.delivered;
    if (progress) progress(state);
  }
  if (archive_write_close(out.get()) != ARCHIVE_OK) return write_failure("finishing archive");
  if (!out_state.Flush()) return out_state.error;
  state.output_bytes = out_state.delivered;
  if (progress) progress(state);
  return PackResult{state.files_done, state.input_bytes_done, out_state.delivered};
}

absl::StatusOr<PackResult> PackDirectoryToFile(const fs::path& root, const fs::path& archive_path,
                                               ProcessLauncher& launcher, const PackOptions& options) {
  std::ofstream file(archive_path, std::ios::binary | std::ios::trunc);
  if (!file) return absl::InternalError(absl::StrCat("cannot create ", archive_path.string()));
  auto result = PackDirectory(root, launcher, options, [&](std::string_view chunk) {
    file.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    return file ? absl::OkStatus() : absl::InternalError(absl::StrCat("cannot write ", archive_path.string()));
  });
  file.close();
  if (!result.ok()) {
    std::error_code ignored;
    fs::remove(archive_path, ignored);
  }
  return result;
}

absl::StatusOr<std::string> PackDirectoryToString(const fs::path& root, ProcessLauncher& launcher,
                                                  const PackOptions& options) {
  std::string archive;
  auto result = PackDirectory(root, launcher, options, [&](std::string_view chunk) {
    archive.append(chunk);
    return absl::OkStatus();
  });
  if (!result.ok()) return result.status();
  return archive;
}

absl::StatusOr<ExtractResult> SafeExtract(const ArchiveChunkSource& source, const fs::path& target,
                                          const ExtractLimits& limits) {
  std::error_code error;
  bool created = false;
  if (fs::exists(fs::symlink_status(target, error))) {
    if (!fs::is_directory(fs::symlink_status(target, error)) || !fs::is_empty(target, error)) {
      return absl::FailedPreconditionError(
          absl::StrCat("extraction target is not an empty directory: ", target.string()));
    }
  } else {
    fs::create_directories(target, error);
    if (error) return absl::InternalError(absl::StrCat("cannot create ", target.string(), ": ", error.message()));
    created = true;
  }
  const fs::path root = fs::canonical(target, error);
  if (error) return absl::InternalError(absl::StrCat("cannot resolve ", target.string(), ": ", error.message()));

  ScopedUtf8Locale utf8_names;
  Extractor extractor(root, limits);
  absl::Status status = extractor.Run(source);
  if (!status.ok()) {
    RemoveContents(root, created);
    return status;
  }
  return extractor.result();
}

absl::StatusOr<ExtractResult> SafeExtractFile(const fs::path& archive_path, const fs::path& target,
                                              const ExtractLimits& limits) {
  std::error_code error;
  const auto size = fs::file_size(archive_path, error);
  if (error)
    return absl::NotFoundError(absl::StrCat("cannot read archive ", archive_path.string(), ": ", error.message()));
  if (size > limits.max_compressed_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("archive exceeds the compressed size limit of ", limits.max_compressed_bytes, " bytes"));
  }
  std::ifstream file(archive_path, std::ios::binary);
  if (!file) return absl::NotFoundError(absl::StrCat("cannot open archive ", archive_path.string()));
  std::vector<char> buffer(kReadBlockBytes);
  auto source = [&]() -> absl::StatusOr<std::string_view> {
    file.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (file.bad()) return absl::InternalError(absl::StrCat("error reading ", archive_path.string()));
    return std::string_view(buffer.data(), static_cast<size_t>(file.gcount()));
  };
  return SafeExtract(source, target, limits);
}

absl::StatusOr<ExtractResult> SafeExtractBuffer(std::string_view archive_bytes, const fs::path& target,
                                                const ExtractLimits& limits) {
  if (archive_bytes.size() > limits.max_compressed_bytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("archive exceeds the compressed size limit of ", limits.max_compressed_bytes, " bytes"));
  }
  size_t offset = 0;
  auto source = [&]() -> absl::StatusOr<std::string_view> {
    const size_t length = std::min(kReadBlockBytes, archive_bytes.size() - offset);
    std::string_view piece = archive_bytes.substr(offset, length);
    offset += length;
    return piece;
  };
  return SafeExtract(source, target, limits);
}

}  // namespace hipforge
