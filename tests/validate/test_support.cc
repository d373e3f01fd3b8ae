#include "tests/validate/test_support.h"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <random>

#include "common/process.h"

namespace hipforge::validate::testing {
namespace fs = std::filesystem;

fs::path TestData(const std::string& relative) { return fs::path(HIPFORGE_VALIDATE_TEST_DATA) / relative; }

bool HaveHipcc() { return !FindProgram("hipcc").empty(); }

void WriteFile(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace hipforge::validate::testing
