// Mapping table: cuComplex. One record per line.
// Data file (exempt from the file-length rule): facts from ROCm/HIPIFY's mapping data plus
// hipforge additions; regenerate docs/mappings with gen_mapping_docs after editing.
// One record per line is the format of a table, so clang-format leaves the file as written.
// clang-format off
#include "worker/translate/tables/library_tables.h"

namespace hipforge::translate {
namespace {

using enum ApiKind;
using enum ApiLibrary;
using enum SupportState;
using enum MappingFlag;

constexpr ApiMapping kRecords[] = {
    {.cuda_name = "cuCrealf", .hip_name = "hipCrealf", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCimagf", .hip_name = "hipCimagf", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "make_cuFloatComplex", .hip_name = "make_hipFloatComplex", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuConjf", .hip_name = "hipConjf", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCaddf", .hip_name = "hipCaddf", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCsubf", .hip_name = "hipCsubf", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCmulf", .hip_name = "hipCmulf", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCdivf", .hip_name = "hipCdivf", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCabsf", .hip_name = "hipCabsf", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCreal", .hip_name = "hipCreal", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCimag", .hip_name = "hipCimag", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "make_cuDoubleComplex", .hip_name = "make_hipDoubleComplex", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuConj", .hip_name = "hipConj", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCadd", .hip_name = "hipCadd", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCsub", .hip_name = "hipCsub", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCmul", .hip_name = "hipCmul", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCdiv", .hip_name = "hipCdiv", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCabs", .hip_name = "hipCabs", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "make_cuComplex", .hip_name = "make_hipComplex", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuComplexFloatToDouble", .hip_name = "hipComplexFloatToDouble", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuComplexDoubleToFloat", .hip_name = "hipComplexDoubleToFloat", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCfmaf", .hip_name = "hipCfmaf", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuCfma", .hip_name = "hipCfma", .kind = kFunction, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuFloatComplex", .hip_name = "hipFloatComplex", .roc_name = "rocblas_float_complex", .kind = kType, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuDoubleComplex", .hip_name = "hipDoubleComplex", .roc_name = "rocblas_double_complex", .kind = kType, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    {.cuda_name = "cuComplex", .hip_name = "hipComplex", .roc_name = "rocblas_float_complex", .kind = kType, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
    // Include guard as the HIP library header spells it (hipforge addition; see the note in types_table.cc).
    {.cuda_name = "CU_COMPLEX_H_", .hip_name = "HIP_INCLUDE_HIP_HIP_COMPLEX_H", .kind = kMacro, .library = kComplex, .roc_state = kSupported, .hip_introduced = {1, 6}},
};

}  // namespace

std::span<const ApiMapping> ComplexTable() { return kRecords; }

}  // namespace hipforge::translate
