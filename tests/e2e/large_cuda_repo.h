#pragma once
// Test repositories for fault tests: many small CUDA files, so a translate task runs long enough (seconds) to be
// interrupted; incompressible bytes, so an upload takes long enough to be cut.
#include <cstdint>
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

// `bytes` of xorshift output: no compressor shrinks them, so they cost their size on the wire.
inline void WriteIncompressibleFile(const std::filesystem::path& file, size_t bytes) {
  std::string noise(bytes, '\0');
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (char& c : noise) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x & 0xff);
  }
  std::ofstream(file, std::ios::binary) << noise;
}

}  // namespace hipforge::testing
