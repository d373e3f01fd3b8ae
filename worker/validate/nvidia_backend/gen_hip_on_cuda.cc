// gen_hip_on_cuda OUTPUT_DIR: writes the HIP-on-CUDA header set (see hip_on_cuda_header.h) so that
// `nvcc -I OUTPUT_DIR` compiles translated HIP sources for an NVIDIA GPU.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "worker/translate/tables/mapping_index.h"
#include "worker/validate/nvidia_backend/hip_on_cuda_header.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: gen_hip_on_cuda OUTPUT_DIR\n";
    return 2;
  }
  const std::filesystem::path out = argv[1];
  const auto tables = hipforge::translate::AllTables();
  for (const auto& [relative, text] : hipforge::validate::GenerateHipOnCudaHeaders(tables)) {
    std::filesystem::create_directories((out / relative).parent_path());
    std::ofstream(out / relative) << text;
  }
  std::cout << "wrote HIP-on-CUDA headers to " << out << "\n";
  return 0;
}
