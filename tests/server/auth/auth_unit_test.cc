// Credential values, scopes, redaction, listener rules and the server's TLS/insecure settings
// (no database, no network).
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/redact.h"
#include "server/auth/credential_store.h"
#include "server/auth/server_tls.h"
#include "server/auth/token_authenticator.h"
#include "server/auth/token_secret.h"
#include "server/server_config.h"

namespace hipforge::server {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(TokenSecretTest, GeneratedTokensParseAndHashOnlyTheSecret) {
  absl::StatusOr<GeneratedToken> team = GenerateToken(CredentialKind::kTeam);
  ASSERT_TRUE(team.ok());
  EXPECT_THAT(team->value, ::testing::MatchesRegex("hft_[0-9a-f]{12}_[0-9a-f]{48}"));
  EXPECT_EQ(team->value.substr(0, 16), team->id);
  absl::StatusOr<ParsedToken> parsed = ParseToken(team->value);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->kind, CredentialKind::kTeam);
  EXPECT_EQ(parsed->id, team->id);
  EXPECT_EQ(SecretSha256(parsed->secret), team->secret_sha256);
  EXPECT_THAT(team->secret_sha256, Not(HasSubstr(parsed->secret)));

  absl::StatusOr<GeneratedToken> worker = GenerateToken(CredentialKind::kWorker);
  ASSERT_TRUE(worker.ok());
  EXPECT_EQ(worker->value.substr(0, 4), "hfw_");
  EXPECT_NE(worker->value.substr(17), team->value.substr(17));  // random
  EXPECT_EQ(ParseToken(worker->value)->kind, CredentialKind::kWorker);
}

TEST(TokenSecretTest, MalformedValuesAreRefusedWithoutEchoingThem) {
  const std::vector<std::string> values = {"",
                                           "hft_",
                                           "hfx_0123456789ab_" + std::string(48, 'a'),
                                           "hft_0123456789AB_" + std::string(48, 'a'),
                                           "hft_0123456789ab-" + std::string(48, 'a'),
                                           "hft_0123456789ab_" + std::string(47, 'a'),
                                           "hft_0123456789ab_" + std::string(48, 'g')};
  for (const std::string& value : values) {
    absl::StatusOr<ParsedToken> parsed = ParseToken(value);
    EXPECT_FALSE(parsed.ok()) << value;
    if (value.size() > 8) EXPECT_THAT(std::string(parsed.status().message()), Not(HasSubstr(value)));
  }
  EXPECT_TRUE(DigestsEqual(std::string(64, 'a'), std::string(64, 'a')));
  EXPECT_FALSE(DigestsEqual(std::string(64, 'a'), std::string(63, 'a') + "b"));
  EXPECT_FALSE(DigestsEqual(std::string(64, 'a'), std::string(63, 'a')));
}

