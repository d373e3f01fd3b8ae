#pragma once
// Content hashing used by the artifact store and the translation cache.
#include <filesystem>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace hipforge {

// Lower-case hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

// Lower-case hex SHA-256 of a file's bytes, streamed.
absl::StatusOr<std::string> Sha256HexOfFile(const std::filesystem::path& path);

}  // namespace hipforge
