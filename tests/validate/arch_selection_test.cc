#include "worker/validate/arch_selection.h"

#include <gtest/gtest.h>

namespace hipforge::validate {
namespace {

// What Debian bookworm's clang 15 lists (clang --target=amdgcn-amd-amdhsa --print-supported-cpus).
const std::vector<std::string> kClang15 = {"gfx900",  "gfx906",  "gfx908",  "gfx90a",  "gfx90c", "gfx940",
                                           "gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx1103"};

TEST(ArchSelectionTest, ExactTargetIsKept) {
  auto choice = ChooseBuildArch("gfx90a", kClang15);
  EXPECT_EQ(choice.arch, "gfx90a");
  EXPECT_TRUE(choice.note.empty());
  EXPECT_EQ(ChooseBuildArch("gfx90a:xnack+", kClang15).arch, "gfx90a:xnack+");
}

TEST(ArchSelectionTest, Gfx942FallsBackToGfx940WithALabel) {
  auto choice = ChooseBuildArch("gfx942", kClang15);
  EXPECT_EQ(choice.requested, "gfx942");
  EXPECT_EQ(choice.arch, "gfx940");
  EXPECT_NE(choice.note.find("nearest target gfx940"), std::string::npos) << choice.note;
}

TEST(ArchSelectionTest, NearestInFamilyOrNothing) {
  EXPECT_EQ(ChooseBuildArch("gfx1150", kClang15).arch, "");  // no gfx115x at all
  EXPECT_EQ(ChooseBuildArch("gfx1104", kClang15).arch, "gfx1103");
  EXPECT_EQ(ChooseBuildArch("gfx1034", {"gfx1030", "gfx1036"}).arch, "gfx1030");
  EXPECT_EQ(ChooseBuildArch("gfx941", {"gfx942"}).arch, "gfx942");  // only one above
  EXPECT_FALSE(ChooseBuildArch("gfx1200", kClang15).note.empty());
}

}  // namespace
}  // namespace hipforge::validate
