// A project header that uses the runtime without including it (HeCBench pad's support/partitioner.h): nvcc's
// implicit cuda_runtime.h covered it; the translator gives it hip_runtime.h.
#ifndef DEVICE_PARTITIONER_H_
#define DEVICE_PARTITIONER_H_
struct Partitioner {
  int cut;
  int* worklist;
};
__device__ inline int gpu_first(Partitioner* p) { return atomicAdd_system(p->worklist, 1); }
#endif
