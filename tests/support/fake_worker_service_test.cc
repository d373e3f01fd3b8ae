// The in-memory WorkerService (fake_worker_service.h) through a plain generated stub: it must keep the
// server's lease rules and send and record exactly what it was scripted to, or the worker's stage tests that
// run against it prove nothing.
#include "tests/support/fake_worker_service.h"

#include <thread>

#include <gtest/gtest.h>

#include "common/sha256.h"

namespace hipforge::testing {
namespace {

using namespace std::chrono_literals;

class FakeWorkerServiceTest : public ::testing::Test {
 protected:
  FakeWorkerServiceTest() : stub_(v1::WorkerService::NewStub(server_.channel())) {}
  FakeWorkerService& fake() { return server_.service(); }

  v1::Task Lease(int64_t wait_ms = 1000) {
    grpc::ClientContext context;
    v1::LeaseTaskRequest request;
    request.set_wait_ms(wait_ms);
    v1::LeaseTaskResponse response;
    EXPECT_TRUE(stub_->LeaseTask(&context, request, &response).ok());
    return response.task();
  }
  grpc::Status Heartbeat(const v1::Task& task, v1::HeartbeatResponse* response) {
    grpc::ClientContext context;
    v1::HeartbeatRequest request;
    *request.mutable_lease() = task.lease();
    return stub_->Heartbeat(&context, request, response);
  }
  bool Fail(const v1::Task& task, bool give_back = false) {
    grpc::ClientContext context;
    v1::FailTaskRequest request;
    *request.mutable_lease() = task.lease();
    request.set_give_back(give_back);
    request.set_error("boom");
    v1::FailTaskResponse response;
    EXPECT_TRUE(stub_->FailTask(&context, request, &response).ok());
    return response.accepted();
  }
  // The download as received: the info's hash, the joined data, the final status.
  struct Download {
    std::string sha256, data;
    int data_chunks = 0;
    grpc::Status status;
  };
  Download Fetch(const v1::Task& task, bool original = false) {
    grpc::ClientContext context;
    v1::DownloadInputRequest request;
    *request.mutable_lease() = task.lease();
    request.set_original(original);
    auto reader = stub_->DownloadInput(&context, request);
    Download download;
    v1::ArtifactChunk chunk;
    while (reader->Read(&chunk)) {
      if (chunk.has_info()) {
        download.sha256 = chunk.info().sha256();
      } else {
        download.data += chunk.data();
        ++download.data_chunks;
      }
    }
    download.status = reader->Finish();
    return download;
  }

