#include "worker/translate/core/compat_shims.h"

namespace hipforge::translate {

bool TargetHipLacks(const ApiMapping* record, ApiVersion target_hip_version) {
  if (!record || record->hip_state == SupportState::kUnsupported) return true;
  return record->hip_introduced.IsSet() && target_hip_version < record->hip_introduced;
}

std::string SyncWarpReplacement() {
  return "(__builtin_amdgcn_fence(__ATOMIC_RELEASE, \"wavefront\"), __builtin_amdgcn_wave_barrier(), "
         "__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, \"wavefront\"))";
}

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
         "for (unsigned int offset = Size / 2; offset > 0; offset /= 2) value = op(value, group.shfl_xor(value, "
         "offset)); "
         "return value; } }\n"
         "#endif";
}

bool IsPipelineHeader(std::string_view include_name) {
  return include_name == "cuda/pipeline" || include_name == "cuda_pipeline.h" ||
         include_name == "cuda_pipeline_primitives.h";
}

std::string PipelineFallbackShim() {
  // Few lines, like the reduce shim: the include it replaces is one line.
  return "#include <hip/hip_runtime.h>\n"
         "#ifndef HIPFORGE_PIPELINE_SHIM\n"
         "#define HIPFORGE_PIPELINE_SHIM /* hipforge: synchronous libcu++ pipeline (copy + barrier, no overlap) */\n"
         "namespace hipforge_pipeline_detail { "
         "__device__ inline void copy(void* dst, const void* src, size_t n, unsigned rank, unsigned count) { "
         "char* d = static_cast<char*>(dst); const char* s = static_cast<const char*>(src); "
         "if (((reinterpret_cast<size_t>(d) | reinterpret_cast<size_t>(s) | n) & 15) == 0) { "
         "for (size_t i = rank; i < n / 16; i += count) reinterpret_cast<int4*>(d)[i] = reinterpret_cast<const "
         "int4*>(s)[i]; "
         "} else { for (size_t i = rank; i < n; i += count) d[i] = s[i]; } } } "
         "namespace cuda { "
         "enum thread_scope { thread_scope_system, thread_scope_device, thread_scope_block, thread_scope_thread }; "
         "template <size_t Alignment> struct aligned_size_t { size_t value; "
         "__host__ __device__ constexpr explicit aligned_size_t(size_t v) : value(v) {} "
         "__host__ __device__ constexpr operator size_t() const { return value; } }; "
         "template <thread_scope Scope, unsigned char Stages = 1> struct pipeline_shared_state {}; "
         "enum class pipeline_role { producer, consumer }; "
         "template <thread_scope Scope> struct pipeline { "
         "__device__ void producer_acquire() {} __device__ void producer_commit() {} "
         "__device__ void consumer_wait() {} __device__ void consumer_release() {} __device__ bool quit() { return "
         "true; } }; "
         "__device__ inline pipeline<thread_scope_thread> make_pipeline() { return {}; } "
         "template <class Group, thread_scope Scope, unsigned char Stages> "
         "__device__ pipeline<Scope> make_pipeline(const Group&, pipeline_shared_state<Scope, Stages>*) { return {}; } "
         "template <class Group, thread_scope Scope, unsigned char Stages, class Role> "
         "__device__ pipeline<Scope> make_pipeline(const Group&, pipeline_shared_state<Scope, Stages>*, Role) { "
         "static_assert(sizeof(Group) == 0, \"hipforge: a producer/consumer-partitioned cuda::pipeline has no "
         "synchronous "
         "fallback; needs a person\"); return {}; } "
         "template <unsigned char Prior, thread_scope Scope> __device__ void "
         "pipeline_consumer_wait_prior(pipeline<Scope>&) {} "
         "template <class Group, class T, class Size, thread_scope Scope> "
         "__device__ void memcpy_async(const Group& group, T* dst, const T* src, Size size, pipeline<Scope>&) { "
         "group.sync(); hipforge_pipeline_detail::copy(dst, src, static_cast<size_t>(size), group.thread_rank(), "
         "group.size()); "
         "group.sync(); } "
         "template <class T, class Size, thread_scope Scope> "
         "__device__ void memcpy_async(T* dst, const T* src, Size size, pipeline<Scope>&) { "
         "hipforge_pipeline_detail::copy(dst, src, static_cast<size_t>(size), 0, 1); } } "
         "__device__ inline void __pipeline_memcpy_async(void* dst, const void* src, size_t size, size_t zfill = 0) { "
         "hipforge_pipeline_detail::copy(dst, src, size - zfill, 0, 1); "
         "for (size_t i = size - zfill; i < size; ++i) static_cast<char*>(dst)[i] = 0; } "
         "__device__ inline void __pipeline_commit() {} __device__ inline void __pipeline_wait_prior(size_t) {}\n"
         "#endif";
}

std::optional<std::string> MetaGroupRewrite(std::string_view object, std::string_view access, std::string_view member) {
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
