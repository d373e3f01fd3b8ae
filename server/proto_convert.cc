#include "server/proto_convert.h"

#include "server/job_spec_checks.h"

#include <regex>

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/time_util.h>
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "common/redact.h"

namespace hipforge::server {
namespace {

using google::protobuf::util::TimeUtil;

google::protobuf::Timestamp ToTimestamp(TimePoint time) {
  return TimeUtil::NanosecondsToTimestamp(
      std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count());
}

std::string ToJson(const google::protobuf::Message& message) {
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  return json;
}

bool FromJson(const std::string& json, google::protobuf::Message* message) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = true;
  return google::protobuf::util::JsonStringToMessage(json, message, options).ok();
}

}  // namespace

grpc::Status ToGrpc(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  // Error messages cross the wire: no token or database password in them, whatever produced them.
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), RedactSecrets(std::string(status.message())));
}

v1::JobState ToProto(JobState state) {
  switch (state) {
    case JobState::kQueued: return v1::JOB_STATE_QUEUED;
    case JobState::kTranslating: return v1::JOB_STATE_TRANSLATING;
    case JobState::kTranslated: return v1::JOB_STATE_TRANSLATED;
    case JobState::kValidating: return v1::JOB_STATE_VALIDATING;
    case JobState::kSucceeded: return v1::JOB_STATE_SUCCEEDED;
    case JobState::kFailed: return v1::JOB_STATE_FAILED;
    case JobState::kCancelled: return v1::JOB_STATE_CANCELLED;
  }
  return v1::JOB_STATE_UNSPECIFIED;
}

std::optional<JobState> FromProto(v1::JobState state) {
  switch (state) {
    case v1::JOB_STATE_QUEUED: return JobState::kQueued;
    case v1::JOB_STATE_TRANSLATING: return JobState::kTranslating;
    case v1::JOB_STATE_TRANSLATED: return JobState::kTranslated;
    case v1::JOB_STATE_VALIDATING: return JobState::kValidating;
    case v1::JOB_STATE_SUCCEEDED: return JobState::kSucceeded;
    case v1::JOB_STATE_FAILED: return JobState::kFailed;
    case v1::JOB_STATE_CANCELLED: return JobState::kCancelled;
    default: return std::nullopt;
  }
}

TaskKind FromProto(v1::TaskRole role) {
  return role == v1::TASK_ROLE_VALIDATE ? TaskKind::kValidate : TaskKind::kTranslate;
}

v1::TaskRole ToProto(TaskKind kind) {
  return kind == TaskKind::kValidate ? v1::TASK_ROLE_VALIDATE : v1::TASK_ROLE_TRANSLATE;
}

absl::StatusOr<JobSpec> FromProto(const v1::JobSpec& spec) {
  static const std::regex kLabelKey("[A-Za-z0-9_.\\-/]{1,63}");
  JobSpec out;
  out.name = spec.name().empty() ? "job" : spec.name();
  if (out.name.size() > 200) return absl::InvalidArgumentError("job name is longer than 200 characters");
  out.team = spec.team();
  for (const auto& [key, value] : spec.labels()) {
    if (!std::regex_match(key, kLabelKey)) {
      return absl::InvalidArgumentError(absl::StrCat("label key '", key, "' is not [A-Za-z0-9_.-/]{1,63}"));
    }
    out.labels[key] = value;
  }
  for (const std::string& target : spec.targets()) {
    if (!IsTargetName(target)) {
      return absl::InvalidArgumentError(
          absl::StrCat("target '", target,
                       "' is not an AMD GPU architecture name like gfx90a or gfx942, nor an "
                       "NVIDIA one like sm_90 (HIP's NVIDIA platform)"));
    }
    out.targets.push_back(target);
  }
  if (spec.repository().size() > 1000 || spec.branch().size() > 250 || spec.commit().size() > 64) {
    return absl::InvalidArgumentError("repository (1000), branch (250) or commit (64) is too long");
  }
  static const std::regex kCommit("[0-9a-f]{0,64}");
  if (!std::regex_match(spec.commit(), kCommit)) {
    return absl::InvalidArgumentError(absl::StrCat("commit '", spec.commit(), "' is not a hex commit id"));
  }
  out.repository = spec.repository();
  out.branch = spec.branch();
  out.commit = spec.commit();
  out.options_json = ToJson(spec.options());
  if (out.options_json.empty()) out.options_json = "{}";
  out.validate = !spec.options().translate_only();
  return out;
}

