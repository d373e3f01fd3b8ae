#include "worker/translate/core/argument_rewrites.h"

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_set>

namespace hipforge::translate {
namespace {

using K = ArgumentRewriteKind;
using T = RewriteTarget;
using R = ArgumentRewrite;

// Facts about how HIP, hipSPARSE/rocSPARSE, hipSOLVER and MIOpen take arguments differently from CUDA
// (argument positions, casts and constants), as recorded in ROCm/HIPIFY's data; plus the arity overloads.
// Data file: exempt from the file-length rule.
constexpr std::array kRewrites = {
    R{"cudaGetDriverEntryPoint", 2, K::kInsertConstant, "{hip_version}", 0, 1, T::kHipOnly, false},
    R{"cudaFuncSetCacheConfig", 0, K::kCastToConstVoidPtr, "", 0, 1, T::kHipOnly, false},
    R{"cudaFuncSetSharedMemConfig", 0, K::kCastToConstVoidPtr, "", 0, 1, T::kHipOnly, false},
    R{"cudaFuncGetAttributes", 1, K::kCastToConstVoidPtr, "", 0, 1, T::kHipOnly, false},
    R{"cudaFuncSetAttribute", 0, K::kCastToConstVoidPtr, "", 0, 1, T::kHipOnly, false},
    R{"cudaLaunchKernel", 0, K::kCastToConstVoidPtr, "", 0, 1, T::kHipOnly, false},
    R{"cudaLaunchCooperativeKernel", 0, K::kCastToConstVoidPtr, "", 0, 1, T::kHipOnly, false},
    R{"cudaMallocHost", 3, K::kInsertConstant, "hipHostMallocDefault", 0, 1, T::kHipOnly, false},
    R{"cudaMemcpyToSymbol", 0, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaMemcpyToSymbolAsync", 0, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaGetSymbolSize", 1, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaGetSymbolAddress", 1, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaMemcpyFromSymbol", 1, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaMemcpyFromSymbolAsync", 1, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaGraphAddMemcpyNodeToSymbol", 4, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaGraphAddMemcpyNodeFromSymbol", 5, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaGraphMemcpyNodeSetParamsToSymbol", 1, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaGraphMemcpyNodeSetParamsFromSymbol", 2, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaGraphExecMemcpyNodeSetParamsToSymbol", 2, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaGraphExecMemcpyNodeSetParamsFromSymbol", 3, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cudaGetTextureReference", 1, K::kWrapHipSymbol, "", 0, 1, T::kHipOnly, false},
    R{"cuOccupancyMaxPotentialBlockSize", 3, K::kRemove, "", 0, 1, T::kHipOnly, true},
    R{"cuOccupancyMaxPotentialBlockSizeWithFlags", 3, K::kRemove, "", 0, 1, T::kHipOnly, true},
    R{"cudnnGetConvolutionForwardWorkspaceSize", 1, K::kMoveArgument, "", 2, 1, T::kMiopenOnly, false},
    R{"cudnnGetConvolutionForwardWorkspaceSize", 2, K::kMoveArgument, "", 1, 1, T::kMiopenOnly, false},
    R{"cudnnGetConvolutionForwardWorkspaceSize", 5, K::kRemove, "", 0, 1, T::kMiopenOnly, false},
    R{"cudnnGetConvolutionBackwardDataWorkspaceSize", 1, K::kMoveArgument, "", 2, 1, T::kMiopenOnly, false},
    R{"cudnnGetConvolutionBackwardDataWorkspaceSize", 2, K::kMoveArgument, "", 1, 1, T::kMiopenOnly, false},
    R{"cudnnGetConvolutionBackwardDataWorkspaceSize", 5, K::kRemove, "", 0, 1, T::kMiopenOnly, false},
    R{"cudnnFindConvolutionForwardAlgorithmEx", 13, K::kInsertConstant, "true", 0, 1, T::kMiopenOnly, false},
    R{"cudnnSetPooling2dDescriptor", 2, K::kRemove, "", 0, 1, T::kMiopenOnly, false},
    R{"cudnnGetPooling2dDescriptor", 2, K::kRemove, "", 0, 1, T::kMiopenOnly, false},
    R{"cudnnSetPoolingNdDescriptor", 2, K::kRemove, "", 0, 1, T::kMiopenOnly, false},
    R{"cudnnGetPoolingNdDescriptor", 3, K::kRemove, "", 0, 1, T::kMiopenOnly, false},
    R{"cudnnSetLRNDescriptor", 1, K::kInsertConstant, "miopenLRNCrossChannel", 0, 1, T::kMiopenOnly, false},
    R{"cudnnGetRNNDescriptor_v6", 0, K::kRemove, "", 0, 1, T::kMiopenOnly, false},
    R{"cudnnSetRNNDescriptor_v6", 0, K::kRemove, "", 0, 1, T::kMiopenOnly, false},
    R{"cudnnSoftmaxForward", 1, K::kMoveArgument, "", 9, 2, T::kMiopenOnly, false},
    R{"cudnnSoftmaxBackward", 1, K::kMoveArgument, "", 11, 2, T::kMiopenOnly, false},
    R{"cudnnConvolutionForward", 8, K::kMoveArgument, "", 13, 2, T::kMiopenOnly, false},
    R{"cudnnConvolutionBackwardData", 2, K::kMoveArgument, "", 4, 2, T::kMiopenOnly, false},
    R{"cudnnConvolutionBackwardData", 4, K::kMoveArgument, "", 2, 2, T::kMiopenOnly, false},
    R{"cudnnConvolutionBackwardData", 8, K::kMoveArgument, "", 13, 2, T::kMiopenOnly, false},
    R{"cudnnRNNBackwardWeights", 9, K::kMoveArgument, "", 11, 2, T::kMiopenOnly, false},
    R{"cudnnRNNBackwardWeights", 11, K::kMoveArgument, "", 9, 2, T::kMiopenOnly, false},
    R{"cusparseZgpsvInterleavedBatch", 9, K::kCopyArgument, "", 10, 1, T::kRocOnly, false},
    R{"cusparseCgpsvInterleavedBatch", 9, K::kCopyArgument, "", 10, 1, T::kRocOnly, false},
    R{"cusparseDgpsvInterleavedBatch", 9, K::kCopyArgument, "", 10, 1, T::kRocOnly, false},
    R{"cusparseSgpsvInterleavedBatch", 9, K::kCopyArgument, "", 10, 1, T::kRocOnly, false},
    R{"cusparseZgpsvInterleavedBatch_bufferSizeExt", 9, K::kCopyArgument, "", 10, 1, T::kRocOnly, false},
    R{"cusparseCgpsvInterleavedBatch_bufferSizeExt", 9, K::kCopyArgument, "", 10, 1, T::kRocOnly, false},
    R{"cusparseDgpsvInterleavedBatch_bufferSizeExt", 9, K::kCopyArgument, "", 10, 1, T::kRocOnly, false},
    R{"cusparseSgpsvInterleavedBatch_bufferSizeExt", 9, K::kCopyArgument, "", 10, 1, T::kRocOnly, false},
    R{"cusparseZgtsvInterleavedBatch", 7, K::kCopyArgument, "", 8, 1, T::kRocOnly, false},
    R{"cusparseCgtsvInterleavedBatch", 7, K::kCopyArgument, "", 8, 1, T::kRocOnly, false},
    R{"cusparseDgtsvInterleavedBatch", 7, K::kCopyArgument, "", 8, 1, T::kRocOnly, false},
    R{"cusparseSgtsvInterleavedBatch", 7, K::kCopyArgument, "", 8, 1, T::kRocOnly, false},
    R{"cusparseZgtsvInterleavedBatch_bufferSizeExt", 7, K::kCopyArgument, "", 8, 1, T::kRocOnly, false},
    R{"cusparseCgtsvInterleavedBatch_bufferSizeExt", 7, K::kCopyArgument, "", 8, 1, T::kRocOnly, false},
    R{"cusparseDgtsvInterleavedBatch_bufferSizeExt", 7, K::kCopyArgument, "", 8, 1, T::kRocOnly, false},
    R{"cusparseSgtsvInterleavedBatch_bufferSizeExt", 7, K::kCopyArgument, "", 8, 1, T::kRocOnly, false},
    R{"cusparseZcsrilu02", 8, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsrilu02", 8, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsrilu02", 8, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrilu02", 8, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsrilu02_analysis", 8, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseZcsrilu02_analysis", 9, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsrilu02_analysis", 8, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseCcsrilu02_analysis", 9, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsrilu02_analysis", 8, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseDcsrilu02_analysis", 9, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrilu02_analysis", 8, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseScsrilu02_analysis", 9, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsric02_analysis", 8, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseZcsric02_analysis", 9, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsric02_analysis", 8, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseCcsric02_analysis", 9, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsric02_analysis", 8, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseDcsric02_analysis", 9, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseScsric02_analysis", 8, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseScsric02_analysis", 9, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsric02_bufferSize", 8, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsric02_bufferSize", 8, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsric02_bufferSize", 8, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseScsric02_bufferSize", 8, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseZbsrilu02", 10, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCbsrilu02", 10, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDbsrilu02", 10, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseSbsrilu02", 10, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZbsrilu02_analysis", 10, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseZbsrilu02_analysis", 11, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCbsrilu02_analysis", 10, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseCbsrilu02_analysis", 11, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDbsrilu02_analysis", 10, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseDbsrilu02_analysis", 11, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseSbsrilu02_analysis", 10, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseSbsrilu02_analysis", 11, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZbsric02", 10, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCbsric02", 10, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDbsric02", 10, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseSbsric02", 10, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZbsric02_analysis", 10, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseZbsric02_analysis", 11, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCbsric02_analysis", 10, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseCbsric02_analysis", 11, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDbsric02_analysis", 10, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseDbsric02_analysis", 11, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseSbsric02_analysis", 10, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseSbsric02_analysis", 11, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZbsric02_bufferSize", 10, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCbsric02_bufferSize", 10, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseDbsric02_bufferSize", 10, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseSbsric02_bufferSize", 10, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseZbsrsm2_bufferSize", 13, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCbsrsm2_bufferSize", 13, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseDbsrsm2_bufferSize", 13, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseSbsrsm2_bufferSize", 13, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsrsm2_solve", 15, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsrsm2_solve", 15, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsrsm2_solve", 15, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrsm2_solve", 15, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsrsm2_analysis", 15, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseZcsrsm2_analysis", 16, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsrsm2_analysis", 15, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseCcsrsm2_analysis", 16, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsrsm2_analysis", 15, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseDcsrsm2_analysis", 16, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrsm2_analysis", 15, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseScsrsm2_analysis", 16, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrsm2_bufferSizeExt", 15, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly,
      false},
    R{"cusparseDcsrsm2_bufferSizeExt", 15, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly,
      false},
    R{"cusparseCcsrsm2_bufferSizeExt", 15, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly,
      false},
    R{"cusparseZcsrsm2_bufferSizeExt", 15, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly,
      false},
    R{"cusparseZgemvi_bufferSize", 5, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCgemvi_bufferSize", 5, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseDgemvi_bufferSize", 5, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseSgemvi_bufferSize", 5, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsrsv2_solve", 12, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsrsv2_solve", 12, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsrsv2_solve", 12, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrsv2_solve", 12, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsrsv2_analysis", 9, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseZcsrsv2_analysis", 10, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsrsv2_analysis", 9, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseCcsrsv2_analysis", 10, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsrsv2_analysis", 9, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseDcsrsv2_analysis", 10, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrsv2_analysis", 9, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseScsrsv2_analysis", 10, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsrmv", 10, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsrmv", 10, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsrmv", 10, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrmv", 10, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseZbsrsv2_solve", 14, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCbsrsv2_solve", 14, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDbsrsv2_solve", 14, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseSbsrsv2_solve", 14, K::kReplaceWithConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZbsrsv2_analysis", 11, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseZbsrsv2_analysis", 12, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseCbsrsv2_analysis", 11, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseCbsrsv2_analysis", 12, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseDbsrsv2_analysis", 11, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseDbsrsv2_analysis", 12, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseSbsrsv2_analysis", 11, K::kReplaceWithConstant, "rocsparse_analysis_policy_force", 0, 1, T::kRocOnly,
      false},
    R{"cusparseSbsrsv2_analysis", 12, K::kInsertConstant, "rocsparse_solve_policy_auto", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsrmm", 2, K::kInsertConstant, "rocsparse_operation_none", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsrmm", 2, K::kInsertConstant, "rocsparse_operation_none", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsrmm", 2, K::kInsertConstant, "rocsparse_operation_none", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrmm", 2, K::kInsertConstant, "rocsparse_operation_none", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsrgeam2", 19, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsrgeam2", 19, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsrgeam2", 19, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrgeam2", 19, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseZbsrsv2_bufferSize", 11, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCbsrsv2_bufferSize", 11, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseDbsrsv2_bufferSize", 11, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseSbsrsv2_bufferSize", 11, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsrsv2_bufferSize", 9, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsrsv2_bufferSize", 9, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsrsv2_bufferSize", 9, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrsv2_bufferSize", 9, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseZcsrgemm2", 1, K::kInsertConstant, "rocsparse_operation_none, rocsparse_operation_none", 0, 1,
      T::kRocOnly, false},
    R{"cusparseCcsrgemm2", 1, K::kInsertConstant, "rocsparse_operation_none, rocsparse_operation_none", 0, 1,
      T::kRocOnly, false},
    R{"cusparseDcsrgemm2", 1, K::kInsertConstant, "rocsparse_operation_none, rocsparse_operation_none", 0, 1,
      T::kRocOnly, false},
    R{"cusparseScsrgemm2", 1, K::kInsertConstant, "rocsparse_operation_none, rocsparse_operation_none", 0, 1,
      T::kRocOnly, false},
    R{"cusparseZcsrilu02_bufferSize", 8, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCcsrilu02_bufferSize", 8, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseDcsrilu02_bufferSize", 8, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseScsrilu02_bufferSize", 8, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseZbsrilu02_bufferSize", 10, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCbsrilu02_bufferSize", 10, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseDbsrilu02_bufferSize", 10, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseSbsrilu02_bufferSize", 10, K::kCastToSizeTPtr, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCsr2cscEx2_bufferSize", 4, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCsr2cscEx2_bufferSize", 7, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCsr2cscEx2_bufferSize", 8, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCsr2cscEx2_bufferSize", 9, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCsr2cscEx2_bufferSize", 10, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCsr2cscEx2_bufferSize", 12, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseCsr2cscEx2_bufferSize", 13, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseSparseToDense", 4, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseSparseToDense_bufferSize", 5, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseDenseToSparse_bufferSize", 5, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseDenseToSparse_analysis", 4, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseSpMM_bufferSize", 10, K::kInsertConstant, "rocsparse_spmm_stage_compute", 0, 1, T::kRocOnly, false},
    R{"cusparseSpMM_bufferSize", 12, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseSpSM_analysis", 9, K::kReplaceWithConstant, "rocsparse_spsm_stage_compute", 0, 1, T::kRocOnly, false},
    R{"cusparseSpSM_analysis", 10, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseSpSM_solve", 9, K::kReplaceWithConstant, "rocsparse_spsm_stage_compute", 0, 1, T::kRocOnly, false},
    R{"cusparseSpSM_solve", 10, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseSpSM_solve", 11, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseSpSM_solve", 10, K::kInsertConstant, "nullptr", 0, 1, T::kHipOnly, false},
    R{"cusparseXcsrgeam2Nnz", 14, K::kRemove, "", 0, 1, T::kRocOnly, false},
    R{"cusparseSpMM", 10, K::kInsertConstant, "rocsparse_spmm_stage_compute, nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseSpVV_bufferSize", 7, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseSpVV", 6, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseSpMV_bufferSize", 9, K::kInsertConstant, "rocsparse_spmv_stage_buffer_size", 0, 1, T::kRocOnly, false},
    R{"cusparseSpMV_bufferSize", 11, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cusparseSpMV", 9, K::kInsertConstant, "rocsparse_spmv_stage_compute", 0, 1, T::kRocOnly, false},
    R{"cusparseSpMM_preprocess", 10, K::kInsertConstant, "rocsparse_spmm_stage_preprocess, nullptr", 0, 1, T::kRocOnly,
      false},
    R{"cusparseSpSV_bufferSize", 8, K::kReplaceWithConstant, "rocsparse_spsv_stage_buffer_size", 0, 1, T::kRocOnly,
      false},
    R{"cusparseSpSV_bufferSize", 10, K::kInsertConstant, "nullptr", 0, 1, T::kRocOnly, false},
    R{"cudaEventCreate", 2, K::kRenameForArity, "hipEventCreateWithFlags", 0, 1, T::kAny, false},
    R{"cudaGraphInstantiate", 3, K::kRenameForArity, "hipGraphInstantiateWithFlags", 0, 1, T::kAny, false},
    // hipforge: HIP's bf16 has no float-taking pair constructors (checked: HIP 5.7.1, 6.4.3); it builds the pair
    // from bfloat16 halves, each converted with __float2bfloat16 (round-to-nearest-even, as CUDA's _rn).
    R{"__float2bfloat162_rn", 0, K::kWrapInCall, "__float2bfloat16", 0, 1, T::kHipOnly, false},
    R{"__floats2bfloat162_rn", 0, K::kWrapInCall, "__float2bfloat16", 0, 1, T::kHipOnly, false},
    R{"__floats2bfloat162_rn", 1, K::kWrapInCall, "__float2bfloat16", 0, 1, T::kHipOnly, false},
    // CUDA has only __ffsll(long long); HIP also has an unsigned long long overload, so a 32-bit argument is
    // ambiguous there (HeCBench btree-cuda): the argument becomes long long, as CUDA converts it.
    R{"__ffsll", 0, K::kWrapInCall, "static_cast<long long>", 0, 1, T::kHipOnly, false},
};

bool Applies(RewriteTarget target, const TranslateOptions& options) {
  switch (target) {
    case RewriteTarget::kAny: return true;
    case RewriteTarget::kHipOnly: return !options.roc && !options.miopen;
    case RewriteTarget::kRocOnly: return options.roc && !options.miopen;
    case RewriteTarget::kMiopenOnly: return options.miopen;
  }
  return false;
}

std::string Constant(std::string_view text, const TranslateOptions& options) {
  if (text != "{hip_version}") return std::string(text);
  return std::to_string(options.target_hip_version.major * 100 + options.target_hip_version.minor);
}

std::string_view CastPrefix(ArgumentRewriteKind kind) {
  switch (kind) {
    case K::kWrapHipSymbol: return "HIP_SYMBOL(";
    case K::kCastToConstVoidPtr: return "reinterpret_cast<const void*>(";
    case K::kCastToSizeTPtr: return "reinterpret_cast<size_t*>(";
    case K::kCastToUint64: return "static_cast<uint64_t>(";
    case K::kCastToInt32: return "int32_t(";
    case K::kCastToInt64: return "int64_t(";
    default: return {};
  }
}

}  // namespace

std::span<const ArgumentRewrite> ArgumentRewrites() { return kRewrites; }

bool HasArgumentRewrites(std::string_view function) {
  static const std::unordered_set<std::string_view> kFunctions = [] {
    std::unordered_set<std::string_view> names;
    for (const ArgumentRewrite& rewrite : kRewrites) names.insert(rewrite.function);
    return names;
  }();
  return kFunctions.count(function) > 0;
}

std::vector<TextEdit> RewriteCallArguments(std::string_view function, const CallShape& call, std::string_view content,
                                           const TranslateOptions& options, std::vector<std::string>* warnings) {
  // Insertions at one point are joined in argument order (hipify's order).
  std::vector<TextEdit> edits;
  auto add = [&](uint32_t offset, uint32_t length, std::string text) {
    if (length == 0) {
      for (TextEdit& edit : edits) {
        if (edit.length == 0 && edit.offset == offset) {
          edit.replacement += text;
          return;
        }
      }
    }
    edits.push_back({offset, length, std::move(text), "arguments"});
  };
  const unsigned arg_count = static_cast<unsigned>(call.args.size());
  auto arg = [&](unsigned index) -> std::optional<ByteRange> {
    if (index >= arg_count) return std::nullopt;
    return call.args[index];
  };
  for (const ArgumentRewrite& rewrite : kRewrites) {
    if (rewrite.function != function || !Applies(rewrite.target, options)) continue;
    const auto range = arg(rewrite.argument);
    switch (rewrite.kind) {
      case K::kWrapHipSymbol:
      case K::kCastToConstVoidPtr:
      case K::kCastToSizeTPtr:
      case K::kCastToUint64:
      case K::kCastToInt32:
      case K::kCastToInt64:
        if (!range) break;
        add(range->begin, 0, std::string(CastPrefix(rewrite.kind)));
        add(range->end, 0, ")");
        break;
      case K::kWrapInCall:
        if (!range) break;
        add(range->begin, 0, std::string(rewrite.text) + "(");
        add(range->end, 0, ")");
        break;
      case K::kInsertConstant:
        if (range) {
          add(range->begin, 0, Constant(rewrite.text, options) + ", ");
        } else {
          add(call.close_paren, 0, (arg_count ? ", " : "") + Constant(rewrite.text, options));
        }
        break;
      case K::kReplaceWithConstant:
        if (range) add(range->begin, range->end - range->begin, Constant(rewrite.text, options));
        break;
      case K::kRemove:
        if (!range) break;
        if (const auto next = arg(rewrite.argument + 1)) {
          add(range->begin, next->begin - range->begin, "");
        } else if (const auto previous = rewrite.argument > 0 ? arg(rewrite.argument - 1) : std::nullopt) {
          add(previous->end, range->end - previous->end, "");
        } else {
          add(range->begin, range->end - range->begin, "");
        }
        if (rewrite.may_lose_data && warnings) {
          warnings->push_back("possible data loss: argument " + std::to_string(rewrite.argument + 1) + " of '" +
                              std::string(function) + "' has no HIP counterpart and was removed.");
        }
        break;
      case K::kCopyArgument:
      case K::kMoveArgument: {
        const unsigned last_index = rewrite.argument + rewrite.count - 1;
        const auto last = arg(last_index);
        if (!range || !last) break;
        const std::string moved(content.substr(range->begin, last->end - range->begin));
        if (const auto destination = arg(rewrite.to)) {
          add(destination->begin, 0, moved + ", ");
        } else {
          add(call.close_paren, 0, ", " + moved);
        }
        if (rewrite.kind == K::kMoveArgument) {
          const auto after = arg(last_index + 1);
          add(range->begin, (after ? after->begin : call.close_paren) - range->begin, "");
        }
        break;
      }
      case K::kRenameForArity:
        if (arg_count == rewrite.argument) {
          add(call.callee.begin, call.callee.end - call.callee.begin, std::string(rewrite.text));
        }
        break;
    }
  }
  return edits;
}

}  // namespace hipforge::translate
