#include "server/http/dashboard_api.h"

#include "common/report/report.h"
#include "common/report/report_json.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <google/protobuf/util/json_util.h>
#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "common/sha256.h"
#include "common/utf8.h"
#include "server/http/patch_hunks.h"
#include "server/http/query_params.h"
#include "server/proto_convert.h"

namespace hipforge::server::http {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kMaxPageSize = 500;

const char* StatusName(int status) {
  switch (status) {
    case 400: return "INVALID_ARGUMENT";
    case 401: return "UNAUTHENTICATED";
    case 403: return "PERMISSION_DENIED";
    case 404: return "NOT_FOUND";
    case 405: return "METHOD_NOT_ALLOWED";
    case 409: return "FAILED_PRECONDITION";
    case 503: return "UNAVAILABLE";
    default: return "INTERNAL";
  }
}

HttpResponse Json(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.body = std::move(body);
  return response;
}

HttpResponse Error(int status, absl::string_view message) {
  json body = {{"error", {{"code", status}, {"status", StatusName(status)}, {"message", message}}}};
  HttpResponse response = Json(status, body.dump(-1, ' ', false, json::error_handler_t::replace));
  if (status == 401) response.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"hipforge\"");
  if (status == 503) response.headers.emplace_back("Retry-After", "1");  // e.g. the database restarting
  return response;
}

int HttpStatusOf(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange: return 400;
    case absl::StatusCode::kUnauthenticated: return 401;
    case absl::StatusCode::kPermissionDenied: return 403;
    case absl::StatusCode::kNotFound: return 404;
    case absl::StatusCode::kFailedPrecondition: return 409;
    case absl::StatusCode::kUnavailable: return 503;
    default: return 500;
  }
}

HttpResponse Error(const absl::Status& status) {
  const int code = HttpStatusOf(status);
  if (code == 500) spdlog::error("[job=-] http: {}", status.ToString());
  return Error(code, code == 500 ? absl::string_view("internal error") : status.message());
}

std::string JoinJson(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) absl::StrAppend(&out, i ? "," : "", items[i]);
  return out + "]";
}

std::optional<JobState> ParseStateParam(std::string text) {
  if (absl::StartsWith(text, "JOB_STATE_")) text = text.substr(10);
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ParseJobState(text);
}

// An artifact's bytes, refused past `limit` (a dashboard answer is held in memory; migrate-cli fetch streams).
absl::StatusOr<std::string> ReadWhole(ArtifactReader& reader, size_t limit, absl::string_view what) {
  std::string bytes;
  for (;;) {
    absl::StatusOr<std::string> chunk = reader.Read(1 << 16);
    if (!chunk.ok()) return chunk.status();
    if (chunk->empty()) return bytes;
    bytes += *chunk;
    if (bytes.size() > limit) {
      return absl::FailedPreconditionError(absl::StrCat("the ", what, " is larger than the dashboard serves (",
                                                        limit >> 20, " MiB): use migrate-cli fetch"));
    }
  }
}

HttpResponse Attachment(std::string body, std::string content_type, const std::string& file_name) {
  HttpResponse response;
  response.body = std::move(body);
  response.content_type = std::move(content_type);
  response.headers = {{"Content-Disposition", absl::StrCat("attachment; filename=\"", file_name, "\"")},
                      {"Cache-Control", "private, no-cache"},
                      {"X-Content-Type-Options", "nosniff"}};
  return response;
}

std::string ContentType(const fs::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".md") return "text/markdown; charset=utf-8";
  return "application/octet-stream";
}

}  // namespace

DashboardApi::DashboardApi(DashboardReader& reader, JobService& jobs, const CallerAuthenticator& authenticator,
                           DashboardApiOptions options)
    : reader_(reader), jobs_(jobs), authenticator_(authenticator), options_(std::move(options)) {}

