#include "worker/translate/core/argument_rewrites.h"

#include <array>

namespace hipforge::translate {
namespace {

using K = ArgumentRewriteKind;

// Facts from the CUDA and HIP API references (HIP's symbol APIs take HIP_SYMBOL(x); HIP's function-attribute
// APIs take `const void*`; hipEventCreate has no flags overload).
constexpr std::array kRewrites = {
    ArgumentRewrite{"cudaMemcpyToSymbol", 0, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaMemcpyToSymbolAsync", 0, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaMemcpyFromSymbol", 1, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaMemcpyFromSymbolAsync", 1, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaGetSymbolSize", 1, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaGetSymbolAddress", 1, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaGraphAddMemcpyNodeToSymbol", 4, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaGraphAddMemcpyNodeFromSymbol", 5, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaGraphMemcpyNodeSetParamsToSymbol", 1, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaGraphMemcpyNodeSetParamsFromSymbol", 2, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaGraphExecMemcpyNodeSetParamsToSymbol", 2, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaGraphExecMemcpyNodeSetParamsFromSymbol", 3, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaGetTextureReference", 1, K::kWrapHipSymbol},
    ArgumentRewrite{"cudaFuncSetCacheConfig", 0, K::kCastToConstVoidPtr},
    ArgumentRewrite{"cudaFuncSetSharedMemConfig", 0, K::kCastToConstVoidPtr},
    ArgumentRewrite{"cudaFuncGetAttributes", 1, K::kCastToConstVoidPtr},
    ArgumentRewrite{"cudaFuncSetAttribute", 0, K::kCastToConstVoidPtr},
    ArgumentRewrite{"cudaLaunchKernel", 0, K::kCastToConstVoidPtr},
    ArgumentRewrite{"cudaLaunchCooperativeKernel", 0, K::kCastToConstVoidPtr},
    ArgumentRewrite{"cudaMallocHost", 3, K::kInsertConstant, "hipHostMallocDefault"},
    ArgumentRewrite{"cuOccupancyMaxPotentialBlockSize", 3, K::kRemove, "", RewriteTarget::kAny, true},
    ArgumentRewrite{"cuOccupancyMaxPotentialBlockSizeWithFlags", 3, K::kRemove, "", RewriteTarget::kAny, true},
    ArgumentRewrite{"cudaEventCreate", 2, K::kRenameForArity, "hipEventCreateWithFlags"},
    ArgumentRewrite{"cudaGraphInstantiate", 3, K::kRenameForArity, "hipGraphInstantiateWithFlags"},
    ArgumentRewrite{"cudnnSetPooling2dDescriptor", 2, K::kRemove, "", RewriteTarget::kMiopenOnly},
    ArgumentRewrite{"cudnnGetPooling2dDescriptor", 2, K::kRemove, "", RewriteTarget::kMiopenOnly},
    ArgumentRewrite{"cudnnSetPoolingNdDescriptor", 2, K::kRemove, "", RewriteTarget::kMiopenOnly},
    ArgumentRewrite{"cudnnGetPoolingNdDescriptor", 3, K::kRemove, "", RewriteTarget::kMiopenOnly},
    ArgumentRewrite{"cudnnSetLRNDescriptor", 1, K::kInsertConstant, "miopenLRNCrossChannel",
                    RewriteTarget::kMiopenOnly},
    ArgumentRewrite{"cudnnFindConvolutionForwardAlgorithmEx", 13, K::kInsertConstant, "true",
                    RewriteTarget::kMiopenOnly},
    ArgumentRewrite{"cudnnGetRNNDescriptor_v6", 0, K::kRemove, "", RewriteTarget::kMiopenOnly},
    ArgumentRewrite{"cudnnSetRNNDescriptor_v6", 0, K::kRemove, "", RewriteTarget::kMiopenOnly},
};

}  // namespace

std::span<const ArgumentRewrite> ArgumentRewrites() { return kRewrites; }

}  // namespace hipforge::translate
