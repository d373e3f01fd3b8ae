// gen_hip_on_cuda OUTPUT_DIR: writes the HIP-on-CUDA header set (see hip_on_cuda_header.h) so that
// `nvcc -I OUTPUT_DIR` compiles translated HIP sources for an NVIDIA GPU.
// gen_hip_on_cuda --check TREE: refuses a translated tree that still names CUDA APIs (cuda_name_refusal.h):
// lists each use (path:line:column: name) and exits 1; exits 0 when there is none.
// gen_hip_on_cuda --toolchain DIR [ARCH...]: writes the whole HIP-on-NVIDIA toolchain the NVIDIA validate worker
// uses (bin/hipcc over nvcc, include/, lib/cmake/; hip_on_cuda_toolchain.h) for the sm_XX ARCHs (default sm_90), so
// that scripts (tests/validate/nvidia_backend/wave64/) build with exactly the worker's layer.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "worker/translate/tables/mapping_index.h"
#include "worker/validate/nvidia_backend/cuda_name_refusal.h"
#include "worker/validate/nvidia_backend/hip_on_cuda_header.h"
#include "worker/validate/nvidia_backend/hip_on_cuda_toolchain.h"

namespace {

int CheckTree(const std::string& tree) {
  const auto refused = hipforge::validate::RefusedCudaNames(hipforge::translate::AllTables());
  const auto uses = hipforge::validate::FindCudaNamesInTree(tree, refused);
  for (const auto& use : uses) {
    std::cout << use.path << ":" << use.line << ":" << use.column << ": CUDA name left in translated code: " << use.name
              << "\n";
  }
  return uses.empty() ? 0 : 1;
}

int WriteToolchain(const std::string& dir, const std::vector<std::string>& archs) {
  hipforge::BoostProcessLauncher launcher;
  hipforge::validate::HipOnCudaToolchainOptions options{.dir = dir};
  options.archs.assign(archs.begin(), archs.end());
  auto toolchain = hipforge::validate::MakeHipOnCudaToolchain(launcher, options);
  if (!toolchain.ok()) {
    std::cerr << toolchain.status().message() << "\n";
    return 1;
  }
  std::cout << toolchain->description << ": " << toolchain->hipcc.string() << "\n";
  return 0;
}

int WriteHeaders(const std::filesystem::path& out) {
  for (const auto& [relative, text] : hipforge::validate::GenerateHipOnCudaHeaders(hipforge::translate::AllTables())) {
    std::filesystem::create_directories((out / relative).parent_path());
    std::ofstream(out / relative) << text;
  }
  std::cout << "wrote HIP-on-CUDA headers to " << out << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Writes the HIP-on-NVIDIA layer the NVIDIA validate worker builds translated trees with, or checks a "
      "translated tree for CUDA names the layer refuses."};
  std::string check_tree, toolchain_dir;
  std::vector<std::string> positional;
  auto* check = app.add_option("--check", check_tree,
                               "refuse a translated tree that still names CUDA APIs: lists each use "
                               "(path:line:column: name), exit 1; exit 0 when there is none")
                    ->check(CLI::ExistingDirectory);
  auto* toolchain = app.add_option("--toolchain", toolchain_dir,
                                   "write the whole toolchain (bin/hipcc over nvcc, include/, lib/cmake/) into DIR; "
                                   "the positional arguments are then the sm_XX architectures (default sm_90)");
  check->excludes(toolchain);
  app.add_option("args", positional, "OUTPUT_DIR for the header set; with --toolchain, ARCH...");
  CLI11_PARSE(app, argc, argv);
  if (!check_tree.empty()) {
    if (!positional.empty()) {
      std::cerr << "gen_hip_on_cuda: --check takes no other argument\n";
      return 2;
    }
    return CheckTree(check_tree);
  }
  if (!toolchain_dir.empty()) return WriteToolchain(toolchain_dir, positional);
  if (positional.size() != 1) {
    std::cerr << "gen_hip_on_cuda: give one OUTPUT_DIR (or --check TREE, or --toolchain DIR [ARCH...]); --help\n";
    return 2;
  }
  return WriteHeaders(positional.front());
}