HttpResponse DashboardApi::Handle(const HttpRequest& request) {
  if (request.method != "GET" && request.method != "HEAD") {
    HttpResponse response = Error(405, "the dashboard API is read-only: use GET");
    response.headers.emplace_back("Allow", "GET, HEAD");
    return response;
  }
  if (request.path == "/healthz") return Json(200, R"({"status":"ok"})");
  if (!absl::StartsWith(request.path, "/api/")) return StaticFile(request);
  absl::StatusOr<Caller> caller = authenticator_.Authenticate(request.Header("authorization"));
  if (!caller.ok()) {
    // The credential store is down (database restarting): 503 with Retry-After, not a bad token.
    if (caller.status().code() == absl::StatusCode::kUnavailable) return Error(caller.status());
    return Error(401, caller.status().message().empty() ? "a bearer token is required" : caller.status().message());
  }
  if (!caller->Has(Scope::kRead)) return Error(403, "the token lacks the read scope");
  HttpResponse response = Api(request, *caller);
  response.headers.emplace_back("Vary", "Authorization");
  return response;
}

struct DashboardApi::ApiCall {
  const HttpRequest& request;
  const Caller& caller;
  std::vector<std::string> segments;  // of the path after /api/v1/
};

HttpResponse DashboardApi::Api(const HttpRequest& request, const Caller& caller) {
  struct Route {
    std::vector<absl::string_view> pattern;  // the path's segments after /api/v1/; "*" matches any one
    HttpResponse (DashboardApi::*handler)(const ApiCall&);
  };
  static const Route kRoutes[] = {
      {{"teams"}, &DashboardApi::Teams},        {{"teams", "*", "repositories"}, &DashboardApi::Repositories},
      {{"jobs"}, &DashboardApi::ListJobs},      {{"jobs", "*"}, &DashboardApi::Job},
      {{"jobs", "*", "*"}, &DashboardApi::Job}, {{"jobs", "*", "*", "*"}, &DashboardApi::Job},
      {{"compare"}, &DashboardApi::Compare},    {{"trends"}, &DashboardApi::Trends},
  };
  std::vector<std::string> parts = absl::StrSplit(request.path.substr(1), '/', absl::SkipEmpty());
  // parts[0] == "api"
  if (parts.size() < 3 || parts[1] != "v1") return Error(404, "no such API endpoint: " + request.path);
  ApiCall call{request, caller, std::vector<std::string>(parts.begin() + 2, parts.end())};
  for (const Route& route : kRoutes) {
    if (route.pattern.size() != call.segments.size()) continue;
    bool match = true;
    for (size_t i = 0; i < call.segments.size() && match; ++i) {
      match = route.pattern[i] == "*" || route.pattern[i] == call.segments[i];
    }
    if (match) return (this->*route.handler)(call);
  }
  return Error(404, "no such API endpoint: " + request.path);
}

HttpResponse DashboardApi::Teams(const ApiCall& call) {
  const HttpRequest& request = call.request;
  const std::string& team = call.caller.team;
  Params params(request, {});
  if (params.problem()) return Error(400, *params.problem());
  auto row = reader_.GetTeam(team);
  if (!row.ok()) return Error(row.status());
  return Json(200, absl::StrCat(R"({"teams":[)", *row, "]}"));
}

HttpResponse DashboardApi::Repositories(const ApiCall& call) {
  const HttpRequest& request = call.request;
  const std::string& team = call.caller.team;
  // Another team's name answers like an unknown one.
  if (call.segments[1] != team) return Error(404, "no team " + call.segments[1]);
  Params params(request, {"page_size", "page_token", "repository"});
  if (params.problem()) return Error(400, *params.problem());
  auto page_size = params.Int("page_size", 100, 1, kMaxPageSize);
  if (!page_size.ok()) return Error(page_size.status());
  absl::StatusOr<std::optional<std::string>> after = DecodeRepositoriesCursor(params);
  if (!after.ok()) return Error(after.status());
  auto page = reader_.ListRepositories(team, *after, *page_size, params.Text("repository"));
  if (!page.ok()) return Error(page.status());
  json next = page->next_after ? json(EncodeRepositoriesCursor(*page->next_after)) : json("");
  return Json(200, absl::StrCat(R"({"team":)", json(team).dump(), R"(,"repositories":)",
                                JoinJson(page->repositories_json), R"(,"next_page_token":)", next.dump(), "}"));
}