TEST(TokenSecretTest, BearerValue) {
  EXPECT_EQ(*BearerValue("Bearer abc"), "abc");
  EXPECT_EQ(*BearerValue("  bearer   abc  "), "abc");
  EXPECT_EQ(BearerValue("").status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(BearerValue("Basic abc").status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(BearerValue("Bearer").status().code(), absl::StatusCode::kUnauthenticated);
}

TEST(ScopesTest, ParseAndAdminImpliesAll) {
  absl::StatusOr<std::vector<Scope>> scopes = ParseScopes("submit, read,read");
  ASSERT_TRUE(scopes.ok());
  EXPECT_EQ(*scopes, (std::vector<Scope>{Scope::kSubmit, Scope::kRead}));
  EXPECT_THAT(std::string(ParseScopes("submit,write").status().message()), HasSubstr("unknown scope 'write'"));
  EXPECT_FALSE(ParseScopes("").ok());
  Caller reader{"qa", {Scope::kRead}, "hft_x"};
  EXPECT_TRUE(reader.Has(Scope::kRead));
  EXPECT_FALSE(reader.Has(Scope::kCancel));
  Caller admin{"qa", {Scope::kAdmin}, "hft_y"};
  EXPECT_TRUE(admin.Has(Scope::kSubmit) && admin.Has(Scope::kCancel) && admin.Has(Scope::kRead));
}

TEST(RedactTest, TokensKeepTheirIdAndLoseTheSecret) {
  const std::string token = "hft_0123456789ab_" + std::string(48, 'c');
  const std::string redacted = RedactSecrets("calling with " + token + " now");
  EXPECT_EQ(redacted, "calling with hft_0123456789ab_<redacted> now");
  EXPECT_EQ(RedactSecrets("Bearer hfw_0123456789ab_abc"), "Bearer hfw_0123456789ab_<redacted>");
  EXPECT_EQ(RedactSecrets("hft_0123456789ab"), "hft_0123456789ab");  // the visible id alone is no secret
}

TEST(RedactTest, DatabasePasswords) {
  EXPECT_EQ(RedactSecrets("postgresql://app:s3cr%21t@db.internal:5432/hipforge?sslmode=require"),
            "postgresql://app:<redacted>@db.internal:5432/hipforge?sslmode=require");
  EXPECT_EQ(RedactSecrets("host=db user=app password=hunter2 dbname=x"),
            "host=db user=app password=<redacted> dbname=x");
  EXPECT_EQ(RedactSecrets("host=db password='two words' dbname=x"), "host=db password=<redacted> dbname=x");
  EXPECT_EQ(RedactSecrets("postgresql://db/x?user=app&password=hunter2&sslmode=require"),
            "postgresql://db/x?user=app&password=<redacted>&sslmode=require");
  EXPECT_EQ(RedactSecrets(R"({"line":"PGPASSWORD=hunter2 psql"})"), R"({"line":"PGPASSWORD=<redacted> psql"})");
  EXPECT_EQ(RedactSecrets(R"({"url":"password=hunter2"})"), R"({"url":"password=<redacted>"})");
  // Nothing to hide: unchanged.
  for (const char* plain : {"postgresql://app@db/x", "https://example.com/a:b", "mypassword=1", "a: b @ c"}) {
    EXPECT_EQ(RedactSecrets(plain), plain);
  }
}

TEST(ListenerTest, LoopbackAddresses) {
  for (const char* address : {"127.0.0.1:50051", "127.1.2.3:0", "localhost:1", "[::1]:50051", "unix:/tmp/s"}) {
    EXPECT_TRUE(IsLoopbackListenAddress(address)) << address;
  }
  for (const char* address : {"0.0.0.0:50051", "[::]:50051", "10.0.0.5:1", "example.com:443"}) {
    EXPECT_FALSE(IsLoopbackListenAddress(address)) << address;
  }
}

absl::StatusOr<ServerConfig> Load(std::vector<std::string> args) {
  args.insert(args.begin(), "migrate-server");
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  return LoadServerConfig(static_cast<int>(argv.size()), argv.data());
}

TEST(ServerSecurityConfigTest, NonLoopbackWithoutTlsNeedsInsecure) {
  absl::StatusOr<ServerConfig> refused = Load({"--listen", "0.0.0.0:50051"});
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("--insecure"));
  absl::StatusOr<ServerConfig> accepted = Load({"--listen", "0.0.0.0:50051", "--insecure"});
  ASSERT_TRUE(accepted.ok()) << accepted.status();
  EXPECT_TRUE(accepted->insecure);
  EXPECT_TRUE(Load({"--listen", "0.0.0.0:50051", "--tls-cert", "c.pem", "--tls-key", "k.pem"}).ok());
  EXPECT_FALSE(Load({"--tls-cert", "c.pem"}).ok());
  EXPECT_FALSE(Load({"--tls-client-ca", "ca.pem"}).ok());
}

TEST(ServerSecurityConfigTest, DatabaseUrlFromFileAndNeverEchoed) {
  char path[] = "/tmp/hipforge-url-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  const std::string url = "postgresql://app:file-secret@db/x";
  ASSERT_EQ(::write(fd, (url + "\n").data(), url.size() + 1), static_cast<ssize_t>(url.size() + 1));
  ::close(fd);
  absl::StatusOr<ServerConfig> config = Load({"--database-url-file", path});
  ::unlink(path);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->database_url, url);
  absl::StatusOr<ServerConfig> bad = Load({"--database-url-file", "/nonexistent/url"});
  EXPECT_FALSE(bad.ok());
  // A bad value is named without its secret.
  absl::StatusOr<ServerConfig> bad_number = Load({"--max-attempts", "postgresql://u:pw-in-wrong-flag@h/d"});
  ASSERT_FALSE(bad_number.ok());
  EXPECT_THAT(std::string(bad_number.status().message()), Not(HasSubstr("pw-in-wrong-flag")));
}

TEST(ServerTlsTest, MissingOrNonPemFilesAreClearErrors) {
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> missing =
      MakeServerCredentials({"/nonexistent/cert.pem", "/nonexistent/key.pem", "", std::chrono::seconds(1)});
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("cannot read --tls-cert /nonexistent/cert.pem"));
  char path[] = "/tmp/hipforge-notpem-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_EQ(::write(fd, "hello", 5), 5);
  ::close(fd);
  absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> not_pem =
      MakeServerCredentials({path, path, "", std::chrono::seconds(1)});
  ::unlink(path);
  ASSERT_FALSE(not_pem.ok());
  EXPECT_THAT(std::string(not_pem.status().message()), HasSubstr("holds no PEM CERTIFICATE"));
}

}  // namespace
}  // namespace hipforge::server
