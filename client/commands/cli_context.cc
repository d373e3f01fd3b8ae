#include "client/commands/cli_context.h"

#include <google/protobuf/util/time_util.h>

#include "client/lib/progress_display.h"

namespace hipforge::client {

std::unique_ptr<MigrationClient> CliContext::Connect() {
  ClientOptions options;
  options.server = ResolveServerAddress(globals.server);
  options.rpc_timeout = std::chrono::milliseconds(static_cast<int64_t>(globals.timeout_seconds * 1000));
  absl::StatusOr<ChannelSecurity> security = ResolveChannelSecurity(globals.credentials);
  if (!security.ok()) throw ConnectionSetupError(security.status());
  uses_tls_ = security->UsesTls();
  options.security = *std::move(security);
  return MigrationClient::Connect(options, launcher_);
}

int CliContext::Fail(const absl::Status& status) {
  std::string message(status.message());
  if (status.code() == absl::StatusCode::kUnavailable) {
    const std::string servers = ResolveServerAddress(globals.server);
    message += (servers.find(',') == std::string::npos ? " (server " : " (servers ") + servers +
               "; set --server or MIGRATE_SERVER)";
    if (uses_tls_) {
      message +=
          "; with TLS this also means the handshake failed: --tls-ca must name the CA that signed the "
          "server's certificate and --tls-server-name a name in it";
    }
  }
  if (status.code() == absl::StatusCode::kUnauthenticated) {
    message += " (give a token with --token-file, MIGRATE_TOKEN or " + UserConfigPath().string() + ")";
  }
  io_.err << "migrate-cli: " << message << "\n";
  return ExitCodeForStatus(status);
}

int CliContext::Usage(const std::string& message) {
  io_.err << "migrate-cli: " << message << "\n";
  return kExitUsage;
}

int ExitCodeForJob(const hipforge::v1::Job& job) {
  switch (job.state()) {
    case hipforge::v1::JOB_STATE_SUCCEEDED: return kExitOk;
    case hipforge::v1::JOB_STATE_FAILED: return kExitJobFailed;
    case hipforge::v1::JOB_STATE_CANCELLED: return kExitJobCancelled;
    default: return kExitOk;
  }
}

std::string JobLine(const hipforge::v1::Job& job) {
  std::string line = job.id() + "  " + JobStateName(job.state()) + "  " + job.spec().name();
  if (!job.spec().team().empty()) line += "  team=" + job.spec().team();
  if (job.files_total() > 0) {
    line += "  files " + std::to_string(job.files_translated()) + "/" + std::to_string(job.files_total());
  }
  if (job.has_created_at()) line += "  " + google::protobuf::util::TimeUtil::ToString(job.created_at());
  return line;
}

absl::StatusOr<hipforge::v1::Job> FollowJob(CliContext& context, MigrationClient& client, const std::string& job_id,
                                            double timeout_seconds) {
  ProgressDisplay display(context.err(), context.interactive());
  const auto timeout = timeout_seconds > 0 ? std::chrono::milliseconds(static_cast<int64_t>(timeout_seconds * 1000))
                                           : std::chrono::milliseconds(std::chrono::hours(24 * 365));
  auto job = client.Watch(
      job_id,
      [&](const hipforge::v1::JobEvent& event) {
        if (!context.globals.quiet) display.Event(event);
        return true;
      },
      timeout);
  display.EndLine();
  return job;
}

}  // namespace hipforge::client