HttpResponse DashboardApi::ListJobs(const ApiCall& call) {
  const HttpRequest& request = call.request;
  const std::string& team = call.caller.team;
  Params params(request, {"repository", "branch", "state", "label", "created_after", "created_before", "page_size",
                          "page_token"});
  if (params.problem()) return Error(400, *params.problem());
  DashboardJobFilter filter;
  filter.repository = params.Text("repository");
  filter.branch = params.Text("branch");
  if (auto state = params.Text("state")) {
    auto parsed = ParseStateParam(*state);
    if (!parsed)
      return Error(400, "state must be a job state like succeeded or JOB_STATE_FAILED, got '" + *state + "'");
    filter.state = std::string(JobStateName(*parsed));
  }
  if (auto label = params.Text("label")) {
    const size_t eq = label->find('=');
    if (eq == std::string::npos || eq == 0) return Error(400, "label must be key=value, got '" + *label + "'");
    filter.label = {label->substr(0, eq), label->substr(eq + 1)};
  }
  auto after = params.Time("created_after");
  if (!after.ok()) return Error(after.status());
  auto before = params.Time("created_before");
  if (!before.ok()) return Error(before.status());
  filter.created_after_micros = *after;
  filter.created_before_micros = *before;
  auto page_size = params.Int("page_size", 50, 1, kMaxPageSize);
  if (!page_size.ok()) return Error(page_size.status());
  filter.page_size = *page_size;
  absl::StatusOr<std::optional<int64_t>> before_seq = DecodeJobsCursor(params);
  if (!before_seq.ok()) return Error(before_seq.status());
  filter.before_seq = *before_seq;
  auto page = reader_.ListJobs(team, filter);
  if (!page.ok()) return Error(page.status());
  json next = page->next_before_seq ? json(EncodeJobsCursor(*page->next_before_seq)) : json("");
  return Json(200, absl::StrCat(R"({"jobs":)", JoinJson(page->jobs_json), R"(,"next_page_token":)", next.dump(), "}"));
}

// jobs/<id>[/<resource>[/<part>]]: the id as the UI shows it (8 characters) or whole; from here on the whole id.
HttpResponse DashboardApi::Job(const ApiCall& call) {
  const std::vector<std::string>& segments = call.segments;
  std::string resource = segments.size() >= 3 ? segments[2] : "";
  if (segments.size() == 4) resource += "/" + segments[3];
  absl::StatusOr<std::string> job_id = jobs_.ResolveJobId(call.caller, segments[1]);
  if (!job_id.ok()) return Error(job_id.status());
  return JobResource(call.request, call.caller, *job_id, resource);
}

HttpResponse DashboardApi::Compare(const ApiCall& call) {
  const HttpRequest& request = call.request;
  const std::string& team = call.caller.team;
  Params params(request, {"base", "head"});
  if (params.problem()) return Error(400, *params.problem());
  auto base_id = params.Text("base");
  auto head_id = params.Text("head");
  if (!base_id || !head_id) return Error(400, "compare needs base and head job ids");
  for (std::optional<std::string>* id : {&base_id, &head_id}) {
    absl::StatusOr<std::string> resolved = jobs_.ResolveJobId(call.caller, **id);
    if (!resolved.ok()) return Error(resolved.status());
    *id = *std::move(resolved);
  }
  auto base = reader_.GetJobHead(team, *base_id);
  if (!base.ok()) return Error(base.status());
  auto head = reader_.GetJobHead(team, *head_id);
  if (!head.ok()) return Error(head.status());
  if (base->repository != head->repository) {
    return Error(400,
                 "base and head belong to different repositories (" + base->repository + ", " + head->repository + ")");
  }
  auto body = reader_.Compare(team, *base_id, *head_id);
  if (!body.ok()) return Error(body.status());
  return Json(200, *body);
}

