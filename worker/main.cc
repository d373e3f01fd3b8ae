// migrate-worker: pulls tasks from migrate-server and runs the translate or validate role.
#include <csignal>
#include <thread>

#include <CLI/CLI.hpp>
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"migrate-worker: hipforge task worker (translate | validate)"};
  std::string server = EnvOr("MIGRATE_SERVER", "localhost:50051");
  std::vector<std::string> role_names;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::string id = EnvOr("MIGRATE_WORKER_ID", absl::StrCat(host, "-", getpid()));
  std::string scratch = EnvOr("MIGRATE_WORKER_SCRATCH", "");
  std::string hipcc = EnvOr("HIPCC", "hipcc");
  std::string default_hip_version = EnvOr("MIGRATE_WORKER_HIP_VERSION", "auto");
  std::string toolchain_dir = EnvOr("MIGRATE_TOOLCHAIN_DIR", "/var/cache/hipforge/toolchains");
  std::string host_toolchain = EnvOr("MIGRATE_HOST_TOOLCHAIN", "host");
  std::string pch_cache_size;
  int lease_wait_ms = 20000;
  bool keep_scratch = false;
  std::string log_level = EnvOr("MIGRATE_LOG_LEVEL", "info");
  app.add_option("--server", server, "server address HOST:PORT (env MIGRATE_SERVER)");
  app.add_option("--role", role_names, "translate and/or validate (repeatable)")->required();
  app.add_option("--id", id, "worker id (env MIGRATE_WORKER_ID; default host-pid)");
  app.add_option("--scratch-dir", scratch, "per-task temp dirs go below it (env MIGRATE_WORKER_SCRATCH)");
  app.add_option("--hipcc", hipcc, "hipcc for the validate role (env HIPCC)");
  app.add_option("--default-hip-version", default_hip_version,
                 "translate role: HIP release for jobs that name none; auto = the newest toolchain's, else "
                 "--hipcc's (env MIGRATE_WORKER_HIP_VERSION)");
  app.add_option("--toolchain-dir", toolchain_dir,
                 "toolchain root filesystems made by scripts/make-toolchain.sh; none: only --hipcc "
                 "(env MIGRATE_TOOLCHAIN_DIR)");
  app.add_option("--host-toolchain-name", host_toolchain,
                 "name reports give the --hipcc toolchain, e.g. rocm-6.4 in an image built FROM it "
                 "(env MIGRATE_HOST_TOOLCHAIN)");
  app.add_option("--pch-cache-size", pch_cache_size,
                 "translate role: size cap of the PCH cache, least recently used evicted past it (2G, 500M; 0: "
                 "unbounded; env HIPFORGE_PCH_CACHE_SIZE; default 2G)");
  std::string gpu_platform = EnvOr("MIGRATE_GPU_PLATFORM", "auto");
  std::string nvcc = EnvOr("MIGRATE_NVCC", "");
  app.add_option("--gpu-platform", gpu_platform,
                 "validate role: amd (ROCm), nvidia (HIP's NVIDIA platform: nvcc + the HIP-on-CUDA headers, targets "
                 "sm_XX) or auto: nvidia when nvidia-smi lists GPUs and no AMD GPU is found (env MIGRATE_GPU_PLATFORM)")
      ->check(CLI::IsMember({"auto", "amd", "nvidia"}));
  app.add_option("--nvcc", nvcc, "nvidia platform: nvcc to build with (env MIGRATE_NVCC; default PATH, "
                                 "then /usr/local/cuda/bin/nvcc)");
  const hipforge::worker::RoleSetOptions from_environment = hipforge::worker::RoleSetOptionsFromEnvironment();
  bool no_cuda_reference = !from_environment.cuda_reference;
  app.add_flag("--no-cuda-reference", no_cuda_reference,
               "nvidia platform: do not build and run the submitted CUDA tree beside the HIP build (the automatic "
               "CUDA reference of parity and profiles; env MIGRATE_NO_CUDA_REFERENCE=1)");
  bool no_profile = !from_environment.profile;
  app.add_flag("--no-profile", no_profile,
               "validate role: no kernel profiles (ncu, rocprofv3); tests and parity run as before "
               "(env MIGRATE_NO_PROFILE=1)");
  int gpu_slots = from_environment.gpu_slots;
  app.add_option("--gpu-slots", gpu_slots,
                 "validate role: how many jobs' tests may run on one GPU at once (default 1: a GPU is leased to one "
                 "job; more turns kernel profiles off; env MIGRATE_GPU_SLOTS)")
      ->check(CLI::Range(1, 64));
  app.add_option("--lease-wait-ms", lease_wait_ms, "long-poll bound per LeaseTask");
  app.add_flag("--keep-scratch", keep_scratch, "keep task dirs for debugging");
  app.add_option("--log-level", log_level, "trace|debug|info|warn|error");
  std::string token_file;
  hipforge::ChannelSecurity security;
  security.tls_ca_file = EnvOr("MIGRATE_TLS_CA", "");
  security.tls_server_name = EnvOr("MIGRATE_TLS_SERVER_NAME", "");
  security.tls_cert_file = EnvOr("MIGRATE_TLS_CERT", "");
  security.tls_key_file = EnvOr("MIGRATE_TLS_KEY", "");
  app.add_option("--token-file", token_file,
                 "file holding this pool's worker credential (env MIGRATE_WORKER_TOKEN or MIGRATE_WORKER_TOKEN_FILE)");
  app.add_option("--tls-ca", security.tls_ca_file, "connect with TLS; PEM CA bundle for the server (env MIGRATE_TLS_CA)");
  app.add_option("--tls-server-name", security.tls_server_name,
                 "name the server certificate must carry (env MIGRATE_TLS_SERVER_NAME)");
  app.add_option("--tls-cert", security.tls_cert_file, "client certificate for mTLS (env MIGRATE_TLS_CERT)");
  app.add_option("--tls-key", security.tls_key_file, "client key for mTLS (env MIGRATE_TLS_KEY)");
  CLI11_PARSE(app, argc, argv);
  hipforge::InstallRedactingDefaultLogger();
  // The credential never goes on the command line (visible in ps); the validate sandbox never sees it.
  absl::StatusOr<std::optional<std::string>> token =
      token_file.empty() ? hipforge::SecretFromEnvironment("MIGRATE_WORKER_TOKEN")
                         : absl::StatusOr<std::optional<std::string>>(hipforge::ReadSecretFile(token_file));
  if (!token.ok()) {
    std::fprintf(stderr, "migrate-worker: %s\n", std::string(token.status().message()).c_str());
    return 2;
  }
  if (!token->has_value()) {
    std::fprintf(stderr,
                 "migrate-worker: no worker credential: set MIGRATE_WORKER_TOKEN_FILE (or --token-file) to a file "
                 "holding one ('migrate-server token create --pool NAME --roles translate,validate')\n");
    return 2;
  }
  security.token = **token;
  ::unsetenv("MIGRATE_WORKER_TOKEN");
  spdlog::set_level(spdlog::level::from_str(log_level));

  std::vector<hipforge::v1::TaskRole> roles;
  for (const std::string& name : role_names) {
    absl::StatusOr<hipforge::v1::TaskRole> role = hipforge::worker::ParseRole(name);
    if (!role.ok()) {
      spdlog::error("{}", role.status().ToString());
      return 2;
    }
    roles.push_back(*role);
  }
  hipforge::BoostProcessLauncher launcher;
  hipforge::worker::RoleSetOptions role_options;
  role_options.hipcc = hipcc;
  role_options.default_hip_version = default_hip_version;
  role_options.toolchain_dir = toolchain_dir == "none" ? "" : toolchain_dir;
  role_options.host_toolchain_name = host_toolchain;
  role_options.gpu_platform = gpu_platform;
  role_options.nvcc = nvcc;
  role_options.cuda_reference = !no_cuda_reference;
  role_options.profile = !no_profile;
  role_options.gpu_slots = gpu_slots;
  // Checked here, not at the first task: a bad size would fail every translation the worker leases.
  std::optional<uint64_t> pch_cache_flag;
  if (!pch_cache_size.empty()) {
    pch_cache_flag = hipforge::translate::ParseByteSize(pch_cache_size);
    if (!pch_cache_flag) {
      std::fprintf(stderr, "migrate-worker: --pch-cache-size: not a size: '%s' (2G, 500M, 0 = unbounded)\n",
                   pch_cache_size.c_str());
      return 2;
    }
  }
  absl::StatusOr<uint64_t> pch_cache_cap = hipforge::translate::PchCacheCap(pch_cache_flag);
  if (!pch_cache_cap.ok()) {
    std::fprintf(stderr, "migrate-worker: %s\n", std::string(pch_cache_cap.status().message()).c_str());
    return 2;
  }
  role_options.pch_cache_bytes = *pch_cache_cap;
  auto role_set = hipforge::worker::MakeRoleSet(roles, launcher, role_options);
  if (!role_set.ok()) {
    spdlog::error("{}", role_set.status().ToString());
    return 2;
  }

  hipforge::worker::WorkerOptions options;
  options.worker_id = id;
  options.capabilities = (*role_set)->capabilities();
  if (!scratch.empty()) options.scratch_root = scratch;
  options.lease_wait = std::chrono::milliseconds(lease_wait_ms);
  options.keep_scratch = keep_scratch;
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = hipforge::MakeChannel(server, security);
  if (!channel.ok()) {
    std::fprintf(stderr, "migrate-worker: %s\n", std::string(channel.status().message()).c_str());
    return 2;
  }
  hipforge::worker::Worker worker(*channel, (*role_set)->runners(), options);

  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  std::jthread loop([&worker](std::stop_token stop) { worker.Run(stop); });
  while (g_signal == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  spdlog::info("[worker={}] signal {}; finishing", id, static_cast<int>(g_signal));
  loop.request_stop();
  return 0;
}
