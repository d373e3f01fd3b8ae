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
#include <string_view>

#include "worker/translate/tables/mapping_index.h"
#include "worker/validate/nvidia_backend/cuda_name_refusal.h"
#include "worker/validate/nvidia_backend/hip_on_cuda_header.h"
#include "worker/validate/nvidia_backend/hip_on_cuda_toolchain.h"

int main(int argc, char** argv) {
  const auto tables = hipforge::translate::AllTables();
  if (argc == 3 && std::string_view(argv[1]) == "--check") {
    if (!std::filesystem::is_directory(argv[2])) {
      std::cerr << "not a directory: " << argv[2] << "\n";
      return 2;
    }
    const auto names = hipforge::validate::RefusedCudaNames(tables);
    const auto uses = hipforge::validate::FindCudaNamesInTree(argv[2], names);
    for (const auto& use : uses) {
      std::cout << use.path << ":" << use.line << ":" << use.column << ": CUDA name left in translated code: "
                << use.name << "\n";
    }
    return uses.empty() ? 0 : 1;
  }
  if (argc >= 3 && std::string_view(argv[1]) == "--toolchain") {
    hipforge::BoostProcessLauncher launcher;
    hipforge::validate::HipOnCudaToolchainOptions options{.dir = argv[2]};
    for (int i = 3; i < argc; ++i) options.archs.emplace_back(argv[i]);
    auto toolchain = hipforge::validate::MakeHipOnCudaToolchain(launcher, options);
    if (!toolchain.ok()) {
      std::cerr << toolchain.status().message() << "\n";
      return 1;
    }
    std::cout << toolchain->description << ": " << toolchain->hipcc.string() << "\n";
    return 0;
  }
  if (argc != 2) {
    std::cerr << "usage: gen_hip_on_cuda OUTPUT_DIR | gen_hip_on_cuda --check TRANSLATED_TREE | gen_hip_on_cuda --toolchain DIR [ARCH...]\n";
    return 2;
  }
  const std::filesystem::path out = argv[1];
  for (const auto& [relative, text] : hipforge::validate::GenerateHipOnCudaHeaders(tables)) {
    std::filesystem::create_directories((out / relative).parent_path());
    std::ofstream(out / relative) << text;
  }
  std::cout << "wrote HIP-on-CUDA headers to " << out << "\n";
  return 0;
}