HttpResponse DashboardApi::Trends(const ApiCall& call) {
  const HttpRequest& request = call.request;
  const std::string& team = call.caller.team;
  Params params(request, {"repository", "limit"});
  if (params.problem()) return Error(400, *params.problem());
  auto repository = params.Text("repository");
  if (!repository) return Error(400, "trends need a repository");
  auto limit = params.Int("limit", 30, 1, 500);
  if (!limit.ok()) return Error(limit.status());
  auto points = reader_.Trends(team, *repository, *limit);
  if (!points.ok()) return Error(points.status());
  return Json(200, absl::StrCat(R"({"repository":)", json(*repository).dump(), R"(,"points":)", *points, "}"));
}

struct DashboardApi::JobView {
  const HttpRequest& request;
  const Caller& caller;
  const std::string& job_id;    // whole
  const std::string& resource;  // "" (the job), "report", "findings/rules", "download/patch", ...
  const DashboardJobHead& head;
  std::string etag;  // a finished job's views carry it (and may be answered 304); empty while the job runs

  // `body` as the answer (wrapped as {"<wrap_key>": body} when given), cacheable by its ETag once the job is final.
  HttpResponse Respond(absl::StatusOr<std::string> body, absl::string_view wrap_key = {}) const {
    if (!body.ok()) return Error(body.status());
    HttpResponse response =
        Json(200, wrap_key.empty() ? *std::move(body) : absl::StrCat("{\"", wrap_key, "\":", *body, "}"));
    if (!etag.empty()) {
      response.headers = {{"ETag", etag}, {"Cache-Control", "private, no-cache"}};
    } else {
      response.headers = {{"Cache-Control", "no-store"}};
    }
    return response;
  }
  // A 400 answer when the request has query parameters (the route takes none).
  std::optional<HttpResponse> RefuseParams() const {
    Params params(request, {});
    if (params.problem()) return Error(400, *params.problem());
    return std::nullopt;
  }
};

namespace {

// A finished job's views change only when its report does, its repository's previous job (which new/fixed
// compare with) or its team's gate definition (which judges it): the ETag covers those and the request target.
std::string EtagOf(const HttpRequest& request, const DashboardJobHead& head) {
  const std::string inputs = absl::StrCat(request.target, "|", head.updated_micros, "|", head.report_micros, "|",
                                          head.previous_job_id.value_or(""), "|", head.team_gate_micros);
  return absl::StrCat("\"", Sha256Hex(inputs).substr(0, 32), "\"");
}

// If-None-Match names `etag` (or *): the client's copy is current.
bool ClientHasIt(const HttpRequest& request, const std::string& etag) {
  const std::string if_none_match = request.Header("if-none-match");
  for (absl::string_view candidate : absl::StrSplit(if_none_match, ',')) {
    candidate = absl::StripAsciiWhitespace(candidate);
    if (absl::StartsWith(candidate, "W/")) candidate.remove_prefix(2);
    if (candidate == etag || candidate == "*") return true;
  }
  return false;
}

}  // namespace

