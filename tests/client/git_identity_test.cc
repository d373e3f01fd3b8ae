// migrate-cli submit's repository identity read from a real git checkout.
#include "client/lib/git_identity.h"

#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

namespace hipforge::client {
namespace {

namespace fs = std::filesystem;

TEST(GitIdentityTest, StripsCredentialsFromRemoteUrls) {
  EXPECT_EQ(StripUrlCredentials("https://user:s3cret@example.com/org/repo.git"), "https://example.com/org/repo.git");
  EXPECT_EQ(StripUrlCredentials("https://token@example.com/org/repo.git"), "https://example.com/org/repo.git");
  EXPECT_EQ(StripUrlCredentials("https://example.com/org/r@v.git"), "https://example.com/org/r@v.git");
  EXPECT_EQ(StripUrlCredentials("git@example.com:org/repo.git"), "git@example.com:org/repo.git");
}

TEST(GitIdentityTest, ReadsRepositoryBranchAndCommitFromACheckout) {
  if (FindProgram("git").empty()) GTEST_SKIP() << "git not installed";
  char pattern[] = "/tmp/hipforge-git-identity-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const fs::path root = fs::path(pattern) / "vector-app";
  fs::create_directories(root / "src");
  std::ofstream(root / "src" / "k.cu") << "__global__ void k() {}\n";
  BoostProcessLauncher launcher;
  auto git = [&](std::vector<std::string> args) {
    ProcessSpec spec;
    spec.argv = {"git", "-C", root.string(), "-c", "user.name=t", "-c", "user.email=t@example.com"};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    auto result = launcher.Run(spec);
    ASSERT_TRUE(result.ok() && result->exit_code == 0) << result->standard_error;
  };
  // Outside a checkout: nothing.
  SourceIdentity none = DetectGitIdentity(root, launcher);
  EXPECT_TRUE(none.repository.empty() && none.commit.empty());

  git({"init", "-q", "-b", "feature/x"});
  git({"add", "."});
  git({"commit", "-q", "-m", "first"});
  SourceIdentity local = DetectGitIdentity(root, launcher);
  EXPECT_EQ(local.repository, "vector-app");  // no remote: the checkout's name
  EXPECT_EQ(local.branch, "feature/x");
  EXPECT_EQ(local.commit.size(), 40u);

  git({"remote", "add", "origin", "https://ci:tok@example.com/org/vector-app.git"});
  SourceIdentity remote = DetectGitIdentity(root, launcher);
  EXPECT_EQ(remote.repository, "https://example.com/org/vector-app.git");
  // A project in a sub-directory of the checkout is its own history (two projects of one monorepo).
  SourceIdentity project = DetectGitIdentity(root / "src", launcher);
  EXPECT_EQ(project.repository, "https://example.com/org/vector-app.git//src");
  EXPECT_EQ(project.commit, remote.commit);
  fs::remove_all(pattern);
}

}  // namespace
}  // namespace hipforge::client
