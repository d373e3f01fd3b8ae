#include "client/lib/progress_display.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace hipforge::client {
namespace {

TEST(ProgressDisplay, PlainModeWritesWholeLinesAtQuarters) {
  std::ostringstream out;
  {
    ProgressDisplay display(out, /*interactive=*/false);
    for (uint64_t done = 0; done <= 100; done += 5) {
      display.Upload(PackProgress{done / 10, 10, done, 100, done / 2});
    }
  }
  const std::string text = out.str();
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);  // 0, 25, 50, 75, 100 %
  EXPECT_NE(text.find("upload 100%: 10/10 files"), std::string::npos) << text;
}

TEST(ProgressDisplay, TerminalModeRedrawsOneLine) {
  std::ostringstream out;
  ProgressDisplay display(out, /*interactive=*/true);
  display.Upload(PackProgress{1, 2, 50, 100, 10});
  display.Upload(PackProgress{2, 2, 100, 100, 20});
  display.EndLine();
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\r'), 2);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
  EXPECT_NE(text.find("[########################] 100%"), std::string::npos) << text;
}

TEST(ProgressDisplay, JobEventsBecomeReadableLines) {
  std::ostringstream out;
  ProgressDisplay display(out, /*interactive=*/false);
  hipforge::v1::JobEvent change;
  change.mutable_state_change()->set_from(hipforge::v1::JOB_STATE_QUEUED);
  change.mutable_state_change()->set_to(hipforge::v1::JOB_STATE_TRANSLATING);
  display.Event(change);
  hipforge::v1::JobEvent unknown_origin;  // a change whose previous state the server did not record
  unknown_origin.mutable_state_change()->set_to(hipforge::v1::JOB_STATE_SUCCEEDED);
  display.Event(unknown_origin);
  hipforge::v1::JobEvent file;
  file.mutable_file_progress()->set_path("src/a.cu");
  file.mutable_file_progress()->set_done(3);
  file.mutable_file_progress()->set_total(7);
  file.mutable_file_progress()->set_status("translated");
  display.Event(file);
  hipforge::v1::JobEvent step;
  step.mutable_step()->set_kind("build");
  step.mutable_step()->set_name("gfx90a");
  step.mutable_step()->set_status("ok");
  display.Event(step);
  EXPECT_EQ(
      out.str(),
      "state: queued -> translating\nstate: succeeded\ntranslate unit 3/7 src/a.cu translated\nbuild gfx90a: ok\n");
}

// The translate stage counts translation units; the report and status count CUDA files (issue 26: `translate 3/3`
// then `4 of 4`): the progress line says which it counts, locally as from a server.
TEST(ProgressDisplay, TheTranslateStageSaysItCountsUnits) {
  std::ostringstream out;
  ProgressDisplay display(out, /*interactive=*/false);
  display.Stage("translate", 3, 3, "src/reductions.cu");
  display.Stage("analyze", 4, 4, "include/vector_stats.cuh");
  EXPECT_EQ(out.str(), "translate unit 3/3 src/reductions.cu\nanalyze 4/4 include/vector_stats.cuh\n");
}

TEST(ProgressDisplay, FormatsBytes) {
  EXPECT_EQ(FormatBytes(312), "312 B");
  EXPECT_EQ(FormatBytes(1536), "1.5 KiB");
  EXPECT_EQ(FormatBytes(5ull << 20), "5.0 MiB");
  EXPECT_EQ(RenderBar(1, 4, 8), "[##------]");
  EXPECT_EQ(RenderBar(0, 0, 4), "[----]");
}

}  // namespace
}  // namespace hipforge::client
