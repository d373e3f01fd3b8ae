// Capture a short pipeline into a CUDA graph and replay it.
#include <cuda_runtime.h>

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

void run_graph(float* d_x, int n, int iterations) {
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaGraph_t graph;
  cudaGraphExec_t instance;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  for (int k = 0; k < 4; ++k) scale<<<(n + 255) / 256, 256, 0, stream>>>(d_x, 0.5f, n);
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&instance, graph, 0);
  for (int it = 0; it < iterations; ++it) cudaGraphLaunch(instance, stream);
  cudaStreamSynchronize(stream);
  cudaGraphExecDestroy(instance);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}
