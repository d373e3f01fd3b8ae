#include "tests/server/rpc/rpc_test_support.h"

#include <archive.h>
#include <archive_entry.h>

#include <fstream>
#include <thread>

#include "common/grpc_channel.h"
#include "tests/server/store/postgres_test_env.h"

namespace hipforge::server::testing {

namespace fs = std::filesystem;

TarBuilder& TarBuilder::File(const std::string& path, const std::string& content, int mode) {
  entries_.push_back({Entry::kFile, path, content, mode});
  return *this;
}
TarBuilder& TarBuilder::Directory(const std::string& path) {
  entries_.push_back({Entry::kDirectory, path, "", 0755});
  return *this;
}
TarBuilder& TarBuilder::Symlink(const std::string& path, const std::string& target) {
  entries_.push_back({Entry::kSymlink, path, target, 0777});
  return *this;
}
TarBuilder& TarBuilder::Hardlink(const std::string& path, const std::string& target) {
  entries_.push_back({Entry::kHardlink, path, target, 0644});
  return *this;
}
TarBuilder& TarBuilder::CharDevice(const std::string& path) {
  entries_.push_back({Entry::kCharDevice, path, "", 0666});
  return *this;
}
TarBuilder& TarBuilder::Fifo(const std::string& path) {
  entries_.push_back({Entry::kFifo, path, "", 0644});
  return *this;
}

std::string TarBuilder::Build(Compression compression) const {
  std::string out;
  archive* writer = archive_write_new();
  archive_write_set_format_pax_restricted(writer);
  if (compression == Compression::kGzip) archive_write_add_filter_gzip(writer);
  if (compression == Compression::kZstd) archive_write_add_filter_zstd(writer);
  archive_write_set_bytes_in_last_block(writer, 1);
  archive_write_open(
      writer, &out, nullptr,
      [](archive*, void* client, const void* buffer, size_t length) -> la_ssize_t {
        static_cast<std::string*>(client)->append(static_cast<const char*>(buffer), length);
        return static_cast<la_ssize_t>(length);
      },
      nullptr);
  for (const Entry& e : entries_) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.path.c_str());
    archive_entry_set_perm(entry, e.mode);
    switch (e.kind) {
      case Entry::kFile:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_size(entry, static_cast<la_int64_t>(e.data.size()));
        break;
      case Entry::kDirectory: archive_entry_set_filetype(entry, AE_IFDIR); break;
      case Entry::kSymlink:
        archive_entry_set_filetype(entry, AE_IFLNK);
        archive_entry_set_symlink(entry, e.data.c_str());
        break;
      case Entry::kHardlink:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_hardlink(entry, e.data.c_str());
        archive_entry_set_size(entry, 0);
        break;
      case Entry::kCharDevice:
        archive_entry_set_filetype(entry, AE_IFCHR);
        archive_entry_set_rdevmajor(entry, 1);
        archive_entry_set_rdevminor(entry, 3);
        break;
      case Entry::kFifo: archive_entry_set_filetype(entry, AE_IFIFO); break;
    }
    archive_write_header(writer, entry);
    if (e.kind == Entry::kFile && !e.data.empty()) archive_write_data(writer, e.data.data(), e.data.size());
    archive_entry_free(entry);
  }
  archive_write_close(writer);
  archive_write_free(writer);
  return out;
}

namespace {

const char* kKernel = R"(#include <cuda_runtime.h>
#include <cstdio>
#include "scale.cuh"

__global__ void scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

int main() {
  const int n = 1024;
  float* device = nullptr;
  cudaMalloc(&device, n * sizeof(float));
  cudaMemset(device, 0, n * sizeof(float));
  scale<<<(n + 255) / 256, 256>>>(device, kFactor, n);
  cudaDeviceSynchronize();
  cudaFree(device);
  std::printf("ok\n");
  return 0;
}
)";
const char* kHeader = "#pragma once\nconstexpr float kFactor = 2.0f;\n";
const char* kCMake =
    "cmake_minimum_required(VERSION 3.18)\nproject(scale LANGUAGES CXX CUDA)\nadd_executable(scale src/scale.cu)\n";

}  // namespace

