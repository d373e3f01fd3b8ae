// NVTX table: ranges and marks become roctx; an NVTX API roctx lacks stays, with a located warning.
// CHECK: #include <roctracer/roctx.h>
#include <nvtx3/nvToolsExt.h>
int main() {
  // CHECK: roctxRangePushA("setup");
  nvtxRangePushA("setup");
  // CHECK: roctxMarkA("ready");
  nvtxMarkA("ready");
  // CHECK: roctxRangePop();
  nvtxRangePop();
  // CHECK: roctx_range_id_t range = roctxRangeStartA("work");
  nvtxRangeId_t range = nvtxRangeStartA("work");
  // CHECK: roctxRangeStop(range);
  nvtxRangeEnd(range);
  // STDERR: nvtx.cu:[[@LINE+2]]:3: warning: 'nvtxEventAttributes_t' is unsupported in 'HIP'. [TR001]
  // CHECK: nvtxEventAttributes_t attributes = {};
  nvtxEventAttributes_t attributes = {};
  // STDERR: nvtx.cu:[[@LINE+2]]:3: warning: 'nvtxRangePushEx' is unsupported in 'HIP'. [TR001]
  // CHECK: nvtxRangePushEx(&attributes);
  nvtxRangePushEx(&attributes);
  return 0;
}
