#pragma once
// Upload and job progress for people and for logs: redrawn bars on a terminal, plain lines
// otherwise (CI logs, pipes). Writes to the stream it is given (migrate-cli uses stderr so stdout
// stays machine-readable).
#include <cstdint>
#include <ostream>
#include <string>

#include "common/archive.h"
#include "hipforge/v1/job.pb.h"

namespace hipforge::client {

// "1.5 MiB", "312 B".
std::string FormatBytes(uint64_t bytes);
// "[########------------]" with `width` cells for done/total (total 0 renders empty).
std::string RenderBar(uint64_t done, uint64_t total, int width);
// What a stage's done/total counts, as shown: "translate unit" for the translate stage (translation units, not
// the report's CUDA files), the stage name otherwise.
std::string StageLabel(const std::string& stage);

class ProgressDisplay {
 public:
  ProgressDisplay(std::ostream& out, bool interactive) : out_(out), interactive_(interactive) {}
  ~ProgressDisplay() { EndLine(); }

  void Upload(const PackProgress& progress);
  void Event(const hipforge::v1::JobEvent& event);
  // Local work (migrate-cli translate/analyze): a bar per stage on a terminal, a line per step otherwise.
  void Stage(const std::string& stage, int done, int total, const std::string& message);
  // A line of its own (ends any bar in progress first).
  void Line(const std::string& text);
  void EndLine();

 private:
  void Redraw(const std::string& text);

  std::ostream& out_;
  bool interactive_;
  bool bar_open_ = false;
  size_t last_width_ = 0;
  int last_upload_quarter_ = -1;
};

}  // namespace hipforge::client
