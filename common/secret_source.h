#pragma once
// Secrets (tokens, passwords) from flags, environment variables or mounted files
// (Kubernetes/container secrets): NAME_FILE names a file whose content is the secret.
#include <filesystem>
#include <optional>
#include <string>

#include "absl/status/statusor.h"

namespace hipforge {

// The file's content without trailing whitespace; an error names the file, never its content.
absl::StatusOr<std::string> ReadSecretFile(const std::filesystem::path& path);

// `env_name` when set and non-empty, else the content of the file `<env_name>_FILE` names,
// else nullopt.
absl::StatusOr<std::optional<std::string>> SecretFromEnvironment(const std::string& env_name);

}  // namespace hipforge
