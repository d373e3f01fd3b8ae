#pragma once
// Stage: which files the translator takes (CUDA sources and the headers and C++ files that use CUDA; PyTorch
// extension sources stay CUDA), which .cu files are renamed, and what the rewriters need to know of the tree
// (CUDA sources present, CUDA libraries named in CMake, whether relocatable device code is needed).
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status PlanTranslation(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
