#include "client/lib/progress_display.h"

#include <cstdio>

#include "client/lib/migration_client.h"

namespace hipforge::client {

std::string FormatBytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  if (unit == 0) {
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  } else {
    std::snprintf(text, sizeof text, "%.1f %s", value, kUnits[unit]);
  }
  return text;
}

std::string RenderBar(uint64_t done, uint64_t total, int width) {
  const int filled = total == 0 ? 0 : static_cast<int>(std::min<uint64_t>(done, total) * width / total);
  return "[" + std::string(filled, '#') + std::string(width - filled, '-') + "]";
}

std::string StageLabel(const std::string& stage) {
  // The translate stage counts translation units (the sources the build compiles; their headers are translated
  // with them), while the report and `status` count CUDA files: named, 3 units never read as 3 of 4 files.
  return stage == "translate" ? "translate unit" : stage;
}

void ProgressDisplay::Redraw(const std::string& text) {
  // Pad over the previous, possibly longer, text instead of relying on terminal escape codes.
  std::string padded = text;
  if (padded.size() < last_width_) padded.append(last_width_ - padded.size(), ' ');
  out_ << '\r' << padded << std::flush;
  last_width_ = text.size();
  bar_open_ = true;
}

void ProgressDisplay::EndLine() {
  if (bar_open_) out_ << '\n' << std::flush;
  bar_open_ = false;
  last_width_ = 0;
}

void ProgressDisplay::Line(const std::string& text) {
  EndLine();
  out_ << text << '\n' << std::flush;
}

void ProgressDisplay::Upload(const PackProgress& progress) {
  const uint64_t percent =
      progress.input_bytes_total == 0 ? 100 : progress.input_bytes_done * 100 / progress.input_bytes_total;
  const std::string counts = std::to_string(progress.files_done) + "/" + std::to_string(progress.files_total) +
                             " files, " + FormatBytes(progress.input_bytes_done) + "/" +
                             FormatBytes(progress.input_bytes_total) + " -> " + FormatBytes(progress.output_bytes) +
                             " sent";
  if (interactive_) {
    char percent_text[8];
    std::snprintf(percent_text, sizeof percent_text, "%3llu%%", static_cast<unsigned long long>(percent));
    Redraw("upload " + RenderBar(progress.input_bytes_done, progress.input_bytes_total, 24) + " " + percent_text + " " +
           counts);
    return;
  }
  // Plain output: a line at 0, 25, 50, 75 and 100 percent.
  const int quarter = static_cast<int>(percent / 25);
  if (quarter == last_upload_quarter_) return;
  // The 100% line waits for the final call, made once the compressed stream is flushed, so it
  // reports what was actually sent.
  if (quarter == 4 && progress.output_bytes == 0) return;
  last_upload_quarter_ = quarter;
  Line("upload " + std::to_string(percent) + "%: " + counts);
}

void ProgressDisplay::Event(const hipforge::v1::JobEvent& event) {
  switch (event.kind_case()) {
    case hipforge::v1::JobEvent::kStateChange: {
      const auto& change = event.state_change();
      std::string text = "state: ";
      if (change.from() != hipforge::v1::JOB_STATE_UNSPECIFIED) text += JobStateName(change.from()) + " -> ";
      text += JobStateName(change.to());
      if (!change.reason().empty()) text += " (" + change.reason() + ")";
      Line(text);
      break;
    }
    case hipforge::v1::JobEvent::kFileProgress: {
      const auto& file = event.file_progress();
      const std::string counts = std::to_string(file.done()) + "/" + std::to_string(file.total());
      // The worker's FileProgress events are the translate stage's units.
      const std::string label = StageLabel("translate");
      if (interactive_) {
        Redraw(label + " " + RenderBar(file.done(), file.total(), 24) + " " + counts + " " + file.path());
      } else {
        Line(label + " " + counts + " " + file.path() + (file.status().empty() ? "" : " " + file.status()));
      }
      break;
    }
    case hipforge::v1::JobEvent::kStep: {
      const auto& step = event.step();
      std::string text = step.kind();
      if (!step.name().empty()) text += " " + step.name();
      text += ": " + step.status();
      if (!step.detail().empty()) text += " (" + step.detail() + ")";
      Line(text);
      break;
    }
    case hipforge::v1::JobEvent::kLog: Line("[" + event.log().level() + "] " + event.log().message()); break;
    default: break;
  }
}

void ProgressDisplay::Stage(const std::string& stage, int done, int total, const std::string& message) {
  const std::string counts = std::to_string(done) + "/" + std::to_string(total);
  const std::string label = StageLabel(stage);
  if (interactive_) {
    Redraw(label + " " + RenderBar(done, total, 24) + " " + counts + " " + message);
  } else {
    Line(label + " " + counts + (message.empty() ? "" : " " + message));
  }
}

}  // namespace hipforge::client
