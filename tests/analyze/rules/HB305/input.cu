// HB305 golden input: cuRAND generators whose sequences differ under hipRAND.
#include <curand.h>
#include <curand_kernel.h>

__global__ void init_states(curandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

void generate(float* data, size_t n) {
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_XORWOW);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  curandGenerateUniform(gen, data, n);
  curandDestroyGenerator(gen);
}
