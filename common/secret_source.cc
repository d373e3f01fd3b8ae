#include "common/secret_source.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace hipforge {

absl::StatusOr<std::string> ReadSecretFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot read secret file " + path.string());
  std::ostringstream content;
  content << in.rdbuf();
  std::string secret = content.str();
  while (!secret.empty() && std::isspace(static_cast<unsigned char>(secret.back()))) secret.pop_back();
  if (secret.empty()) return absl::InvalidArgumentError("secret file " + path.string() + " is empty");
  return secret;
}

absl::StatusOr<std::optional<std::string>> SecretFromEnvironment(const std::string& env_name) {
  if (const char* value = std::getenv(env_name.c_str()); value != nullptr && *value != '\0') {
    return std::optional<std::string>(value);
  }
  const std::string file_env = env_name + "_FILE";
  if (const char* file = std::getenv(file_env.c_str()); file != nullptr && *file != '\0') {
    absl::StatusOr<std::string> secret = ReadSecretFile(file);
    if (!secret.ok())
      return absl::Status(secret.status().code(), file_env + ": " + std::string(secret.status().message()));
    return std::optional<std::string>(*std::move(secret));
  }
  return std::optional<std::string>();
}

}  // namespace hipforge
