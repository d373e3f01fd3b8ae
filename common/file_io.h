#pragma once
// Reading and writing a whole file: the one pair of helpers every part shares (translator, analyzer, repository
// pass, build-command cache, translate worker, parity, migrate-hipify). tests/common/file_io_test.cc.
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace hipforge {

// The file's bytes, or nullopt when it cannot be opened.
inline std::optional<std::string> ReadFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The same with a status that names the file: NotFound "cannot read <path>".
inline absl::StatusOr<std::string> ReadFileOrStatus(const std::filesystem::path& path) {
  std::optional<std::string> bytes = ReadFileBytes(path);
  if (!bytes) return absl::NotFoundError("cannot read " + path.string());
  return std::move(*bytes);
}

// Writes `bytes` as the whole file (replacing it), creating its parent directories; Internal "cannot write <path>".
inline absl::Status WriteFileBytes(const std::filesystem::path& path, std::string_view bytes) {
  std::error_code ignored;  // a parent that cannot be made shows as the write's failure below
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ignored);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return absl::InternalError("cannot write " + path.string());
  return absl::OkStatus();
}

// A name beside `path` that no other process or thread writing it uses ("<path>.tmp<pid>-<thread>"), to write
// into and then rename over `path`.
inline std::filesystem::path TemporaryBeside(const std::filesystem::path& path) {
  return path.string() + ".tmp" + std::to_string(::getpid()) + "-" +
         std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
}

// The same, but readers never see a partial file: written beside it under a name of this process and thread,
// then renamed over it (files that other processes read while this one writes: shared caches, shims).
inline absl::Status WriteFileAtomically(const std::filesystem::path& path, std::string_view bytes) {
  const std::filesystem::path temporary = TemporaryBeside(path);
  if (absl::Status written = WriteFileBytes(temporary, bytes); !written.ok()) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return absl::InternalError("cannot write " + path.string());
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary, error);
    return absl::InternalError("cannot write " + path.string());
  }
  return absl::OkStatus();
}

}  // namespace hipforge
