// Benchmark (not a test): overhead of the service path submit -> translated for the bundled
// example repository. Runs the translation library directly on the same tree for the baseline,
// then the real binaries (migrate-server with an embedded PostgreSQL + one migrate-worker) and
// reports the wall time from the start of Submit to the job's SUCCEEDED state, and the difference.
//
//   bench_submit_to_translated [--runs N] [--repo DIR]
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <thread>

#include <grpcpp/grpcpp.h>
#include <CLI/CLI.hpp>

#include "common/archive.h"
#include "common/grpc_channel.h"
#include "common/process.h"
#include "hipforge/v1/migration_service.grpc.pb.h"
#include "tests/e2e/child_process.h"
#include "tests/support/token_cli.h"
#include "worker/translate/repo/repository_migration.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"submit -> translated overhead"};
  int runs = 5;
  std::string repo = std::string(HIPFORGE_EXAMPLES_DIR) + "/cuda-vector-stats";
  app.add_option("--runs", runs);
  app.add_option("--repo", repo);
  CLI11_PARSE(app, argc, argv);

  char pattern[] = "/tmp/hipforge-bench-e2e-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return 1;
  const fs::path temp = pattern;
  hipforge::BoostProcessLauncher launcher;

  // Baseline: the translation library alone, in-process.
  std::vector<double> direct;
  for (int i = 0; i < runs; ++i) {
    hipforge::translate::MigrationOptions options;
    options.translate.frontend.shim_directory = temp / "shim";
    options.translate.jobs = 1;
    options.analyze.jobs = 1;
    const fs::path out = temp / ("direct-" + std::to_string(i));
    const auto start = Clock::now();
    auto result = hipforge::translate::MigrateRepository(repo, out, options, nullptr);
    direct.push_back(Ms(Clock::now() - start));
    if (!result.ok()) {
      std::fprintf(stderr, "MigrateRepository failed: %s\n", result.status().ToString().c_str());
      return 1;
    }
  }

  hipforge::PackOptions pack;
  pack.honour_gitignore = false;
  auto archive = hipforge::PackDirectoryToString(repo, launcher, pack);
  if (!archive.ok()) return 1;

  const fs::path port_file = temp / "port";
  hipforge::testing::ChildProcess server({HIPFORGE_SERVER_BIN, "--listen", "127.0.0.1:0", "--http-listen",
                                          "127.0.0.1:0", "--data-dir", (temp / "data").string(), "--port-file",
                                          port_file.string(), "--embedded-durable", "false", "--log-level", "warn"},
                                         temp / "server.log");
  const int port = hipforge::testing::WaitForPortFile(port_file, std::chrono::seconds(120));
  if (port == 0) {
    std::fprintf(stderr, "server did not start:\n%s\n", server.Log().c_str());
    return 1;
  }
  const std::string address = "127.0.0.1:" + std::to_string(port);
  const std::vector<std::string> database_args = {"--data-dir", (temp / "data").string()};
  const auto team = hipforge::testing::CreateTeamToken(HIPFORGE_SERVER_BIN, database_args, "bench");
  const auto worker_credential =
      hipforge::testing::CreateWorkerCredential(HIPFORGE_SERVER_BIN, database_args, "bench", "translate");
  if (team.exit_code != 0 || worker_credential.exit_code != 0) {
    std::fprintf(stderr, "token create failed:\n%s%s\n", team.err.c_str(), worker_credential.err.c_str());
    return 1;
  }
  hipforge::testing::WriteSecretFile(temp / "worker.token", worker_credential.token);
  hipforge::testing::ChildProcess worker(
      {HIPFORGE_WORKER_BIN, "--server", address, "--role", "translate", "--id", "bench", "--log-level", "warn",
       "--token-file", (temp / "worker.token").string()},
      temp / "worker.log");
  hipforge::ChannelSecurity security;
  security.token = team.token;
  auto channel = hipforge::MakeChannel(address, security);
  if (!channel.ok()) return 1;
  auto api = hipforge::v1::MigrationService::NewStub(*channel);

  std::vector<double> service, submit_only;
  for (int i = 0; i < runs + 1; ++i) {  // the first run warms up the worker and is not counted
    const auto start = Clock::now();
    grpc::ClientContext context;
    hipforge::v1::Job job;
    auto writer = api->Submit(&context, &job);
    hipforge::v1::SubmitRequest request;
    request.mutable_header()->mutable_spec()->set_name("bench");
    request.mutable_header()->mutable_spec()->mutable_options()->set_translate_only(true);
    writer->Write(request);
    for (size_t offset = 0; offset < archive->size(); offset += 256 << 10) {
      request.Clear();
      request.set_chunk(archive->substr(offset, 256 << 10));
      writer->Write(request);
    }
    writer->WritesDone();
    grpc::Status status = writer->Finish();
    const auto submitted = Clock::now();
    if (!status.ok()) {
      std::fprintf(stderr, "submit failed: %s\n", status.error_message().c_str());
      return 1;
    }
    for (;;) {
      grpc::ClientContext get_context;
      hipforge::v1::GetJobRequest get;
      get.set_job_id(job.id());
      hipforge::v1::Job now;
      api->GetJob(&get_context, get, &now);
      if (now.state() == hipforge::v1::JOB_STATE_SUCCEEDED) break;
      if (now.state() == hipforge::v1::JOB_STATE_FAILED || now.state() == hipforge::v1::JOB_STATE_CANCELLED) {
        std::fprintf(stderr, "job failed: %s\n", now.error().c_str());
        return 1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (i == 0) continue;
    service.push_back(Ms(Clock::now() - start));
    submit_only.push_back(Ms(submitted - start));
  }
  worker.Signal(SIGTERM);
  worker.Wait(std::chrono::seconds(30));
  server.Signal(SIGTERM);
  server.Wait(std::chrono::seconds(60));
  fs::remove_all(temp);

  std::printf("repo: %s (%zu bytes packed), runs: %d\n", repo.c_str(), archive->size(), runs);
  std::printf("translation library alone (median): %.1f ms\n", Median(direct));
  std::printf("submit RPC incl. upload check (median): %.1f ms\n", Median(submit_only));
  std::printf("submit -> translated through server + worker (median): %.1f ms\n", Median(service));
  std::printf("service overhead (median difference): %.1f ms\n", Median(service) - Median(direct));
  return 0;
}
