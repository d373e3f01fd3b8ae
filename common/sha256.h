#pragma once
// Content hashing used by the artifact store and the translation cache.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace hipforge {

// Incremental SHA-256 for data that arrives in pieces (uploads, downloads): nothing is buffered.
class Sha256Hasher {
 public:
  Sha256Hasher();
  ~Sha256Hasher();
  Sha256Hasher(const Sha256Hasher&) = delete;
  Sha256Hasher& operator=(const Sha256Hasher&) = delete;
  void Update(std::string_view data);
  // Lower-case hex digest of everything passed to Update; call once.
  std::string HexDigest();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Lower-case hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

// Lower-case hex SHA-256 of a file's bytes, streamed.
absl::StatusOr<std::string> Sha256HexOfFile(const std::filesystem::path& path);

}  // namespace hipforge
