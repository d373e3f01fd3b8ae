#pragma once
// Helpers shared by the validate tests: scratch dirs and whether hipcc is usable here.
#include <filesystem>
#include <string>

#include "tests/support/scratch_dir.h"

namespace hipforge::validate::testing {

// A fresh directory under the system temp dir, removed by the destructor (tests/support/scratch_dir.h).
using ScratchDir = hipforge::testing::ScratchDir;

std::filesystem::path TestData(const std::string& relative);
bool HaveHipcc();
void WriteFile(const std::filesystem::path& path, const std::string& text);
std::string ReadFile(const std::filesystem::path& path);

}  // namespace hipforge::validate::testing
