// HB401 golden input: CUDA graphs and stream capture.
#include <cuda_runtime.h>

__global__ void step(float* x) { x[threadIdx.x] += 1.0f; }

void run(float* x, cudaStream_t stream) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  for (int i = 0; i < 10; ++i) step<<<1, 256, 0, stream>>>(x);
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, stream);
}

// Negative: the same work launched eagerly.
void run_eager(float* x, cudaStream_t stream) {
  for (int i = 0; i < 10; ++i) step<<<1, 256, 0, stream>>>(x);
}
