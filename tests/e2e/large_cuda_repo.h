#pragma once
// A repository of many small CUDA files, so a translate task runs long enough (seconds) to be interrupted.
#include <filesystem>
#include <fstream>
#include <string>

namespace hipforge::testing {

inline void WriteLargeCudaRepo(const std::filesystem::path& root, int files) {
  std::filesystem::create_directories(root / "src");
  for (int i = 0; i < files; ++i) {
    std::ofstream out(root / "src" / ("k" + std::to_string(i) + ".cu"));
    out << "#include <cuda_runtime.h>\n\n__global__ void kernel" << i
        << "(float* d, int n) {\n  int t = blockIdx.x * blockDim.x + threadIdx.x;\n  if (t < n) d[t] += " << i
        << ".0f;\n}\n\nvoid run" << i << "(int n) {\n  float* d = nullptr;\n  cudaMalloc(&d, n * sizeof(float));\n"
        << "  cudaStream_t s;\n  cudaStreamCreate(&s);\n  kernel" << i
        << "<<<(n + 127) / 128, 128, 0, s>>>(d, n);\n  cudaStreamSynchronize(s);\n  cudaStreamDestroy(s);\n"
        << "  cudaFree(d);\n}\n";
  }
}

}  // namespace hipforge::testing
