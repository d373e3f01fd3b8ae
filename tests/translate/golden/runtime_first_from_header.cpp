// A C++ unit compiled by nvcc (HeCBench pad's host_task.cpp) defines a one-letter macro and then includes a
// project header that uses the runtime without including it. nvcc had included cuda_runtime.h before the unit's
// first line; a hip_runtime.h include after `#define T double` broke HIP's templates ("declaration of anonymous
// class must be a definition"). A main file that defines a macro before its first include gets the runtime above
// its first directive (and the repository pass translates such a .cpp as a unit: PlanTranslationTest).
// CHECK: #include <hip/hip_runtime.h>
// CHECK-NEXT: #define T double
#define T double
#include "include/device_partitioner.h"
T Host(Partitioner* p) { return static_cast<T>(p->cut); }