  FakeWorkerServer server_;
  std::unique_ptr<v1::WorkerService::Stub> stub_;
};

TEST_F(FakeWorkerServiceTest, LeasesQueuedTasksInOrderEachWithAFreshTokenThenWaitsAndAnswersEmpty) {
  ScriptedTask validate;
  validate.role = v1::TASK_ROLE_VALIDATE;
  validate.managed_memory_found = true;
  const std::string first = fake().QueueTask(ScriptedTask{});
  const std::string second = fake().QueueTask(validate);
  const v1::Task a = Lease(), b = Lease();
  EXPECT_EQ(a.lease().task_id(), first);
  EXPECT_EQ(a.role(), v1::TASK_ROLE_TRANSLATE);
  EXPECT_EQ(a.attempt(), 1);
  EXPECT_EQ(a.lease_duration_ms(), 300);
  EXPECT_EQ(b.lease().task_id(), second);
  EXPECT_EQ(b.role(), v1::TASK_ROLE_VALIDATE);
  EXPECT_TRUE(b.managed_memory_found());
  EXPECT_FALSE(a.lease().token().empty());
  EXPECT_NE(a.lease().token(), b.lease().token());
  EXPECT_EQ(fake().LeaseOf(first), a.lease().token());

  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(Lease(/*wait_ms=*/150).lease().task_id().empty());
  EXPECT_GE(std::chrono::steady_clock::now() - start, 150ms) << "a long poll waits for its wait_ms";
  EXPECT_EQ(fake().leases(), 2);

  // A task queued while a poll waits is handed to that poll.
  std::thread late([&] {
    std::this_thread::sleep_for(100ms);
    fake().QueueTask(ScriptedTask{});
  });
  EXPECT_EQ(Lease(/*wait_ms=*/2000).lease().task_id(), "task-3");
  late.join();
}

TEST_F(FakeWorkerServiceTest, DownloadsSendTheScriptedArchiveInChunksWithItsHash) {
  ScriptedTask task;
  task.input.archive = std::string(1000, 'i');
  task.original.archive = "original bytes";
  fake().QueueTask(task);
  fake().SetDownloadChunkBytes(300);
  const v1::Task leased = Lease();
  Download input = Fetch(leased);
  EXPECT_TRUE(input.status.ok());
  EXPECT_EQ(input.data, task.input.archive);
  EXPECT_EQ(input.data_chunks, 4);
  EXPECT_EQ(input.sha256, Sha256Hex(task.input.archive));
  Download original = Fetch(leased, /*original=*/true);
  EXPECT_EQ(original.data, "original bytes");
  ASSERT_EQ(fake().downloads().size(), 2u);
  EXPECT_TRUE(fake().downloads()[1].original());

  ScriptedTask wrong;
  wrong.input.archive = "bytes";
  wrong.input.sha256 = "0000";
  wrong.input.status = grpc::Status(grpc::StatusCode::UNAVAILABLE, "store away");
  fake().QueueTask(wrong);
  Download scripted = Fetch(Lease());
  EXPECT_EQ(scripted.sha256, "0000");
  EXPECT_EQ(scripted.data, "bytes");
  EXPECT_EQ(scripted.status.error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(FakeWorkerServiceTest, CallsWithoutTheCurrentLeaseAreRefused) {
  fake().QueueTask(ScriptedTask{});
  v1::Task leased = Lease();
  v1::Task stale = leased;
  stale.mutable_lease()->set_token("lease-of-someone-else");
  v1::HeartbeatResponse heartbeat;
  EXPECT_EQ(Heartbeat(stale, &heartbeat).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Fetch(stale).status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_FALSE(Fail(stale));
  EXPECT_TRUE(Heartbeat(leased, &heartbeat).ok());
  EXPECT_TRUE(Fail(leased));
  EXPECT_TRUE(fake().LeaseOf(leased.lease().task_id()).empty()) << "FailTask ends the lease";
  EXPECT_FALSE(Fail(leased)) << "a second FailTask finds no lease";
  EXPECT_EQ(fake().failures().size(), 3u);
  EXPECT_EQ(fake().heartbeats().size(), 2u);
}

TEST_F(FakeWorkerServiceTest, HeartbeatsAnswerAsScriptedAndACancelOrLossEndsTheLease) {
  fake().QueueTask(ScriptedTask{});
  fake().QueueTask(ScriptedTask{});
  const v1::Task cancelled = Lease(), lost = Lease();
  v1::HeartbeatResponse response;
  ASSERT_TRUE(Heartbeat(cancelled, &response).ok());
  EXPECT_FALSE(response.cancel_requested());
  fake().SetHeartbeatAnswer(HeartbeatAnswer::kCancel);
  ASSERT_TRUE(Heartbeat(cancelled, &response).ok());
  EXPECT_TRUE(response.cancel_requested());
  EXPECT_TRUE(fake().LeaseOf(cancelled.lease().task_id()).empty());
  fake().SetHeartbeatAnswer(HeartbeatAnswer::kLeaseLost);
  EXPECT_EQ(Heartbeat(lost, &response).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_TRUE(fake().LeaseOf(lost.lease().task_id()).empty());
}

TEST_F(FakeWorkerServiceTest, CompleteRecordsHeaderAndArtifactsAndEndsTheLease) {
  fake().QueueTask(ScriptedTask{});
  const v1::Task leased = Lease();
  auto complete = [&](const std::string& token) {
    grpc::ClientContext context;
    v1::CompleteResponse response;
    auto writer = stub_->Complete(&context, &response);
    v1::CompleteRequest message;
    message.mutable_header()->mutable_lease()->set_task_id(leased.lease().task_id());
    message.mutable_header()->mutable_lease()->set_token(token);
    message.mutable_header()->mutable_result()->set_summary("done");
    writer->Write(message);
    message.Clear();
    message.mutable_artifact()->set_kind(v1::ARTIFACT_KIND_PATCH);
    writer->Write(message);
    for (const char* part : {"ab", "cd"}) {
      message.Clear();
      message.set_chunk(part);
      writer->Write(message);
    }
    writer->WritesDone();
    EXPECT_TRUE(writer->Finish().ok());
    return response.accepted();
  };
  EXPECT_FALSE(complete("wrong token"));
  EXPECT_TRUE(complete(leased.lease().token()));
  EXPECT_FALSE(complete(leased.lease().token())) << "a duplicate completion is ignored";
  const auto completions = fake().completions();
  ASSERT_EQ(completions.size(), 3u);
  EXPECT_TRUE(completions[1].accepted);
  EXPECT_EQ(completions[1].header.result().summary(), "done");
  ASSERT_EQ(completions[1].artifacts.size(), 1u);
  EXPECT_EQ(completions[1].artifacts[0].info.kind(), v1::ARTIFACT_KIND_PATCH);
  EXPECT_EQ(completions[1].artifacts[0].bytes, "abcd");
  EXPECT_EQ(completions[1].artifacts[0].chunks, 2);

  fake().QueueTask(ScriptedTask{});
  const v1::Task ignored = Lease();
  fake().SetCompleteAnswer(false);
  grpc::ClientContext context;
  v1::CompleteResponse response;
  auto writer = stub_->Complete(&context, &response);
  v1::CompleteRequest header;
  *header.mutable_header()->mutable_lease() = ignored.lease();
  writer->Write(header);
  writer->WritesDone();
  EXPECT_TRUE(writer->Finish().ok());
  EXPECT_FALSE(response.accepted()) << "scripted: completion ignored";
}

TEST_F(FakeWorkerServiceTest, AGiveBackMakesTheTaskLeasableAgainWithoutCountingTheAttempt) {
  const std::string id = fake().QueueTask(ScriptedTask{});
  const v1::Task first = Lease();
  EXPECT_TRUE(Fail(first, /*give_back=*/true));
  const v1::Task again = Lease();
  EXPECT_EQ(again.lease().task_id(), id);
  EXPECT_EQ(again.attempt(), 1);
  EXPECT_NE(again.lease().token(), first.lease().token());
}

}  // namespace
}  // namespace hipforge::testing
