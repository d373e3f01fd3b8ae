#pragma once
// The dashboard's HTTP/JSON read API under /api/v1/ (docs/dashboard.md) and the web UI's static files.
// Handlers only translate between HTTP and the domain: the caller's team comes from the bearer token
// (CallerAuthenticator) and is passed to every DashboardReader query; job events come from JobService's
// Watch, the same stream as gRPC WatchJob.
#include <filesystem>
#include <optional>
#include <string>

#include "common/report/report_render.h"
#include "server/auth/caller.h"
#include "server/http/http_server.h"
#include "server/job_service.h"
#include "server/store/dashboard_reader.h"

namespace hipforge::server::http {

struct DashboardApiOptions {
  std::filesystem::path web_root;               // built web UI (index.html, assets); empty: API only
  std::chrono::seconds keepalive_interval{15};  // SSE comment lines while a job is quiet
  // SARIF/JUnit downloads render as `migrate-cli report` does: the same rule catalog and tool version. An empty
  // help_uri_base points SARIF's helpUri at this dashboard's own rule pages (http://<Host>/rules/).
  report::RenderOptions render;
};

class DashboardApi final : public HttpHandler {
 public:
  DashboardApi(DashboardReader& reader, JobService& jobs, const CallerAuthenticator& authenticator,
               DashboardApiOptions options);
  HttpResponse Handle(const HttpRequest& request) override;

 private:
  // One request for a job's resource (/api/v1/jobs/<id>/<resource>), as JobResource's route table hands it on.
  struct JobView;
  // One request under /api/v1/, as Api's route table hands it on.
  struct ApiCall;
  HttpResponse Api(const HttpRequest& request, const Caller& caller);
  // The routes of Api's table.
  HttpResponse Teams(const ApiCall& call);
  HttpResponse Repositories(const ApiCall& call);  // teams/<team>/repositories
  HttpResponse ListJobs(const ApiCall& call);
  HttpResponse Job(const ApiCall& call);  // jobs/<id>[/<resource>[/<part>]]
  HttpResponse Compare(const ApiCall& call);
  HttpResponse Trends(const ApiCall& call);
  HttpResponse JobResource(const HttpRequest& request, const Caller& caller, const std::string& job_id,
                           const std::string& resource);
  // The routes of JobResource's table.
  HttpResponse JobSummary(const JobView& view);
  HttpResponse Report(const JobView& view);
  HttpResponse Builds(const JobView& view);
  HttpResponse Tests(const JobView& view);
  HttpResponse Section(const JobView& view);   // parity, profile, effort
  HttpResponse Findings(const JobView& view);  // findings, findings/rules
  HttpResponse Patch(const JobView& view);
  HttpResponse Events(const JobView& view);
  // download/patch|tree|sarif|junit|build-log: files as migrate-cli fetch/report writes them.
  HttpResponse Download(const JobView& view);
  HttpResponse StaticFile(const HttpRequest& request);
  // The stored report and gate read through the typed report (DataLoss when it cannot be read): the JSON the
  // dashboard serves and the SARIF/JUnit downloads come from it, as migrate-cli's outputs do.
  absl::StatusOr<report::ReportDocument> StoredReport(const std::string& team, const std::string& job_id) const;

  DashboardReader& reader_;
  JobService& jobs_;
  const CallerAuthenticator& authenticator_;
  DashboardApiOptions options_;
};

}  // namespace hipforge::server::http
