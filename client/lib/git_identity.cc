#include "client/lib/git_identity.h"

#include "absl/strings/ascii.h"

namespace hipforge::client {
namespace {

// stdout of `git -C path args...` trimmed, or empty when git fails or is missing.
std::string Git(const std::filesystem::path& path, std::vector<std::string> args, ProcessLauncher& launcher) {
  ProcessSpec spec;
  spec.argv = {"git", "-C", path.string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.timeout = std::chrono::seconds(20);
  spec.environment = {{"GIT_TERMINAL_PROMPT", "0"}, {"LC_ALL", "C"}};
  absl::StatusOr<ProcessResult> result = launcher.Run(spec);
  if (!result.ok() || result->exit_code != 0) return "";
  return std::string(absl::StripAsciiWhitespace(result->standard_output));
}

}  // namespace

std::string StripUrlCredentials(const std::string& url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;  // scp-like "git@host:org/repo.git" carries no secret
  const size_t host_start = scheme + 3;
  const size_t path_start = url.find('/', host_start);
  const size_t at = url.rfind('@', path_start == std::string::npos ? std::string::npos : path_start);
  if (at == std::string::npos || at < host_start) return url;
  return url.substr(0, host_start) + url.substr(at + 1);
}

SourceIdentity DetectGitIdentity(const std::filesystem::path& path, ProcessLauncher& launcher) {
  SourceIdentity identity;
  if (FindProgram("git").empty()) return identity;
  const std::string top = Git(path, {"rev-parse", "--show-toplevel"}, launcher);
  if (top.empty()) return identity;
  identity.repository = StripUrlCredentials(Git(path, {"config", "--get", "remote.origin.url"}, launcher));
  if (identity.repository.empty()) identity.repository = std::filesystem::path(top).filename().string();
  std::string prefix = Git(path, {"rev-parse", "--show-prefix"}, launcher);  // "samples/nbody/" or empty
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  if (!prefix.empty()) identity.repository += "//" + prefix;
  identity.branch = Git(path, {"symbolic-ref", "--quiet", "--short", "HEAD"}, launcher);
  identity.commit = Git(path, {"rev-parse", "--verify", "--quiet", "HEAD"}, launcher);
  return identity;
}

}  // namespace hipforge::client
