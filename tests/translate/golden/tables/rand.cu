// cuRAND table: host generator API and the device API; an API hipRAND lacks stays, with a located warning.
// CHECK: #include <hiprand/hiprand.h>
#include <curand.h>
// CHECK: #include <hiprand/hiprand_kernel.h>
#include <curand_kernel.h>
// CHECK: __global__ void Sample(hiprandState* states, float* out, unsigned long long seed) {
__global__ void Sample(curandState* states, float* out, unsigned long long seed) {
  // CHECK: hiprand_init(seed, threadIdx.x, 0, &states[threadIdx.x]);
  curand_init(seed, threadIdx.x, 0, &states[threadIdx.x]);
  // CHECK: out[threadIdx.x] = hiprand_uniform(&states[threadIdx.x]);
  out[threadIdx.x] = curand_uniform(&states[threadIdx.x]);
}
int main() {
  // CHECK: hiprandGenerator_t generator;
  curandGenerator_t generator;
  // CHECK: hiprandCreateGenerator(&generator, HIPRAND_RNG_PSEUDO_DEFAULT);
  curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT);
  // CHECK: hiprandSetPseudoRandomGeneratorSeed(generator, 1234ULL);
  curandSetPseudoRandomGeneratorSeed(generator, 1234ULL);
  int major = 0;
  // STDERR: rand.cu:[[@LINE+2]]:3: warning: 'curandGetProperty' is unsupported in 'HIP'. [TR001]
  // CHECK: curandGetProperty(MAJOR_VERSION, &major);
  curandGetProperty(MAJOR_VERSION, &major);
  // CHECK: hiprandDestroyGenerator(generator);
  curandDestroyGenerator(generator);
  return major;
}