v1::JobSpec ToProto(const JobSpec& spec) {
  v1::JobSpec out;
  out.set_name(spec.name);
  out.set_team(spec.team);
  for (const auto& [key, value] : spec.labels) (*out.mutable_labels())[key] = value;
  for (const auto& target : spec.targets) out.add_targets(target);
  out.set_repository(spec.repository);
  out.set_branch(spec.branch);
  out.set_commit(spec.commit);
  FromJson(spec.options_json, out.mutable_options());
  out.mutable_options()->set_translate_only(!spec.validate);
  return out;
}

void FillJob(const Job& job, v1::Job* out) {
  out->set_id(job.id);
  *out->mutable_spec() = ToProto(job.spec);
  out->set_state(ToProto(job.state));
  out->set_error(job.error_message);
  *out->mutable_created_at() = ToTimestamp(job.created_at);
  *out->mutable_updated_at() = ToTimestamp(job.updated_at);
  out->set_input_files(job.spec.input_files);
}

std::string ArtifactRole(v1::ArtifactKind kind) {
  switch (kind) {
    case v1::ARTIFACT_KIND_TRANSLATED_TREE: return "translated_tree";
    case v1::ARTIFACT_KIND_PATCH: return "patch";
    case v1::ARTIFACT_KIND_BUILD_LOG: return "build_log";
    default: return "";
  }
}

std::string MediaType(v1::ArtifactKind kind, v1::CompressionFormat format) {
  if (kind == v1::ARTIFACT_KIND_PATCH) return "text/x-diff";
  if (kind == v1::ARTIFACT_KIND_BUILD_LOG) return "text/plain";
  return format == v1::COMPRESSION_FORMAT_TAR_GZIP ? "application/x-tar+gzip" : "application/x-tar+zstd";
}

v1::CompressionFormat FormatOf(const std::string& media_type) {
  if (media_type == "application/x-tar+gzip") return v1::COMPRESSION_FORMAT_TAR_GZIP;
  if (media_type == "application/x-tar+zstd") return v1::COMPRESSION_FORMAT_TAR_ZSTD;
  return v1::COMPRESSION_FORMAT_UNSPECIFIED;
}

v1::JobEvent ToProto(const JobEvent& event) {
  v1::JobEvent out;
  out.set_sequence(event.seq);
  out.set_job_id(event.job_id);
  *out.mutable_time() = ToTimestamp(event.created_at);
  if (event.kind == "state") {
    nlohmann::json payload = nlohmann::json::parse(event.payload_json, nullptr, false);
    v1::StateChange* change = out.mutable_state_change();
    if (payload.is_object()) {
      if (auto state = ParseJobState(payload.value("state", "")); state) change->set_to(ToProto(*state));
      if (auto from = ParseJobState(payload.value("from", "")); from) change->set_from(ToProto(*from));
      change->set_reason(payload.value("error", payload.value("reason", "")));
    }
    return out;
  }
  if (event.kind == "file" && FromJson(event.payload_json, out.mutable_file_progress())) return out;
  if (event.kind == "step" && FromJson(event.payload_json, out.mutable_step())) return out;
  if (event.kind == "log" && FromJson(event.payload_json, out.mutable_log())) return out;
  out.mutable_log()->set_level("info");
  out.mutable_log()->set_message(absl::StrCat(event.kind, ": ", event.payload_json));
  return out;
}

absl::StatusOr<std::pair<std::string, std::string>> EventPayload(const v1::JobEvent& event) {
  switch (event.kind_case()) {
    case v1::JobEvent::kFileProgress: return std::make_pair(std::string("file"), ToJson(event.file_progress()));
    case v1::JobEvent::kStep: return std::make_pair(std::string("step"), ToJson(event.step()));
    case v1::JobEvent::kLog: return std::make_pair(std::string("log"), ToJson(event.log()));
    case v1::JobEvent::kStateChange:
      return absl::InvalidArgumentError("workers cannot report state changes; the server records them");
    default: return absl::InvalidArgumentError("empty progress event");
  }
}

v1::Lease ToProto(const Lease& lease) {
  v1::Lease out;
  out.set_job_id(lease.job_id);
  out.set_task_id(lease.task_id);
  out.set_worker_id(lease.worker_id);
  out.set_token(lease.token);
  return out;
}

Lease FromProto(const v1::Lease& lease) { return {lease.job_id(), lease.task_id(), lease.worker_id(), lease.token()}; }

absl::StatusOr<v1::Task> ToProto(const LeasedTask& task, const Job& job) {
  v1::Task out;
  *out.mutable_lease() = ToProto(task.lease);
  out.set_role(ToProto(task.kind));
  out.set_attempt(task.attempt);
  *out.mutable_spec() = ToProto(job.spec);
  return out;
}

}  // namespace hipforge::server
