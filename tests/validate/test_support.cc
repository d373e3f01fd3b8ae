#include "tests/validate/test_support.h"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <random>

#include "common/process.h"

namespace hipforge::validate::testing {
namespace fs = std::filesystem;

ScratchDir::ScratchDir(const std::string& name) {
  std::random_device random;
  path_ = fs::temp_directory_path() / ("hipforge-validate-" + name + "-" + std::to_string(::getpid()) + "-" +
                                       std::to_string(random()));
  fs::create_directories(path_);
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

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