HttpResponse DashboardApi::JobResource(const HttpRequest& request, const Caller& caller, const std::string& job_id,
                                       const std::string& resource) {
  struct Route {
    absl::string_view resource;  // exact, or a prefix ending in '/'
    HttpResponse (DashboardApi::*handler)(const JobView&);
    bool conditional;  // answered 304 when the job is final and If-None-Match names its ETag
  };
  static constexpr Route kRoutes[] = {
      {"", &DashboardApi::JobSummary, true},
      {"report", &DashboardApi::Report, true},
      {"builds", &DashboardApi::Builds, true},
      {"tests", &DashboardApi::Tests, true},
      {"parity", &DashboardApi::Section, true},
      {"profile", &DashboardApi::Section, true},
      {"effort", &DashboardApi::Section, true},
      {"findings", &DashboardApi::Findings, true},
      {"findings/rules", &DashboardApi::Findings, true},
      {"patch", &DashboardApi::Patch, true},
      {"events", &DashboardApi::Events, false},
      {"download/", &DashboardApi::Download, false},
  };
  absl::StatusOr<DashboardJobHead> head = reader_.GetJobHead(caller.team, job_id);
  if (!head.ok()) return Error(head.status());
  const Route* route = nullptr;
  for (const Route& candidate : kRoutes) {
    const bool prefix = absl::EndsWith(candidate.resource, "/");
    if (resource == candidate.resource || (prefix && absl::StartsWith(resource, candidate.resource))) {
      route = &candidate;
    }
  }
  JobView view{request, caller, job_id, resource, *head, ""};
  if (route != nullptr && !route->conditional) return (this->*route->handler)(view);
  if (IsTerminal(head->state)) {
    view.etag = EtagOf(request, *head);
    if (ClientHasIt(request, view.etag)) {
      HttpResponse not_modified;
      not_modified.status = 304;
      not_modified.headers = {{"ETag", view.etag}, {"Cache-Control", "private, no-cache"}};
      return not_modified;
    }
  }
  if (route == nullptr) return Error(404, "no such job resource: " + resource);
  return (this->*route->handler)(view);
}

HttpResponse DashboardApi::JobSummary(const JobView& view) {
  if (auto bad = view.RefuseParams()) return *bad;
  return view.Respond(reader_.GetJob(view.caller.team, view.job_id));
}

HttpResponse DashboardApi::Report(const JobView& view) {
  if (auto bad = view.RefuseParams()) return *bad;
  absl::StatusOr<report::ReportDocument> report = StoredReport(view.caller.team, view.job_id);
  if (!report.ok()) return view.Respond(report.status());
  return view.Respond(
      report::DocumentJson(report->report, report->gate).dump(-1, ' ', false, json::error_handler_t::replace));
}

absl::StatusOr<report::ReportDocument> DashboardApi::StoredReport(const std::string& team,
                                                                  const std::string& job_id) const {
  absl::StatusOr<std::string> document = reader_.GetReport(team, job_id);
  if (!document.ok()) return document.status();
  absl::StatusOr<report::ReportDocument> report = report::ParseReportDocument(*document);
  if (!report.ok()) {
    return absl::DataLossError(absl::StrCat("the stored report cannot be read: ", report.status().message()));
  }
  return report;
}

HttpResponse DashboardApi::Builds(const JobView& view) {
  if (auto bad = view.RefuseParams()) return *bad;
  return view.Respond(reader_.Builds(view.caller.team, view.job_id), "builds");
}

HttpResponse DashboardApi::Tests(const JobView& view) {
  if (auto bad = view.RefuseParams()) return *bad;
  return view.Respond(reader_.Tests(view.caller.team, view.job_id), "tests");
}

HttpResponse DashboardApi::Section(const JobView& view) {
  if (auto bad = view.RefuseParams()) return *bad;
  const std::string& resource = view.resource;
  auto section = reader_.DocumentSection(view.caller.team, view.job_id, resource);
  if (section.ok() && *section == "null") *section = resource == "effort" ? "{}" : "[]";
  if (section.ok() && resource == "profile") {
    // Each kernel's HIP/CUDA time ratio, for the plot (null without a CUDA baseline).
    json profile = json::parse(*section, nullptr, false);
    // Read through the typed report (its one parser); per launch when the call counts differ (report::HipCudaRatio,
    // as the text report says it).
    absl::StatusOr<report::Report> typed = report::ReportFromJson(json{{"profile", profile}});
    if (profile.is_array() && typed.ok() && typed->profile && typed->profile->size() == profile.size()) {
      for (size_t i = 0; i < profile.size(); ++i) {
        const std::optional<double> ratio = report::HipCudaRatio((*typed->profile)[i]);
        profile[i]["ratio"] = ratio ? json(*ratio) : json(nullptr);
      }
      *section = profile.dump();
    }
  }
  return view.Respond(std::move(section), resource);
}

