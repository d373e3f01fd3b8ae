// Random initialisation of weights with the host API and in kernels.
#include <curand.h>
#include <curand_kernel.h>
#include <cuda_runtime.h>

void init_weights(float* d_weights, size_t n, unsigned long long seed) {
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  curandSetPseudoRandomGeneratorSeed(gen, seed);
  curandGenerateNormal(gen, d_weights, n, 0.0f, 0.02f);
  curandDestroyGenerator(gen);
}

__global__ void setup_states(curandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void dropout(float* x, const curandState* states, float p, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  curandState local = states[id];
  x[id] = curand_uniform(&local) < p ? 0.f : x[id] / (1.f - p);
}
