// migrate-worker: pulls tasks from migrate-server and runs the translate or validate role.
#include <csignal>
#include <thread>

#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>
#include <unistd.h>
#include <CLI/CLI.hpp>

#include "absl/strings/str_cat.h"
#include "common/grpc_channel.h"
#include "common/process.h"
#include "common/redacting_log.h"
#include "common/secret_source.h"
#include "worker/role_set.h"
#include "worker/translate/core/pch_cache.h"
#include "worker/worker.h"

namespace {

// Signals only flip this flag; the main thread turns it into a stop request.
volatile std::sig_atomic_t g_signal = 0;
void OnSignal(int signal) { g_signal = signal; }

std::string EnvOr(const char* name, std::string fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

// Every flag of migrate-worker, with its environment default.
struct WorkerFlags {
  std::string server = EnvOr("MIGRATE_SERVER", "localhost:50051");
  std::vector<std::string> role_names;
  std::string id;
  std::string scratch = EnvOr("MIGRATE_WORKER_SCRATCH", "");
  std::string hipcc = EnvOr("HIPCC", "hipcc");
  std::string default_hip_version = EnvOr("MIGRATE_WORKER_HIP_VERSION", "auto");
  std::string toolchain_dir = EnvOr("MIGRATE_TOOLCHAIN_DIR", "/var/cache/hipforge/toolchains");
  std::string host_toolchain = EnvOr("MIGRATE_HOST_TOOLCHAIN", "host");
  std::string pch_cache_size;
  std::string gpu_platform = EnvOr("MIGRATE_GPU_PLATFORM", "auto");
  std::string nvcc = EnvOr("MIGRATE_NVCC", "");
  bool no_cuda_reference = false;
  bool no_profile = false;
  int gpu_slots = 1;
  int build_jobs = 0;
  int translate_jobs = 0;
  int lease_wait_ms = 20000;
  bool keep_scratch = false;
  std::string log_level = EnvOr("MIGRATE_LOG_LEVEL", "info");
  std::string token_file;
  hipforge::ChannelSecurity security;
};

WorkerFlags DefaultFlags() {
  WorkerFlags flags;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  flags.id = EnvOr("MIGRATE_WORKER_ID", absl::StrCat(host, "-", getpid()));
  const hipforge::worker::RoleSetOptions from_environment = hipforge::worker::RoleSetOptionsFromEnvironment();
  flags.no_cuda_reference = !from_environment.cuda_reference;
  flags.no_profile = !from_environment.profile;
  flags.gpu_slots = from_environment.gpu_slots;
  flags.build_jobs = from_environment.build_jobs;
  flags.translate_jobs = from_environment.translate_jobs;
  flags.security.tls_ca_file = EnvOr("MIGRATE_TLS_CA", "");
  flags.security.tls_server_name = EnvOr("MIGRATE_TLS_SERVER_NAME", "");
  flags.security.tls_cert_file = EnvOr("MIGRATE_TLS_CERT", "");
  flags.security.tls_key_file = EnvOr("MIGRATE_TLS_KEY", "");
  return flags;
}

void AddRoleFlags(CLI::App& app, WorkerFlags& flags) {
  app.add_option("--role", flags.role_names, "translate and/or validate (repeatable)")->required();
  app.add_option("--hipcc", flags.hipcc, "hipcc for the validate role (env HIPCC)");
  app.add_option("--default-hip-version", flags.default_hip_version,
                 "translate role: HIP release for jobs that name none; auto = the newest toolchain's, else "
                 "--hipcc's (env MIGRATE_WORKER_HIP_VERSION)");
  app.add_option("--toolchain-dir", flags.toolchain_dir,
                 "toolchain root filesystems made by scripts/make-toolchain.sh; none: only --hipcc "
                 "(env MIGRATE_TOOLCHAIN_DIR)");
  app.add_option("--host-toolchain-name", flags.host_toolchain,
                 "name reports give the --hipcc toolchain, e.g. rocm-6.4 in an image built FROM it "
                 "(env MIGRATE_HOST_TOOLCHAIN)");
  app.add_option("--pch-cache-size", flags.pch_cache_size,
                 "translate role: size cap of the PCH cache, least recently used evicted past it (2G, 500M; 0: "
                 "unbounded; env HIPFORGE_PCH_CACHE_SIZE; default 2G)");
  app.add_option("--gpu-platform", flags.gpu_platform,
                 "validate role: amd (ROCm), nvidia (HIP's NVIDIA platform: nvcc + the HIP-on-CUDA headers, targets "
                 "sm_XX) or auto: nvidia when nvidia-smi lists GPUs and no AMD GPU is found (env MIGRATE_GPU_PLATFORM)")
      ->check(CLI::IsMember({"auto", "amd", "nvidia"}));
  app.add_option("--nvcc", flags.nvcc,
                 "nvidia platform: nvcc to build with (env MIGRATE_NVCC; default PATH, "
                 "then /usr/local/cuda/bin/nvcc)");
  app.add_flag("--no-cuda-reference", flags.no_cuda_reference,
               "nvidia platform: do not build and run the submitted CUDA tree beside the HIP build (the automatic "
               "CUDA reference of parity and profiles; env MIGRATE_NO_CUDA_REFERENCE=1)");
  app.add_flag("--no-profile", flags.no_profile,
               "validate role: no kernel profiles (ncu, rocprofv3); tests and parity run as before "
               "(env MIGRATE_NO_PROFILE=1)");
  app.add_option("--gpu-slots", flags.gpu_slots,
                 "validate role: how many jobs' tests may run on one GPU at once (default 1: a GPU is leased to one "
                 "job; more turns kernel profiles off; env MIGRATE_GPU_SLOTS)")
      ->check(CLI::Range(1, 64));
  app.add_option("--build-jobs", flags.build_jobs,
                 "validate role: parallel compile jobs per build (make/ninja -j; default 0: the CPUs this process may "
                 "use; env MIGRATE_BUILD_JOBS)")
      ->check(CLI::Range(0, 1024));
  app.add_option("--translate-jobs", flags.translate_jobs,
                 "translate role: parallel Clang parses per task (default 0: the CPUs this process may use; env "
                 "MIGRATE_TRANSLATE_JOBS)")
      ->check(CLI::Range(0, 1024));
}

void AddConnectionFlags(CLI::App& app, WorkerFlags& flags) {
  app.add_option("--server", flags.server,
                 "server address HOST:PORT; several servers of one installation: repeat it or give a comma list, the "
                 "worker moves to the next when one dies (env MIGRATE_SERVER)")
      ->multi_option_policy(CLI::MultiOptionPolicy::Join)
      ->delimiter(',');
  app.add_option("--id", flags.id, "worker id (env MIGRATE_WORKER_ID; default host-pid)");
  app.add_option("--scratch-dir", flags.scratch, "per-task temp dirs go below it (env MIGRATE_WORKER_SCRATCH)");
  app.add_option("--lease-wait-ms", flags.lease_wait_ms, "long-poll bound per LeaseTask");
  app.add_flag("--keep-scratch", flags.keep_scratch, "keep task dirs for debugging");
  app.add_option("--log-level", flags.log_level, "trace|debug|info|warn|error");
  app.add_option("--token-file", flags.token_file,
                 "file holding this pool's worker credential (env MIGRATE_WORKER_TOKEN or MIGRATE_WORKER_TOKEN_FILE)");
  app.add_option("--tls-ca", flags.security.tls_ca_file,
                 "connect with TLS; PEM CA bundle for the server (env MIGRATE_TLS_CA)");
  app.add_option("--tls-server-name", flags.security.tls_server_name,
                 "name the server certificate must carry (env MIGRATE_TLS_SERVER_NAME)");
  app.add_option("--tls-cert", flags.security.tls_cert_file, "client certificate for mTLS (env MIGRATE_TLS_CERT)");
  app.add_option("--tls-key", flags.security.tls_key_file, "client key for mTLS (env MIGRATE_TLS_KEY)");
}

// The credential never goes on the command line (visible in ps); the validate sandbox never sees it.
absl::StatusOr<std::string> WorkerToken(const std::string& token_file) {
  absl::StatusOr<std::optional<std::string>> token =
      token_file.empty() ? hipforge::SecretFromEnvironment("MIGRATE_WORKER_TOKEN")
                         : absl::StatusOr<std::optional<std::string>>(hipforge::ReadSecretFile(token_file));
  if (!token.ok()) return token.status();
  if (!token->has_value()) {
    return absl::InvalidArgumentError(
        "no worker credential: set MIGRATE_WORKER_TOKEN_FILE (or --token-file) to a file holding one "
        "('migrate-server token create --pool NAME --roles translate,validate')");
  }
  ::unsetenv("MIGRATE_WORKER_TOKEN");
  return **token;
}

absl::StatusOr<hipforge::worker::RoleSetOptions> RoleOptions(const WorkerFlags& flags) {
  hipforge::worker::RoleSetOptions options;
  options.hipcc = flags.hipcc;
  options.default_hip_version = flags.default_hip_version;
  options.toolchain_dir = flags.toolchain_dir == "none" ? "" : flags.toolchain_dir;
  options.host_toolchain_name = flags.host_toolchain;
  options.gpu_platform = flags.gpu_platform;
  options.nvcc = flags.nvcc;
  options.cuda_reference = !flags.no_cuda_reference;
  options.profile = !flags.no_profile;
  options.gpu_slots = flags.gpu_slots;
  options.build_jobs = flags.build_jobs;
  options.translate_jobs = flags.translate_jobs;
  // Checked here, not at the first task: a bad size would fail every translation the worker leases.
  std::optional<uint64_t> pch_cache_flag;
  if (!flags.pch_cache_size.empty()) {
    pch_cache_flag = hipforge::translate::ParseByteSize(flags.pch_cache_size);
    if (!pch_cache_flag) {
      return absl::InvalidArgumentError("--pch-cache-size: not a size: '" + flags.pch_cache_size +
                                        "' (2G, 500M, 0 = unbounded)");
    }
  }
  absl::StatusOr<uint64_t> pch_cache_cap = hipforge::translate::PchCacheCap(pch_cache_flag);
  if (!pch_cache_cap.ok()) return pch_cache_cap.status();
  options.pch_cache_bytes = *pch_cache_cap;
  return options;
}

absl::StatusOr<std::unique_ptr<hipforge::worker::RoleSet>> MakeRoles(const WorkerFlags& flags,
                                                                     hipforge::ProcessLauncher& launcher) {
  std::vector<hipforge::v1::TaskRole> roles;
  for (const std::string& name : flags.role_names) {
    absl::StatusOr<hipforge::v1::TaskRole> role = hipforge::worker::ParseRole(name);
    if (!role.ok()) return role.status();
    roles.push_back(*role);
  }
  absl::StatusOr<hipforge::worker::RoleSetOptions> options = RoleOptions(flags);
  if (!options.ok()) return options.status();
  return hipforge::worker::MakeRoleSet(roles, launcher, *options);
}

int Fail(const absl::Status& status) {
  std::fprintf(stderr, "migrate-worker: %s\n", std::string(status.message()).c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"migrate-worker: hipforge task worker (translate | validate)"};
  WorkerFlags flags = DefaultFlags();
  AddConnectionFlags(app, flags);
  AddRoleFlags(app, flags);
  CLI11_PARSE(app, argc, argv);
  hipforge::InstallRedactingDefaultLogger();
  absl::StatusOr<std::string> token = WorkerToken(flags.token_file);
  if (!token.ok()) return Fail(token.status());
  flags.security.token = *token;
  spdlog::set_level(spdlog::level::from_str(flags.log_level));

  hipforge::BoostProcessLauncher launcher;
  auto role_set = MakeRoles(flags, launcher);
  if (!role_set.ok()) return Fail(role_set.status());
  hipforge::worker::WorkerOptions options;
  options.worker_id = flags.id;
  options.capabilities = (*role_set)->capabilities();
  if (!flags.scratch.empty()) options.scratch_root = flags.scratch;
  options.lease_wait = std::chrono::milliseconds(flags.lease_wait_ms);
  options.keep_scratch = flags.keep_scratch;
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = hipforge::MakeChannel(flags.server, flags.security);
  if (!channel.ok()) return Fail(channel.status());
  hipforge::worker::Worker worker(*channel, (*role_set)->runners(), options);

  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  std::jthread loop([&worker](std::stop_token stop) { worker.Run(stop); });
  while (g_signal == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  spdlog::info("[worker={}] signal {}; finishing", flags.id, static_cast<int>(g_signal));
  loop.request_stop();
  return 0;
}
