#include "worker/translate/core/compat_shims.h"

namespace hipforge::translate {

std::string CooperativeGroupsReduceShim() {
  // Kept on few lines: the include it replaces is one line, and every extra line shifts the rest of the file.
  return "#include <hip/hip_cooperative_groups.h>\n"
         "#ifndef HIPFORGE_CG_REDUCE_SHIM\n"
         "#define HIPFORGE_CG_REDUCE_SHIM /* hipforge: HIP lacks cooperative_groups::reduce; warp tiles only */\n"
         "namespace cooperative_groups { "
         "template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } }; "
         "template <class T> struct less { __device__ T operator()(T a, T b) const { return b < a ? b : a; } }; "
         "template <class T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } }; "
         "template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } }; "
         "template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } }; "
         "template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } }; "
         "template <unsigned int Size, class Parent, class T, class Op> __device__ T reduce("
         "const thread_block_tile<Size, Parent>& group, T value, Op op) { "
         "for (unsigned int offset = Size / 2; offset > 0; offset /= 2) value = op(value, group.shfl_xor(value, offset)); "
         "return value; } }\n"
         "#endif";
}

std::optional<std::string> MetaGroupRewrite(std::string_view object, std::string_view access,
                                            std::string_view member) {
  const std::string tile = std::string(object) + std::string(access);
  if (member == "meta_group_rank") {
    return "(cooperative_groups::this_thread_block().thread_rank() / " + tile + "size())";
  }
  if (member == "meta_group_size") {
    return "((cooperative_groups::this_thread_block().size() + " + tile + "size() - 1) / " + tile + "size())";
  }
  return std::nullopt;
}

}  // namespace hipforge::translate