std::string SmallCudaRepoArchive() {
  // Built once: the archive carries timestamps, so two builds a second apart differ byte for byte.
  static const std::string archive = TarBuilder()
                                         .Directory("src")
                                         .File("src/scale.cu", kKernel)
                                         .File("src/scale.cuh", kHeader)
                                         .File("CMakeLists.txt", kCMake)
                                         .Build();
  return archive;
}

void WriteSmallCudaRepo(const fs::path& root) {
  fs::create_directories(root / "src");
  std::ofstream(root / "src/scale.cu") << kKernel;
  std::ofstream(root / "src/scale.cuh") << kHeader;
  std::ofstream(root / "CMakeLists.txt") << kCMake;
}

v1::JobSpec TestSpec(const std::string& name, const std::string& team, bool translate_only) {
  v1::JobSpec spec;
  spec.set_name(name);
  spec.set_team(team);
  (*spec.mutable_labels())["suite"] = "rpc";
  spec.add_targets("gfx90a");
  spec.mutable_options()->set_translate_only(translate_only);
  return spec;
}

SubmitOutcome SubmitArchive(v1::MigrationService::Stub& stub, const v1::JobSpec& spec, const std::string& archive,
                            size_t chunk_bytes, const std::string& request_id) {
  SubmitOutcome outcome;
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  auto writer = stub.Submit(&context, &outcome.job);
  v1::SubmitRequest request;
  *request.mutable_header()->mutable_spec() = spec;
  request.mutable_header()->set_request_id(request_id);
  bool ok = writer->Write(request);
  for (size_t offset = 0; ok && offset < archive.size(); offset += chunk_bytes) {
    request.Clear();
    request.set_chunk(archive.substr(offset, chunk_bytes));
    ok = writer->Write(request);
  }
  writer->WritesDone();
  outcome.status = writer->Finish();
  return outcome;
}

grpc::Status FetchAll(v1::MigrationService::Stub& stub, const std::string& job_id, v1::ArtifactKind kind,
                      std::string* data, v1::ArtifactInfo* info) {
  grpc::ClientContext context;
  v1::FetchArtifactRequest request;
  request.set_job_id(job_id);
  request.set_kind(kind);
  auto reader = stub.FetchArtifact(&context, request);
  v1::ArtifactChunk chunk;
  data->clear();
  while (reader->Read(&chunk)) {
    if (chunk.has_info())
      *info = chunk.info();
    else
      data->append(chunk.data());
  }
  return reader->Finish();
}

bool IsFinal(v1::JobState state) {
  return state == v1::JOB_STATE_SUCCEEDED || state == v1::JOB_STATE_FAILED || state == v1::JOB_STATE_CANCELLED;
}

void ServerTest::SetUp() {
  char pattern[] = "/tmp/hipforge-rpc-test-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  temp_dir_ = pattern;
  const std::string& url = TestDatabaseUrl();
  if (url.empty()) GTEST_SKIP() << "no PostgreSQL: set HIPFORGE_TEST_DATABASE_URL or install PostgreSQL 15";
  config_.listen = "127.0.0.1:0";
  config_.data_dir = temp_dir_ / "data";
  config_.database_url = url;
  config_.database_schema = FreshSchemaName();
  config_.local_workers = 0;
  config_.limits.lease_duration = std::chrono::seconds(5);
  config_.limits.max_lease_wait = std::chrono::seconds(5);
  config_.rescue_interval = std::chrono::milliseconds(100);
  config_.limits.upload.max_compressed_bytes = 8 << 20;
  config_.limits.upload.max_uncompressed_bytes = 64 << 20;
  config_.limits.upload.max_files = 1000;
  Configure(config_);
  auto app = ServerApp::Start(config_, launcher_, clock_, Authenticator());
  ASSERT_TRUE(app.ok()) << app.status();
  app_ = *std::move(app);
  ConnectStubs();
}

