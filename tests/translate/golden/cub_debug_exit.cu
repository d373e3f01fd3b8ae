// CubDebugExit (HeCBench rle): CUB defines it in util_debug.cuh as `if (cub::Debug((cudaError_t) (e), __FILE__,
// __LINE__)) { exit(1); }`; hipCUB has HipcubDebug but no exiting form (it failed to build: "use of undeclared
// identifier 'CubDebugExit'"). The translator writes CUB's definition over HipcubDebug once, after the includes;
// the calls stay. The output must compile for gfx942 with HIP 6.4.
// COMPILE-TOOLCHAIN: rocm-6.4 --offload-arch=gfx942 -std=c++17 -fsyntax-only
// ARGS: -v
// STDERR: cub_debug_exit.cu:{{[0-9]+}}:{{[0-9]+}}: note: hipCUB has no CubDebugExit{{.*}}[TR013]
// JSON: "unsupported": 0
#include <cub/cub.cuh>
// CHECK: #include <hipcub/hipcub.hpp>
// CHECK: #ifndef HIPFORGE_CUB_DEBUG_EXIT_SHIM
// CHECK: #define CubDebugExit(e) if (HipcubDebug(e)) { exit(1); }
// CHECK-NOT: HIPFORGE_CUB_DEBUG_EXIT_SHIM

cub::CachingDeviceAllocator g_allocator(true);

int Run(int num_items) {
  int* d_out = nullptr;
  // CHECK: CubDebugExit(g_allocator.DeviceAllocate((void **)&d_out, sizeof(int) * num_items));
  CubDebugExit(g_allocator.DeviceAllocate((void **)&d_out, sizeof(int) * num_items));
  // CHECK: CubDebugExit(g_allocator.DeviceFree(d_out));
  CubDebugExit(g_allocator.DeviceFree(d_out));
  return 0;
}
