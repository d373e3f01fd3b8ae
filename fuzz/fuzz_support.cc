#include "fuzz/fuzz_support.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace hipforge::fuzz {
namespace fs = std::filesystem;

namespace {
fs::path g_sandbox;  // set once per process, for the exit handler
void RemoveSandbox() {
  std::error_code ignored;
  if (!g_sandbox.empty()) fs::remove_all(g_sandbox, ignored);
}
}  // namespace

fs::path MakeSandbox(const std::string& name) {
  std::string pattern = (fs::temp_directory_path() / ("hipforge-fuzz-" + name + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) abort();
  g_sandbox = fs::canonical(pattern);
  std::atexit(RemoveSandbox);
  return g_sandbox;
}

void ExpectOnlyChild(const fs::path& sandbox, const std::string& child, bool child_may_be_non_empty) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(sandbox, ec)) {
    if (entry.path().filename() != child) {
      std::fprintf(stderr, "written outside the target: %s\n", entry.path().c_str());
      abort();
    }
  }
  if (!child_may_be_non_empty && fs::exists(sandbox / child) && !fs::is_empty(sandbox / child)) {
    std::fprintf(stderr, "a refused extraction left files behind\n");
    abort();
  }
}

void Clear(const fs::path& dir) {
  std::error_code ignored;
  fs::remove_all(dir, ignored);
}

}  // namespace hipforge::fuzz