std::string ServerTest::MintTeamToken(const std::string& team, std::vector<Scope> scopes,
                                      std::optional<std::chrono::seconds> lifetime) {
  absl::StatusOr<NewCredential> made = MakeTeamToken(team, std::move(scopes), lifetime, clock_);
  EXPECT_TRUE(made.ok()) << made.status();
  if (!made.ok()) return "";
  absl::Status stored = app_->credentials().Insert(made->record);
  EXPECT_TRUE(stored.ok()) << stored;
  return made->token.value;
}

std::string ServerTest::MintWorkerCredential(const std::string& pool, std::vector<std::string> roles,
                                             std::vector<std::string> toolchains) {
  absl::StatusOr<NewCredential> made =
      MakeWorkerCredential(pool, std::move(roles), std::move(toolchains), std::nullopt, clock_);
  EXPECT_TRUE(made.ok()) << made.status();
  if (!made.ok()) return "";
  absl::Status stored = app_->credentials().Insert(made->record);
  EXPECT_TRUE(stored.ok()) << stored;
  return made->token.value;
}

namespace {
std::shared_ptr<grpc::Channel> ChannelWithToken(const std::string& address, const std::string& token) {
  ChannelSecurity security;
  security.token = token;
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel = MakeChannel(address, security);
  EXPECT_TRUE(channel.ok()) << channel.status();
  return channel.ok() ? *channel : nullptr;
}
}  // namespace

std::unique_ptr<v1::MigrationService::Stub> ServerTest::ApiWithToken(const std::string& token) {
  return v1::MigrationService::NewStub(ChannelWithToken(app_->address(), token));
}

std::unique_ptr<v1::WorkerService::Stub> ServerTest::WorkersWithToken(const std::string& token) {
  return v1::WorkerService::NewStub(ChannelWithToken(app_->address(), token));
}

v1::MigrationService::Stub& ServerTest::ApiFor(const std::string& team) {
  auto& stub = team_stubs_[team];
  if (!stub) {
    if (team_tokens_.count(team) == 0) team_tokens_[team] = MintTeamToken(team);
    stub = ApiWithToken(team_tokens_[team]);
  }
  return *stub;
}

void ServerTest::ConnectStubs() {
  team_stubs_.clear();  // the port changes on a restart; tokens stay valid (same database)
  if (worker_token_.empty()) worker_token_ = MintWorkerCredential();
  if (team_tokens_.count("qa") == 0) team_tokens_["qa"] = MintTeamToken("qa");
  api_ = ApiWithToken(team_tokens_["qa"]);
  channel_ = ChannelWithToken(app_->address(), worker_token_);
  workers_ = v1::WorkerService::NewStub(channel_);
}

void ServerTest::RestartServer() {
  app_->Shutdown();
  app_.reset();
  auto app = ServerApp::Start(config_, launcher_, clock_, Authenticator());
  ASSERT_TRUE(app.ok()) << app.status();
  app_ = *std::move(app);
  ConnectStubs();
}

void ServerTest::TearDown() {
  if (app_) app_->Shutdown();
  app_.reset();
  std::error_code ignored;
  if (!temp_dir_.empty()) fs::remove_all(temp_dir_, ignored);
}

v1::Job ServerTest::WaitForJob(const std::string& job_id, const std::function<bool(const v1::Job&)>& done,
                               std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  v1::Job job;
  while (std::chrono::steady_clock::now() < deadline) {
    grpc::ClientContext context;
    v1::GetJobRequest request;
    request.set_job_id(job_id);
    if (api_->GetJob(&context, request, &job).ok() && done(job)) return job;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return job;
}

}  // namespace hipforge::server::testing