HttpResponse DashboardApi::Findings(const JobView& view) {
  const std::string& team = view.caller.team;
  const std::string& job_id = view.job_id;
  const bool rules = view.resource == "findings/rules";
  Params params(view.request, rules ? std::set<std::string>{"since"}
                                    : std::set<std::string>{"rule", "path", "severity", "auto_fixed", "inactive",
                                                            "change", "since", "page_size", "page_token"});
  if (params.problem()) return Error(400, *params.problem());
  // new/fixed/unchanged compare with `since` (a job of the same repository), by default the repository's
  // previous finished job.
  std::optional<std::string> since = view.head.previous_job_id;
  if (auto explicit_since = params.Text("since")) {
    absl::StatusOr<std::string> since_id = jobs_.ResolveJobId(view.caller, *explicit_since);
    if (!since_id.ok()) return Error(since_id.status());
    explicit_since = *std::move(since_id);
    auto other = reader_.GetJobHead(team, *explicit_since);
    if (!other.ok()) return Error(other.status());
    if (other->repository != view.head.repository) {
      return Error(400, "since names a job of another repository (" + other->repository + ")");
    }
    since = *explicit_since;
  }
  json compared_with = since ? json(*since) : json(nullptr);
  if (rules) {
    auto body = reader_.FindingRules(team, job_id, since);
    if (!body.ok()) return Error(body.status());
    return view.Respond(absl::StrCat(R"({"rules":)", *body, R"(,"compared_with":)", compared_with.dump(), "}"));
  }
  DashboardFindingQuery query;
  query.job_id = job_id;
  query.other_job_id = since;
  query.rule_id = params.Text("rule");
  query.path = params.Text("path");
  auto severity = params.OneOf("severity", {"error", "warning", "note"});
  if (!severity.ok()) return Error(severity.status());
  query.severity = *severity;
  auto auto_fixed = params.OneOf("auto_fixed", {"true", "false"});
  if (!auto_fixed.ok()) return Error(auto_fixed.status());
  if (*auto_fixed) query.auto_fixed = **auto_fixed == "true";
  auto inactive = params.OneOf("inactive", {"true", "false"});
  if (!inactive.ok()) return Error(inactive.status());
  if (*inactive) query.inactive = **inactive == "true";
  auto change = params.OneOf("change", {"all", "new", "fixed", "unchanged"});
  if (!change.ok()) return Error(change.status());
  const std::string mode = change->value_or("all");
  if (mode == "new") {
    query.presence = DashboardFindingQuery::Presence::kOnlyHere;
  } else if (mode == "unchanged") {
    query.presence = DashboardFindingQuery::Presence::kInBoth;
  } else if (mode == "fixed") {
    // Fixed: the earlier job's findings that this one no longer has.
    if (!since) return view.Respond(std::string(R"({"findings":[],"next_page_token":"","compared_with":null})"));
    query.job_id = *since;
    query.other_job_id = job_id;
    query.presence = DashboardFindingQuery::Presence::kOnlyHere;
  }
  auto page_size = params.Int("page_size", 100, 1, kMaxPageSize);
  if (!page_size.ok()) return Error(page_size.status());
  query.page_size = *page_size;
  absl::StatusOr<std::optional<FindingCursor>> cursor = DecodeFindingsCursor(params);
  if (!cursor.ok()) return Error(cursor.status());
  query.after = *cursor;
  auto page = reader_.ListFindings(team, query);
  if (!page.ok()) return Error(page.status());
  json next = page->next ? json(EncodeFindingsCursor(*page->next)) : json("");
  return view.Respond(absl::StrCat(R"({"findings":)", JoinJson(page->findings_json), R"(,"next_page_token":)",
                                   next.dump(), R"(,"compared_with":)", compared_with.dump(), "}"));
}

