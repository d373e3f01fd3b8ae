#pragma once
// Helpers shared by the fuzz targets: a private directory per fuzzing process and checks that the
// code under test wrote nowhere else.
#include <filesystem>
#include <string>

namespace hipforge::fuzz {

// A fresh directory under $TMPDIR for this process (removed at exit).
std::filesystem::path MakeSandbox(const std::string& name);
// Aborts when `sandbox` holds anything but `child` (and, unless allowed, when `child` is non-empty).
void ExpectOnlyChild(const std::filesystem::path& sandbox, const std::string& child, bool child_may_be_non_empty);
// Removes `dir` and everything in it.
void Clear(const std::filesystem::path& dir);

}  // namespace hipforge::fuzz
