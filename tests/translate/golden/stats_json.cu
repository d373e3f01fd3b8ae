// ARGS: --hip-kernel-execution-syntax
// Per-file statistics in the report JSON.
// JSON: "changed_by": [
// JSON: "launch"
// JSON: "converted": {
// JSON-DAG: "function": 2
// JSON-DAG: "header": 1
// JSON-DAG: "launch": 1
// JSON-DAG: "type": 1
// JSON: "lines_changed": 5
// JSON: "status": "translated"
// JSON: "totals"
#include <cuda_runtime.h>
__global__ void kernel(int* out) { out[0] = 1; }
int main() {
  int* data;
  cudaStream_t stream;
  cudaMalloc(&data, 4);
  kernel<<<1, 1>>>(data);
  cudaFree(data);
  return 0;
}
