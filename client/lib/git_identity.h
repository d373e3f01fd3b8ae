#pragma once
// Where a submitted tree comes from: repository, branch and commit read from git when the directory is
// inside a git checkout. The dashboard groups a repository's jobs into a history by them.
#include <filesystem>
#include <string>

#include "common/process.h"

namespace hipforge::client {

struct SourceIdentity {
  // Remote "origin" URL without credentials, else the checkout's directory name; for a sub-directory of the
  // checkout, followed by "//" and its path ("https://host/org/mono.git//samples/nbody", go-getter's notation), so
  // two projects of one monorepo keep two histories.
  std::string repository;
  std::string branch;  // empty on a detached HEAD
  std::string commit;  // full commit id; empty before the first commit
};

// Empty fields when `path` is not in a git checkout or git is not installed (never an error: the
// identity is informative, and flags can set it).
SourceIdentity DetectGitIdentity(const std::filesystem::path& path, ProcessLauncher& launcher);

// "https://user:secret@host/x.git" -> "https://host/x.git": tokens in remote URLs never leave the machine.
std::string StripUrlCredentials(const std::string& url);

}  // namespace hipforge::client
