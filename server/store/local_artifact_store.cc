#include "server/store/local_artifact_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "common/sha256.h"

namespace hipforge::server {
namespace fs = std::filesystem;
namespace {

std::string RandomSuffix() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  std::ostringstream out;
  out << std::hex << rng();
  return out.str();
}

// Every team's code lives here: directories 0700 and files 0600, whatever the umask (the data
// directory above is private too; this holds if it is ever loosened).
void CreatePrivateDirectories(const fs::path& dir, std::error_code& error) {
  fs::create_directories(dir, error);
  if (error) return;
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, error);
}

class FileArtifactWriter final : public ArtifactWriter {
 public:
  FileArtifactWriter(fs::path temp_path, fs::path root, int64_t max_bytes)
      : temp_path_(std::move(temp_path)), root_(std::move(root)), max_bytes_(max_bytes) {}

  ~FileArtifactWriter() override { Abort(); }

  absl::Status Open() {
    fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd_ < 0) return absl::InternalError("cannot create " + temp_path_.string() + ": " + std::strerror(errno));
    return absl::OkStatus();
  }

  absl::Status Append(std::string_view chunk) override {
    if (fd_ < 0) return absl::FailedPreconditionError("artifact writer is closed");
    if (bytes_written_ + static_cast<int64_t>(chunk.size()) > max_bytes_) {
      Abort();
      return absl::ResourceExhaustedError("artifact exceeds the limit of " + std::to_string(max_bytes_) + " bytes");
    }
    size_t offset = 0;
    while (offset < chunk.size()) {
      const ssize_t n = ::write(fd_, chunk.data() + offset, chunk.size() - offset);
      if (n < 0) {
        if (errno == EINTR) continue;
        const std::string error = std::strerror(errno);
        Abort();
        return absl::InternalError("artifact write failed: " + error);
      }
      offset += static_cast<size_t>(n);
    }
    hasher_.Update(chunk);
    bytes_written_ += static_cast<int64_t>(chunk.size());
    return absl::OkStatus();
  }

  absl::StatusOr<StoredArtifact> Finish() override {
    if (fd_ < 0) return absl::FailedPreconditionError("artifact writer is closed");
    // Data reaches the disk before the name does, so a crash never leaves a named partial file.
    if (::fsync(fd_) != 0 || ::close(fd_) != 0) {
      fd_ = -1;
      Abort();
      return absl::InternalError("artifact sync failed");
    }
    fd_ = -1;
    StoredArtifact stored{hasher_.HexDigest(), bytes_written_};
    const fs::path final_path = root_ / stored.digest.substr(0, 2) / stored.digest.substr(2);
    std::error_code error;
    CreatePrivateDirectories(final_path.parent_path(), error);
    if (error) {
      Abort();
      return absl::InternalError("cannot create " + final_path.parent_path().string() + ": " + error.message());
    }
    // rename() replaces atomically; an existing artifact has the same bytes by construction (and its new
    // modification time keeps it from the orphan collector until the job that wants it exists).
    fs::rename(temp_path_, final_path, error);
    if (error) {
      Abort();
      return absl::InternalError("cannot move artifact into place: " + error.message());
    }
    finished_ = true;
    return stored;
  }

  int64_t bytes_written() const override { return bytes_written_; }

 private:
  void Abort() {
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
    }
    if (!finished_) {
      std::error_code ignored;
      fs::remove(temp_path_, ignored);
    }
  }

  fs::path temp_path_;
  fs::path root_;
  int64_t max_bytes_;
  int fd_ = -1;
  int64_t bytes_written_ = 0;
  bool finished_ = false;
  Sha256Hasher hasher_;
};

class FileArtifactReader final : public ArtifactReader {
 public:
  FileArtifactReader(std::ifstream in, int64_t size) : in_(std::move(in)), size_(size) {}

  absl::StatusOr<std::string> Read(size_t max_bytes) override {
    std::string chunk(max_bytes, '\0');
    in_.read(chunk.data(), static_cast<std::streamsize>(max_bytes));
    if (in_.bad()) return absl::DataLossError("artifact read failed");
    chunk.resize(static_cast<size_t>(in_.gcount()));
    return chunk;
  }

  int64_t size_bytes() const override { return size_; }

 private:
  std::ifstream in_;
  int64_t size_;
};

}  // namespace

LocalArtifactStore::LocalArtifactStore(fs::path data_dir, int64_t default_max_bytes)
    : root_(std::move(data_dir) / "artifacts"), default_max_bytes_(default_max_bytes) {}

absl::Status LocalArtifactStore::Init() {
  std::error_code error;
  CreatePrivateDirectories(root_ / "tmp", error);
  if (!error) fs::permissions(root_, fs::perms::owner_all, fs::perm_options::replace, error);
  if (error) return absl::InternalError("cannot create " + (root_ / "tmp").string() + ": " + error.message());
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<ArtifactWriter>> LocalArtifactStore::StartWriter(int64_t max_bytes) {
  // Temp files live inside the store so the final rename never crosses file systems.
  auto writer = std::make_unique<FileArtifactWriter>(root_ / "tmp" / ("upload-" + RandomSuffix()), root_,
                                                     max_bytes > 0 ? max_bytes : default_max_bytes_);
  if (auto status = writer->Open(); !status.ok()) return status;
  return std::unique_ptr<ArtifactWriter>(std::move(writer));
}

absl::StatusOr<fs::path> LocalArtifactStore::PathOf(const std::string& digest) const {
  if (!IsValidDigest(digest)) return absl::InvalidArgumentError("malformed artifact digest: " + digest);
  return root_ / digest.substr(0, 2) / digest.substr(2);
}

absl::StatusOr<int> LocalArtifactStore::RemoveUnreferenced(const std::set<std::string>& keep,
                                                           std::chrono::system_clock::time_point older_than) {
  // File times are on the file clock: the same age, measured from its now.
  const fs::file_time_type cutoff =
      fs::file_time_type::clock::now() -
      std::chrono::duration_cast<fs::file_time_type::duration>(std::chrono::system_clock::now() - older_than);
  int removed = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root_, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ignored;
    if (!it->is_regular_file(ignored)) continue;
    const fs::path& path = it->path();
    const bool temp = path.parent_path().filename() == "tmp";
    const std::string digest = path.parent_path().filename().string() + path.filename().string();
    if (!temp && (!IsValidDigest(digest) || keep.contains(digest))) continue;
    if (fs::last_write_time(path, ignored) >= cutoff || ignored) continue;
    if (fs::remove(path, ignored)) ++removed;
  }
  return removed;
}

bool LocalArtifactStore::Contains(const std::string& digest) const {
  auto path = PathOf(digest);
  std::error_code ignored;
  return path.ok() && fs::is_regular_file(*path, ignored);
}

absl::StatusOr<std::unique_ptr<ArtifactReader>> LocalArtifactStore::OpenStored(const std::string& digest) const {
  auto path = PathOf(digest);
  if (!path.ok()) return path.status();
  std::error_code error;
  const auto size = fs::file_size(*path, error);
  if (error) return absl::NotFoundError("no artifact " + digest);
  std::ifstream in(*path, std::ios::binary);
  if (!in) return absl::NotFoundError("no artifact " + digest);
  return std::unique_ptr<ArtifactReader>(
      std::make_unique<FileArtifactReader>(std::move(in), static_cast<int64_t>(size)));
}

}  // namespace hipforge::server
