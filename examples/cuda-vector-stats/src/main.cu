// vector_stats: runs each kernel on generated data and checks it against a host computation.
// Exit status 0 when every check passes, 1 otherwise.
#include <cmath>
#include <cstring>
#include <vector>

#include "vector_stats.cuh"

namespace {

constexpr int kBuckets = 64;

bool close_enough(float got, float want, float relative) {
  return std::fabs(got - want) <= relative * std::fmax(1.0f, std::fabs(want));
}

int report(const char* name, bool ok) {
  std::printf("%-12s %s\n", name, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : (1 << 20);
  if (n <= 0) {
    std::fprintf(stderr, "usage: %s [elements]\n", argv[0]);
    return 2;
  }
  int device_count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&device_count));
  cudaDeviceProp properties;
  CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  std::printf("device 0: %s, %d SMs, warp size %d\n", properties.name, properties.multiProcessorCount,
              properties.warpSize);

  // Plain malloc'ed (pageable) host buffers: cudaMemcpyAsync from them silently becomes synchronous.
  const size_t bytes = static_cast<size_t>(n) * sizeof(float);
  float* x = static_cast<float*>(std::malloc(bytes));
  float* y = static_cast<float*>(std::malloc(bytes));
  float* result = static_cast<float*>(std::malloc(bytes));
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000) / 1000.0f;
    y[i] = static_cast<float>((i * 7) % 13) - 6.0f;
  }

  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreate(&stream));
  float *d_x, *d_y, *d_out, *d_total;
  unsigned int* d_counts;
  CUDA_CHECK(cudaMalloc(&d_x, bytes));
  CUDA_CHECK(cudaMalloc(&d_y, bytes));
  CUDA_CHECK(cudaMalloc(&d_out, bytes));
  CUDA_CHECK(cudaMalloc(&d_total, sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_counts, kBuckets * sizeof(unsigned int)));
  CUDA_CHECK(cudaMemcpyAsync(d_x, x, bytes, cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(d_y, y, bytes, cudaMemcpyHostToDevice, stream));

  const int blocks = (n + BLOCK_THREADS - 1) / BLOCK_THREADS;
  const int reduce_blocks = properties.multiProcessorCount * 4;
  int failures = 0;

  // saxpy
  saxpy<<<blocks, BLOCK_THREADS, 0, stream>>>(n, 2.5f, d_x, d_y, d_out);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(result, d_out, bytes, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  bool ok = true;
  for (int i = 0; i < n && ok; ++i) ok = close_enough(result[i], 2.5f * x[i] + y[i], 1e-6f);
  failures += report("saxpy", ok);

  // sum
  float total = 0.0f;
  CUDA_CHECK(cudaMemsetAsync(d_total, 0, sizeof(float), stream));
  sum_reduce<<<reduce_blocks, BLOCK_THREADS, 0, stream>>>(n, d_x, d_total);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  failures += report("sum", close_enough(total, host_sum(n, x), 1e-4f));

  // dot product
  CUDA_CHECK(cudaMemsetAsync(d_total, 0, sizeof(float), stream));
  dot_product<<<reduce_blocks, BLOCK_THREADS, 0, stream>>>(n, d_x, d_y, d_total);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpyAsync(&total, d_total, sizeof(float), cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  failures += report("dot", close_enough(total, host_dot(n, x, y), 1e-4f));

  // histogram of x over [0, 1) in kBuckets buckets
  std::vector<unsigned int> counts(kBuckets, 0), expected(kBuckets, 0);
  for (int i = 0; i < n; ++i) {
    int bucket = static_cast<int>(x[i] / (1.0f / kBuckets));
    expected[bucket < 0 ? 0 : (bucket >= kBuckets ? kBuckets - 1 : bucket)]++;
  }
  CUDA_CHECK(cudaMemsetAsync(d_counts, 0, kBuckets * sizeof(unsigned int), stream));
  histogram<<<reduce_blocks, BLOCK_THREADS, kBuckets * sizeof(unsigned int), stream>>>(n, d_x, 1.0f / kBuckets,
                                                                                      kBuckets, d_counts);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(counts.data(), d_counts, kBuckets * sizeof(unsigned int), cudaMemcpyDeviceToHost));
  failures += report("histogram", counts == expected);

  CUDA_CHECK(cudaStreamDestroy(stream));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_total));
  CUDA_CHECK(cudaFree(d_counts));
  std::free(x);
  std::free(y);
  std::free(result);
  std::printf("%s\n", failures == 0 ? "ALL CHECKS PASSED" : "SOME CHECKS FAILED");
  return failures == 0 ? 0 : 1;
}
