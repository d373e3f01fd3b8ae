#pragma once
// Per-kernel static resources from the AMDGPU backend's `-Rpass-analysis=kernel-resource-usage`
// remarks. Two spellings exist: LLVM 15 (Debian hipcc 5.2) prints "Function Name:", "SGPRs:",
// "ScratchSize [bytes/lane]:"; newer LLVM prints "TotalSGPRs:", may say "Kernel Name:" or
// "[bytes/thread]", and adds "Dynamic Stack:". Both are accepted.
#include <string_view>
#include <vector>

#include "worker/validate/report.h"

namespace hipforge::validate {

// Kernels in order of first appearance; a kernel reported twice (same name, several translation
// units) is kept once. Names are demangled when possible.
std::vector<KernelResources> ParseKernelResourceRemarks(std::string_view compiler_output);

}  // namespace hipforge::validate
