#include "server/store/artifact_store.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <random>
#include <sstream>

namespace hipforge::server {
namespace fs = std::filesystem;
namespace {

std::string HexOf(const unsigned char* bytes, unsigned int length) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kHex[bytes[i] >> 4]);
    hex.push_back(kHex[bytes[i] & 0xf]);
  }
  return hex;
}

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

// Hashes while writing (common/sha256.h hashes whole buffers or files; a stream needs an
// incremental digest, so this uses the same OpenSSL EVP primitive directly).
class FileArtifactWriter final : public ArtifactWriter {
 public:
  FileArtifactWriter(fs::path temp_path, fs::path root, int64_t max_bytes)
      : temp_path_(std::move(temp_path)), root_(std::move(root)), max_bytes_(max_bytes) {
    EVP_DigestInit_ex(digest_.get(), EVP_sha256(), nullptr);
  }

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
    EVP_DigestUpdate(digest_.get(), chunk.data(), chunk.size());
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
    std::array<unsigned char, EVP_MAX_MD_SIZE> bytes{};
    unsigned int length = 0;
    EVP_DigestFinal_ex(digest_.get(), bytes.data(), &length);
    StoredArtifact stored{HexOf(bytes.data(), length), bytes_written_};
    const fs::path final_path = root_ / stored.digest.substr(0, 2) / stored.digest.substr(2);
    std::error_code error;
    CreatePrivateDirectories(final_path.parent_path(), error);
    if (error) {
      Abort();
      return absl::InternalError("cannot create " + final_path.parent_path().string() + ": " + error.message());
    }
    // rename() replaces atomically; an existing artifact has the same bytes by construction.
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
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> digest_{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
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

bool IsValidDigest(std::string_view digest) {
  if (digest.size() != 64) return false;
  for (char c : digest) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

ArtifactStore::ArtifactStore(fs::path data_dir, int64_t default_max_bytes)
    : root_(std::move(data_dir) / "artifacts"), default_max_bytes_(default_max_bytes) {}

absl::Status ArtifactStore::Init() {
  std::error_code error;
  CreatePrivateDirectories(root_ / "tmp", error);
  if (!error) fs::permissions(root_, fs::perms::owner_all, fs::perm_options::replace, error);
  if (error) return absl::InternalError("cannot create " + (root_ / "tmp").string() + ": " + error.message());
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<ArtifactWriter>> ArtifactStore::NewWriter(int64_t max_bytes) {
  // Temp files live inside the store so the final rename never crosses file systems.
  auto writer = std::make_unique<FileArtifactWriter>(root_ / "tmp" / ("upload-" + RandomSuffix()), root_,
                                                     max_bytes > 0 ? max_bytes : default_max_bytes_);
  if (auto status = writer->Open(); !status.ok()) return status;
  return std::unique_ptr<ArtifactWriter>(std::move(writer));
}

absl::StatusOr<StoredArtifact> ArtifactStore::Put(std::string_view bytes) {
  auto writer = NewWriter();
  if (!writer.ok()) return writer.status();
  if (auto status = (*writer)->Append(bytes); !status.ok()) return status;
  return (*writer)->Finish();
}

absl::StatusOr<fs::path> ArtifactStore::PathOf(const std::string& digest) const {
  if (!IsValidDigest(digest)) return absl::InvalidArgumentError("malformed artifact digest: " + digest);
  return root_ / digest.substr(0, 2) / digest.substr(2);
}

int ArtifactStore::RemoveUnreferenced(const std::set<std::string>& keep, fs::file_time_type older_than) {
  int removed = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root_, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code ignored;
    if (!it->is_regular_file(ignored)) continue;
    const fs::path& path = it->path();
    const bool temp = path.parent_path().filename() == "tmp";
    const std::string digest = path.parent_path().filename().string() + path.filename().string();
    if (!temp && (!IsValidDigest(digest) || keep.contains(digest))) continue;
    if (fs::last_write_time(path, ignored) >= older_than || ignored) continue;
    if (fs::remove(path, ignored)) ++removed;
  }
  return removed;
}

bool ArtifactStore::Contains(const std::string& digest) const {
  auto path = PathOf(digest);
  std::error_code ignored;
  return path.ok() && fs::is_regular_file(*path, ignored);
}

absl::StatusOr<std::unique_ptr<ArtifactReader>> ArtifactStore::Open(const std::string& digest) const {
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

absl::StatusOr<std::string> ArtifactStore::ReadAll(const std::string& digest, int64_t max_bytes) const {
  auto reader = Open(digest);
  if (!reader.ok()) return reader.status();
  if ((*reader)->size_bytes() > max_bytes) {
    return absl::ResourceExhaustedError("artifact " + digest + " is larger than " + std::to_string(max_bytes));
  }
  return (*reader)->Read(static_cast<size_t>((*reader)->size_bytes()));
}

}  // namespace hipforge::server
