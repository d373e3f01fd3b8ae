#pragma once
// gRPC front end: each handler authenticates the call (GrpcAuthorizer, first line), converts the
// request to domain types, calls JobService or TaskService with the caller, and converts the answer
// back. No decisions are made here: scopes, tenancy and worker grants live in the services.
#include "hipforge/v1/migration_service.grpc.pb.h"
#include "hipforge/v1/worker_service.grpc.pb.h"
#include "server/auth/grpc_authorizer.h"
#include "server/job_service.h"
#include "server/task_service.h"

namespace hipforge::server {

class GrpcMigrationService final : public v1::MigrationService::Service {
 public:
  GrpcMigrationService(JobService& jobs, const GrpcAuthorizer& auth) : jobs_(jobs), auth_(auth) {}

  grpc::Status Submit(grpc::ServerContext* context, grpc::ServerReader<v1::SubmitRequest>* reader,
                      v1::Job* response) override;
  grpc::Status GetJob(grpc::ServerContext* context, const v1::GetJobRequest* request, v1::Job* response) override;
  grpc::Status WatchJob(grpc::ServerContext* context, const v1::WatchJobRequest* request,
                        grpc::ServerWriter<v1::JobEvent>* writer) override;
  grpc::Status ListJobs(grpc::ServerContext* context, const v1::ListJobsRequest* request,
                        v1::ListJobsResponse* response) override;
  grpc::Status GetReport(grpc::ServerContext* context, const v1::GetReportRequest* request,
                         v1::Report* response) override;
  grpc::Status FetchArtifact(grpc::ServerContext* context, const v1::FetchArtifactRequest* request,
                             grpc::ServerWriter<v1::ArtifactChunk>* writer) override;
  grpc::Status CancelJob(grpc::ServerContext* context, const v1::CancelJobRequest* request, v1::Job* response) override;

 private:
  JobService& jobs_;
  const GrpcAuthorizer& auth_;
};

class GrpcWorkerService final : public v1::WorkerService::Service {
 public:
  GrpcWorkerService(TaskService& tasks, const GrpcAuthorizer& auth) : tasks_(tasks), auth_(auth) {}

  grpc::Status RegisterWorker(grpc::ServerContext* context, const v1::RegisterWorkerRequest* request,
                              v1::RegisterWorkerResponse* response) override;
  grpc::Status LeaseTask(grpc::ServerContext* context, const v1::LeaseTaskRequest* request,
                         v1::LeaseTaskResponse* response) override;
  grpc::Status Heartbeat(grpc::ServerContext* context, const v1::HeartbeatRequest* request,
                         v1::HeartbeatResponse* response) override;
  grpc::Status DownloadInput(grpc::ServerContext* context, const v1::DownloadInputRequest* request,
                             grpc::ServerWriter<v1::ArtifactChunk>* writer) override;
  grpc::Status Complete(grpc::ServerContext* context, grpc::ServerReader<v1::CompleteRequest>* reader,
                        v1::CompleteResponse* response) override;
  grpc::Status FailTask(grpc::ServerContext* context, const v1::FailTaskRequest* request,
                        v1::FailTaskResponse* response) override;
  grpc::Status ReportProgress(grpc::ServerContext* context, const v1::ReportProgressRequest* request,
                              v1::ReportProgressResponse* response) override;

 private:
  TaskService& tasks_;
  const GrpcAuthorizer& auth_;
};

}  // namespace hipforge::server
