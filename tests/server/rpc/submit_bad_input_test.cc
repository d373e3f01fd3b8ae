// Every class of bad upload gets the right gRPC status and a clear message, nothing lands outside
// the upload's scratch directory, and the server keeps serving.
#include <random>

#include <gmock/gmock.h>

#include "tests/server/rpc/rpc_test_support.h"

namespace hipforge::server::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class SubmitBadInputTest : public ServerTest {
 protected:
  void Configure(ServerConfig& config) override {
    config.limits.upload.max_compressed_bytes = 1 << 20;
    config.limits.upload.max_uncompressed_bytes = 256 << 20;
    config.limits.upload.max_files = 200;
  }

  // Submits, expects `code`, and checks the server is still fine and left nothing behind.
  grpc::Status ExpectRejected(const std::string& archive, grpc::StatusCode code) {
    SubmitOutcome outcome = SubmitArchive(*api_, TestSpec("bad"), archive);
    EXPECT_EQ(outcome.status.error_code(), code) << outcome.status.error_message();
    EXPECT_FALSE(outcome.status.error_message().empty());
    ExpectServerHealthyAndClean();
    return outcome.status;
  }

  void ExpectServerHealthyAndClean() {
    grpc::ClientContext context;
    v1::ListJobsRequest request;
    v1::ListJobsResponse response;
    ASSERT_TRUE(api_->ListJobs(&context, request, &response).ok()) << "server stopped answering";
    EXPECT_EQ(response.jobs_size(), 0) << "a rejected upload created a job";
    // Upload checks run in <data>/scratch/upload-*; each is removed, and nothing escapes it.
    std::error_code ec;
    for (fs::recursive_directory_iterator it(temp_dir_, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      EXPECT_EQ(name.find("evil"), std::string::npos) << "written outside the upload dir: " << it->path();
      EXPECT_EQ(name.rfind("upload-", 0), std::string::npos) << "upload dir left behind: " << it->path();
    }
  }
};

std::string RandomBytes(size_t size, unsigned seed) {
  std::mt19937 rng(seed);
  std::string data(size, '\0');
  for (char& c : data) c = static_cast<char>(rng());
  return data;
}

const char* kCuda = "__global__ void k() {}\n";

TEST_F(SubmitBadInputTest, CorruptArchiveIsInvalidArgument) {
  grpc::Status status = ExpectRejected(RandomBytes(4096, 1), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("repository archive rejected"));
}

TEST_F(SubmitBadInputTest, TruncatedArchiveIsInvalidArgument) {
  std::string archive = TarBuilder().File("src/a.cu", RandomBytes(20000, 2)).File("src/b.cu", kCuda).Build();
  ExpectRejected(archive.substr(0, archive.size() / 2), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(SubmitBadInputTest, DotDotEntryIsInvalidArgument) {
  grpc::Status status = ExpectRejected(TarBuilder().File("src/a.cu", kCuda).File("../evil.cu", kCuda).Build(),
                                       grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr(".."));
  ExpectRejected(TarBuilder().File("src/../../evil2.cu", kCuda).Build(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(SubmitBadInputTest, AbsolutePathIsInvalidArgument) {
  const fs::path target = temp_dir_ / "evil-absolute.cu";
  grpc::Status status = ExpectRejected(TarBuilder().File("src/a.cu", kCuda).File(target.string(), kCuda).Build(),
                                       grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("absolute"));
  EXPECT_FALSE(fs::exists(target));
}

TEST_F(SubmitBadInputTest, EscapingSymlinkIsInvalidArgument) {
  ExpectRejected(TarBuilder().File("src/a.cu", kCuda).Symlink("src/evil-link", "../../../etc").Build(),
                 grpc::StatusCode::INVALID_ARGUMENT);
  ExpectRejected(TarBuilder().File("src/a.cu", kCuda).Symlink("evil-abs", "/etc/passwd").Build(),
                 grpc::StatusCode::INVALID_ARGUMENT);
  // A link that points inside first, then a file written "through" it must not escape either.
  ExpectRejected(
      TarBuilder().File("src/a.cu", kCuda).Symlink("evil-dir", "..").File("evil-dir/evil-through.cu", kCuda).Build(),
      grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(SubmitBadInputTest, EscapingHardlinkIsInvalidArgument) {
  ExpectRejected(TarBuilder().File("src/a.cu", kCuda).Hardlink("src/evil-hard", "../../outside.cu").Build(),
                 grpc::StatusCode::INVALID_ARGUMENT);
  ExpectRejected(TarBuilder().File("src/a.cu", kCuda).Hardlink("src/evil-hard2", "/etc/passwd").Build(),
                 grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(SubmitBadInputTest, DeviceFilesAreInvalidArgument) {
  ExpectRejected(TarBuilder().File("src/a.cu", kCuda).CharDevice("dev/evil-null").Build(),
                 grpc::StatusCode::INVALID_ARGUMENT);
  ExpectRejected(TarBuilder().File("src/a.cu", kCuda).Fifo("evil-fifo").Build(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(SubmitBadInputTest, OverSizeLimitIsResourceExhausted) {
  // Incompressible, so the compressed stream itself is over the 1 MiB limit.
  std::string archive = TarBuilder().File("src/a.cu", kCuda).File("blob.bin", RandomBytes(2 << 20, 3)).Build();
  ASSERT_GT(archive.size(), 1u << 20);
  grpc::Status status = ExpectRejected(archive, grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(status.error_message(), HasSubstr("limit"));
}

TEST_F(SubmitBadInputTest, DeclaredSizeOverLimitIsRejectedUpFront) {
  grpc::ClientContext context;
  v1::Job job;
  auto writer = api_->Submit(&context, &job);
  v1::SubmitRequest request;
  *request.mutable_header()->mutable_spec() = TestSpec("declared");
  request.mutable_header()->set_total_bytes(10ll << 30);
  writer->Write(request);
  writer->WritesDone();
  EXPECT_EQ(writer->Finish().error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  ExpectServerHealthyAndClean();
}

TEST_F(SubmitBadInputTest, OverFileCountIsResourceExhausted) {
  TarBuilder builder;
  builder.File("src/a.cu", kCuda);
  for (int i = 0; i < 300; ++i) builder.File("many/f" + std::to_string(i) + ".txt", "x");
  ExpectRejected(builder.Build(), grpc::StatusCode::RESOURCE_EXHAUSTED);
}

TEST_F(SubmitBadInputTest, DecompressionBombIsResourceExhausted) {
  std::string archive = TarBuilder().File("src/a.cu", kCuda).File("zeros.bin", std::string(100 << 20, '\0')).Build();
  ASSERT_LT(archive.size(), 1u << 20) << "the bomb must fit the upload limit to test the ratio guard";
  ExpectRejected(archive, grpc::StatusCode::RESOURCE_EXHAUSTED);
}

TEST_F(SubmitBadInputTest, EmptyRepositoryIsInvalidArgument) {
  ExpectRejected(TarBuilder().Directory("src").Build(), grpc::StatusCode::INVALID_ARGUMENT);
  ExpectRejected("", grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(SubmitBadInputTest, RepositoryWithoutCudaIsInvalidArgument) {
  grpc::Status status = ExpectRejected(
      TarBuilder().File("README.md", "# hello\n").File("src/main.cpp", "int main() { return 0; }\n").Build(),
      grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("no CUDA"));
}

TEST_F(SubmitBadInputTest, MissingHeaderAndBadSpecAreInvalidArgument) {
  {
    grpc::ClientContext context;
    v1::Job job;
    auto writer = api_->Submit(&context, &job);
    v1::SubmitRequest request;
    request.set_chunk(SmallCudaRepoArchive());
    writer->Write(request);
    writer->WritesDone();
    grpc::Status status = writer->Finish();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(), HasSubstr("header"));
  }
  v1::JobSpec spec = TestSpec("bad-target");
  spec.add_targets("sm80");  // sm_80 is a target (HIP's NVIDIA platform); this is no name of either vendor
  SubmitOutcome outcome = SubmitArchive(*api_, spec, SmallCudaRepoArchive());
  EXPECT_EQ(outcome.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(outcome.status.error_message(), HasSubstr("sm80"));
  v1::JobSpec feature = TestSpec("bad-feature");
  feature.add_targets("sm_90:wave32");  // the one feature of an NVIDIA target is :wave64 (docs/wave64.md)
  outcome = SubmitArchive(*api_, feature, SmallCudaRepoArchive());
  EXPECT_EQ(outcome.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(outcome.status.error_message(), HasSubstr("sm_90:wave32"));
  ExpectServerHealthyAndClean();
}

TEST_F(SubmitBadInputTest, AWave64TargetIsAccepted) {
  v1::JobSpec spec = TestSpec("wave64");
  spec.add_targets("sm_90");
  spec.add_targets("sm_90:wave64");
  SubmitOutcome outcome = SubmitArchive(*api_, spec, SmallCudaRepoArchive(), 100);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error_message();
  EXPECT_EQ(outcome.job.state(), v1::JOB_STATE_QUEUED);
}

TEST_F(SubmitBadInputTest, GoodArchiveStillAcceptedAfterBadOnes) {
  ExpectRejected(RandomBytes(1000, 9), grpc::StatusCode::INVALID_ARGUMENT);
  SubmitOutcome outcome = SubmitArchive(*api_, TestSpec("good"), SmallCudaRepoArchive(), 100);
  ASSERT_TRUE(outcome.status.ok()) << outcome.status.error_message();
  EXPECT_EQ(outcome.job.state(), v1::JOB_STATE_QUEUED);
}

}  // namespace
}  // namespace hipforge::server::testing