HttpResponse DashboardApi::Patch(const JobView& view) {
  Params params(view.request, {"path"});
  if (params.problem()) return Error(400, *params.problem());
  auto path = params.Text("path");
  if (!path) return Error(400, "patch needs a path (a file of the job's report)");
  auto download = jobs_.OpenArtifact(view.caller, view.job_id, "patch");
  if (!download.ok()) return Error(download.status());
  absl::StatusOr<std::string> patch = ReadWhole(*download->reader, 64 << 20, "patch");
  if (!patch.ok()) return Error(patch.status());
  json hunks = json::array();
  for (const PatchHunk& hunk : HunksOfFile(*patch, *path)) {
    hunks.push_back({{"header", hunk.header},
                     {"old_start", hunk.old_start},
                     {"old_lines", hunk.old_lines},
                     {"new_start", hunk.new_start},
                     {"new_lines", hunk.new_lines},
                     {"lines", hunk.lines}});
  }
  return view.Respond(json{{"path", *path}, {"hunks", hunks}}.dump(-1, ' ', false, json::error_handler_t::replace));
}

HttpResponse DashboardApi::Events(const JobView& view) {
  const HttpRequest& request = view.request;
  const Caller& caller = view.caller;
  const std::string& job_id = view.job_id;
  Params params(request, {"after"});
  if (params.problem()) return Error(400, *params.problem());
  int64_t after = 0;
  std::string after_text = request.Header("last-event-id");
  if (auto query = params.Text("after")) after_text = *query;
  if (!after_text.empty() && (!absl::SimpleAtoi(after_text, &after) || after < 0)) {
    return Error(400, "after / Last-Event-ID must be a non-negative event sequence, got '" + after_text + "'");
  }
  HttpResponse response;
  response.content_type = "text/event-stream";
  response.headers = {{"Cache-Control", "no-store"}, {"X-Accel-Buffering", "no"}};
  response.stream_key = caller.team;  // the server caps streams per team
  const auto keepalive = options_.keepalive_interval;
  response.stream = [this, caller, job_id, after, keepalive](EventSink& sink) {
    google::protobuf::util::JsonPrintOptions print;
    print.preserve_proto_field_names = true;
    auto last_write = std::chrono::steady_clock::now();
    sink.Send("retry: 2000\n\n");
    auto on_event = [&](const JobEvent& event) {
      std::string data;
      if (!google::protobuf::util::MessageToJsonString(ToProto(event), &data, print).ok()) data = "{}";
      last_write = std::chrono::steady_clock::now();
      return sink.Send(absl::StrCat("id: ", event.seq, "\nevent: ", event.kind, "\ndata: ", data, "\n\n"));
    };
    auto cancelled = [&] {
      if (sink.Done()) return true;
      if (std::chrono::steady_clock::now() - last_write > keepalive) {
        last_write = std::chrono::steady_clock::now();
        return !sink.Send(": keep-alive\n\n");
      }
      return false;
    };
    const absl::Status watched = jobs_.Watch(caller, job_id, after, on_event, cancelled);
    if (!sink.Done()) {
      // The job is final (or the watch failed): say so, so clients stop reconnecting.
      auto job = jobs_.GetJob(caller, job_id);
      json end = {{"ok", watched.ok()}};
      if (!watched.ok()) end["error"] = std::string(watched.message());
      if (job.ok()) end["state"] = v1::JobState_Name(ToProto(job->job.state));
      sink.Send(absl::StrCat("event: end\ndata: ", end.dump(), "\n\n"));
    }
  };
  return response;
}

