#pragma once
// Reading a whole file: the one helper the translator, the analyzer and the build-command cache share.
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace hipforge {

// The file's bytes, or nullopt when it cannot be opened.
inline std::optional<std::string> ReadFileBytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace hipforge
