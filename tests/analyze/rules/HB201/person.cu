// HB201 golden input: PTX with no exact one-line HIP equivalent, reported with the instructions named.
#include <cuda_runtime.h>

// Needs a person: asynchronous copies and register-operand bit fields have no exact one-line equivalent.
__device__ void async_copy(void* smem, const void* gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((unsigned)(size_t)smem), "l"(gmem));
  asm volatile("cp.async.wait_all;\n" ::);
}

__device__ unsigned bfe_registers(unsigned x, unsigned pos, unsigned len) {
  unsigned r;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  return r;
}