HttpResponse DashboardApi::Download(const JobView& view) {
  const HttpRequest& request = view.request;
  const Caller& caller = view.caller;
  const std::string& job_id = view.job_id;
  const std::string what = view.resource.substr(std::string_view("download/").size());
  Params params(request, {});
  if (params.problem()) return Error(400, *params.problem());
  const std::string name = absl::StrCat("hipforge-", job_id.substr(0, 8));
  // Stored artifacts, as migrate-cli fetch writes them (the same JobService read, audited the same way).
  struct Stored {
    const char* role;
    const char* label;
  };
  const std::map<std::string, Stored> stored = {{"patch", {"patch", "patch"}},
                                                {"tree", {"translated_tree", "translated tree"}},
                                                {"build-log", {"build_log", "build log"}}};
  if (auto it = stored.find(what); it != stored.end()) {
    auto download = jobs_.OpenArtifact(caller, job_id, it->second.role);
    if (!download.ok()) {
      if (download.status().code() != absl::StatusCode::kNotFound) return Error(download.status());
      return Error(404, absl::StrCat("job ", job_id, " has no ", it->second.label,
                                     what == "build-log" ? " (no validate worker stored one)" : " (yet)"));
    }
    absl::StatusOr<std::string> bytes = ReadWhole(*download->reader, 256 << 20, it->second.label);
    if (!bytes.ok()) return Error(bytes.status());
    if (what == "patch") return Attachment(*std::move(bytes), "text/x-diff; charset=utf-8", name + ".patch");
    if (what == "build-log") return Attachment(*std::move(bytes), "text/plain; charset=utf-8", name + "-build.log");
    const bool zstd = download->ref.media_type == "application/x-tar+zstd";
    return Attachment(*std::move(bytes), zstd ? "application/zstd" : "application/gzip",
                      name + (zstd ? "-hip.tar.zst" : "-hip.tar.gz"));
  }
  if (what != "sarif" && what != "junit") {
    return Error(404, "no such download: " + what + " (patch, tree, sarif, junit, build-log)");
  }
  // The report as migrate-cli report reads it (the same stored document and gate), through its renderers.
  absl::StatusOr<report::ReportDocument> report = StoredReport(caller.team, job_id);
  if (!report.ok()) return Error(report.status());
  report::RenderOptions render = options_.render;
  if (render.help_uri_base.empty()) {
    const std::string host = request.Header("host");
    render.help_uri_base = absl::StrCat("http://", host.empty() ? "localhost" : host, "/rules/");
  }
  if (what == "sarif") {
    return Attachment(report::RenderReport(*report, report::ReportFormat::kSarif, render), "application/sarif+json",
                      name + ".sarif");
  }
  return Attachment(report::RenderReport(*report, report::ReportFormat::kJUnit, render),
                    "application/xml; charset=utf-8", name + "-junit.xml");
}

HttpResponse DashboardApi::StaticFile(const HttpRequest& request) {
  if (options_.web_root.empty()) return Error(404, "this server has no web UI (--web-root)");
  std::string relative = request.path == "/" ? "index.html" : request.path.substr(1);
  const fs::path path = fs::path(relative).lexically_normal();
  if (relative.find('\0') != std::string::npos || path.is_absolute() || path.empty() || *path.begin() == "..") {
    return Error(404, "no such file: " + request.path);
  }
  const fs::path file = options_.web_root / path;
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return Error(404, "no such file: " + request.path);
  std::ifstream in(file, std::ios::binary);
  std::ostringstream body;
  body << in.rdbuf();
  HttpResponse response;
  response.content_type = ContentType(file);
  response.body = body.str();
  // Bundles carry a content hash in their name; index.html must be revalidated to pick up new ones.
  response.headers = {{"Cache-Control", relative == "index.html" ? "no-cache" : "public, max-age=300"},
                      {"X-Content-Type-Options", "nosniff"}};
  return response;
}

}  // namespace hipforge::server::http
