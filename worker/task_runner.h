#pragma once
// What a worker role does with one leased task, independent of gRPC: the worker loop (worker.h)
// downloads and extracts the input, hands it to the role's TaskRunner, and uploads the output.
#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/report/report.h"
#include "hipforge/v1/job.pb.h"

namespace hipforge::worker {

// Progress a runner reports while it works; forwarded to the job's event stream. Thread-safe.
class ProgressReporter {
 public:
  virtual ~ProgressReporter() = default;
  virtual void FileDone(std::string_view path, int done, int total, std::string_view status) = 0;
  virtual void Step(std::string_view kind, std::string_view name, std::string_view status, std::string_view detail) = 0;
  virtual void Log(std::string_view level, std::string_view message) = 0;
};

struct TaskArtifact {
  v1::ArtifactKind kind = v1::ARTIFACT_KIND_UNSPECIFIED;
  v1::CompressionFormat format = v1::COMPRESSION_FORMAT_UNSPECIFIED;
  std::filesystem::path file;  // written by the runner inside its work dir
};

struct TaskOutput {
  std::optional<report::Report> report;  // this role's sections of the report (docs/report.md)
  std::vector<TaskArtifact> artifacts;
  std::string summary;
  // The task ran to its end but the job's outcome is a failure a retry would not change (e.g. a
  // validation build failed): the report and artifacts are kept and the job ends failed with `summary`.
  bool job_failed = false;
  int files_total = 0;  // the report's translation totals cuda_files / cuda_files_translated
  int files_translated = 0;
  bool managed_memory = false;  // translate tasks: validate hint (report::ValidateHints) for the validate task
};

struct TaskContext {
  std::string job_id;
  std::string task_id;
  const v1::JobSpec& spec;
  std::filesystem::path input_root;  // extracted input, private to this task
  // Validate tasks: the submitted (untranslated) repository, extracted; empty for translate tasks.
  std::filesystem::path original_root;
  // Validate tasks: the translate step's hint that the code uses managed memory.
  bool managed_memory_found = false;
  std::filesystem::path work_dir;  // scratch space for outputs, private to this task
  ProgressReporter& progress;
  // Set when the lease was lost or the job was cancelled; long runners should check it between steps
  // and give up early (their result is dropped anyway).
  const std::atomic<bool>& abandon;
};

class TaskRunner {
 public:
  virtual ~TaskRunner() = default;
  // A non-OK status fails the task attempt with its message (the server may retry).
  virtual absl::StatusOr<TaskOutput> Run(const TaskContext& context) = 0;
};

}  // namespace hipforge::worker
