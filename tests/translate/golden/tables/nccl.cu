// NCCL table: RCCL keeps NCCL's names, so the check is that they pass through untouched and the include moves;
// an API RCCL lacks (added in NCCL 2.27) stays, with a located warning.
// CHECK: #include <rccl/rccl.h>
#include <nccl.h>
int main() {
  // CHECK: ncclComm_t comm;
  ncclComm_t comm;
  ncclUniqueId id;
  // CHECK: ncclGetUniqueId(&id);
  ncclGetUniqueId(&id);
  // CHECK: ncclCommInitRank(&comm, 1, id, 0);
  ncclCommInitRank(&comm, 1, id, 0);
  float* data = nullptr;
  // CHECK: ncclAllReduce(data, data, 16, ncclFloat, ncclSum, comm, 0);
  ncclAllReduce(data, data, 16, ncclFloat, ncclSum, comm, 0);
  int exclude[1] = {0};
  ncclComm_t smaller;
  // STDERR: nccl.cu:[[@LINE+2]]:3: warning: 'ncclCommShrink' is unsupported in 'HIP'. [TR001]
  // CHECK: ncclCommShrink(comm, exclude, 1, &smaller, nullptr, 0);
  ncclCommShrink(comm, exclude, 1, &smaller, nullptr, 0);
  // CHECK: ncclCommDestroy(comm);
  ncclCommDestroy(comm);
  return 0;
}
