// A Submit's request id (SubmitHeader.request_id, issue 27): a submission sent again with it -- after its answer was
// lost to its server's death, to the same server or another of the set -- is the job its first try made, in the
// caller's team only; a malformed id is refused before anything is stored.
#include <gmock/gmock.h>

#include "tests/server/rpc/rpc_test_support.h"

namespace hipforge::server::testing {
namespace {

using ::testing::HasSubstr;

class SubmitRequestIdTest : public ServerTest {
 protected:
  int JobCount(v1::MigrationService::Stub& api) {
    grpc::ClientContext context;
    v1::ListJobsRequest request;
    request.set_page_size(500);
    v1::ListJobsResponse response;
    EXPECT_TRUE(api.ListJobs(&context, request, &response).ok());
    return response.jobs_size();
  }
};

TEST_F(SubmitRequestIdTest, TheSameSubmissionSentAgainIsTheJobItsFirstTryMade) {
  const std::string archive = SmallCudaRepoArchive();
  const SubmitOutcome first = SubmitArchive(*api_, TestSpec("once"), archive, 64 << 10, "ci-42.build_7:try");
  ASSERT_TRUE(first.status.ok()) << first.status.error_message();
  const SubmitOutcome again = SubmitArchive(*api_, TestSpec("once"), archive, 64 << 10, "ci-42.build_7:try");
  ASSERT_TRUE(again.status.ok()) << again.status.error_message();
  EXPECT_EQ(again.job.id(), first.job.id());
  EXPECT_EQ(again.job.state(), v1::JOB_STATE_QUEUED);
  EXPECT_EQ(JobCount(*api_), 1);

  // Another id, or none, is another submission; another team's same id is its own.
  EXPECT_NE(SubmitArchive(*api_, TestSpec("twice"), archive, 64 << 10, "ci-43").job.id(), first.job.id());
  EXPECT_NE(SubmitArchive(*api_, TestSpec("plain"), archive).job.id(),
            SubmitArchive(*api_, TestSpec("plain"), archive).job.id());
  EXPECT_EQ(JobCount(*api_), 4);
  v1::MigrationService::Stub& ops = ApiFor("ops");
  const SubmitOutcome theirs = SubmitArchive(ops, TestSpec("once", "ops"), archive, 64 << 10, "ci-42.build_7:try");
  ASSERT_TRUE(theirs.status.ok()) << theirs.status.error_message();
  EXPECT_NE(theirs.job.id(), first.job.id());
}

TEST_F(SubmitRequestIdTest, AMalformedRequestIdIsRefusedAndStoresNothing) {
  const std::string archive = SmallCudaRepoArchive();
  for (const std::string& id : {std::string("has space"), std::string("semi;colon"), std::string(129, 'a'),
                                std::string("caf\xc3\xa9"), std::string("nul\0x", 5)}) {
    const SubmitOutcome outcome = SubmitArchive(*api_, TestSpec("bad-id"), archive, 64 << 10, id);
    EXPECT_EQ(outcome.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << id;
    EXPECT_THAT(outcome.status.error_message(), HasSubstr("submit request id")) << id;
  }
  EXPECT_EQ(JobCount(*api_), 0);
}

}  // namespace
}  // namespace hipforge::server::testing
