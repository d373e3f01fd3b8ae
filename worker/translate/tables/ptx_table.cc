#include "worker/translate/tables/ptx_table.h"

namespace hipforge::translate {
namespace {

using enum PtxRewrite;

constexpr std::string_view kApproxMath =
    "HIP's function is at least as accurate as PTX's .approx instruction; results may differ in the last bits";

constexpr PtxIdiom kIdioms[] = {
    // Special registers.
    {"mov.u32 $d,%laneid", "$d = __lane_id()"},
    {"mov.s32 $d,%laneid", "$d = __lane_id()"},
    {"mov.u32 $d,%smid", "$d = __smid()"},
    {"mov.u32 $d,%warpid", "$d = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / warpSize",
     kTemplate,
     "%warpid is the hardware warp slot (PTX says it may change during execution); the rewrite gives the wave's "
     "index in its block, which is what code reading it almost always wants"},
    {"mov.u32 $d,%clock", "$d = static_cast<unsigned int>(clock64())"},
    {"mov.u64 $d,%clock64", "$d = clock64()"},
    {"mov.u64 $d,%globaltimer", "$d = wall_clock64()", kTemplate,
     "%globaltimer counts nanoseconds; wall_clock64() ticks at hipDeviceAttributeWallClockRate kHz (100 MHz on "
     "MI200/MI300): scale differences by 1e6 / rate to get nanoseconds"},
    // Bit manipulation.
    {"prmt.b32 $d,$a,$b,$c", "$d = __byte_perm($a, $b, $c)"},
    {"brev.b32 $d,$a", "$d = __brev($a)"},
    {"brev.b64 $d,$a", "$d = __brevll($a)"},
    {"popc.b32 $d,$a", "$d = __popc($a)"},
    {"popc.b64 $d,$a", "$d = __popcll($a)"},
    {"clz.b32 $d,$a", "$d = __clz($a)"},
    {"clz.b64 $d,$a", "$d = __clzll($a)"},
    {"bfe.u32 $d,$a,#b,#c", "", kBitFieldExtract},
    {"bfe.u64 $d,$a,#b,#c", "", kBitFieldExtract},
    {"bfi.b32 $d,$a,$b,#c,#d", "", kBitFieldInsert},
    {"bfi.b64 $d,$a,$b,#c,#d", "", kBitFieldInsert},
    {"lop3.b32 $d,$a,$b,$c,#d", "", kLop3},
    // Loads through the read-only (non-coherent) path.
    {"ld.global.nc.f32 $d,[$a]", "$d = __ldg(reinterpret_cast<const float*>($a))"},
    {"ld.global.nc.f64 $d,[$a]", "$d = __ldg(reinterpret_cast<const double*>($a))"},
    {"ld.global.nc.u32 $d,[$a]", "$d = __ldg(reinterpret_cast<const unsigned int*>($a))"},
    {"ld.global.nc.s32 $d,[$a]", "$d = __ldg(reinterpret_cast<const int*>($a))"},
    {"ld.global.nc.b32 $d,[$a]", "$d = __ldg(reinterpret_cast<const unsigned int*>($a))"},
    {"ld.global.nc.u64 $d,[$a]", "$d = __ldg(reinterpret_cast<const unsigned long long*>($a))"},
    {"ld.global.nc.s64 $d,[$a]", "$d = __ldg(reinterpret_cast<const long long*>($a))"},
    {"ld.global.nc.b64 $d,[$a]", "$d = __ldg(reinterpret_cast<const unsigned long long*>($a))"},
    // Fused multiply-add, round to nearest even.
    {"fma.rn.f32 $d,$a,$b,$c", "$d = __fmaf_rn($a, $b, $c)"},
    {"fma.rn.f64 $d,$a,$b,$c", "$d = __fma_rn($a, $b, $c)"},
    // Warp shuffles over 32 lanes (c = 0x1f: no sub-segments; shfl.up's clamp value is 0).
    {"shfl.sync.bfly.b32 $d,$a,$b,0x1f,0xffffffff", "$d = __shfl_xor($a, $b, 32)"},
    {"shfl.sync.down.b32 $d,$a,$b,0x1f,0xffffffff", "$d = __shfl_down($a, $b, 32)"},
    {"shfl.sync.up.b32 $d,$a,$b,0,0xffffffff", "$d = __shfl_up($a, $b, 32)"},
    {"shfl.sync.idx.b32 $d,$a,$b,0x1f,0xffffffff", "$d = __shfl($a, $b, 32)"},
    {"shfl.sync.bfly.b32 $d,$a,$b,31,-1", "$d = __shfl_xor($a, $b, 32)"},
    {"shfl.sync.down.b32 $d,$a,$b,31,-1", "$d = __shfl_down($a, $b, 32)"},
    {"shfl.sync.idx.b32 $d,$a,$b,31,-1", "$d = __shfl($a, $b, 32)"},
    {"shfl.bfly.b32 $d,$a,$b,0x1f", "$d = __shfl_xor($a, $b, 32)"},
    {"shfl.down.b32 $d,$a,$b,0x1f", "$d = __shfl_down($a, $b, 32)"},
    {"shfl.up.b32 $d,$a,$b,0", "$d = __shfl_up($a, $b, 32)"},
    {"shfl.idx.b32 $d,$a,$b,0x1f", "$d = __shfl($a, $b, 32)"},
    // Votes on a predicate made from a register (the usual wrapping: {.reg .pred p; setp.ne... ; vote ...}).
    {"{.reg .pred &p;setp.ne.u32 &p,$a,0;vote.all.pred &p,&p;selp.u32 $d,1,0,&p;}", "$d = __all($a != 0)"},
    {"{.reg .pred &p;setp.ne.u32 &p,$a,0;vote.any.pred &p,&p;selp.u32 $d,1,0,&p;}", "$d = __any($a != 0)"},
    {"{.reg .pred &p;setp.ne.u32 &p,$a,0;vote.sync.all.pred &p,&p,0xffffffff;selp.u32 $d,1,0,&p;}",
     "$d = __all($a != 0)"},
    {"{.reg .pred &p;setp.ne.u32 &p,$a,0;vote.sync.any.pred &p,&p,0xffffffff;selp.u32 $d,1,0,&p;}",
     "$d = __any($a != 0)"},
    // Fences, barriers, traps.
    {"membar.gl", "__threadfence()"},
    {"membar.cta", "__threadfence_block()"},
    {"membar.sys", "__threadfence_system()"},
    {"fence.acq_rel.gpu", "__threadfence()"},
    {"fence.sc.gpu", "__threadfence()"},
    {"bar.sync 0", "__syncthreads()"},
    {"barrier.sync 0", "__syncthreads()"},
    {"trap", "__builtin_trap()"},
    // Approximate math: HIP's fast functions.
    {"tanh.approx.f32 $d,$a", "$d = tanhf($a)", kTemplate, kApproxMath},
    {"ex2.approx.f32 $d,$a", "$d = exp2f($a)", kTemplate, kApproxMath},
    {"ex2.approx.ftz.f32 $d,$a", "$d = exp2f($a)", kTemplate, kApproxMath},
    {"lg2.approx.f32 $d,$a", "$d = log2f($a)", kTemplate, kApproxMath},
    {"lg2.approx.ftz.f32 $d,$a", "$d = log2f($a)", kTemplate, kApproxMath},
    {"rcp.approx.f32 $d,$a", "$d = 1.0f / ($a)", kTemplate, kApproxMath},
    {"rcp.approx.ftz.f32 $d,$a", "$d = 1.0f / ($a)", kTemplate, kApproxMath},
    {"rsqrt.approx.f32 $d,$a", "$d = rsqrtf($a)", kTemplate, kApproxMath},
    {"rsqrt.approx.ftz.f32 $d,$a", "$d = rsqrtf($a)", kTemplate, kApproxMath},
    {"sqrt.approx.f32 $d,$a", "$d = sqrtf($a)", kTemplate, kApproxMath},
    {"sin.approx.f32 $d,$a", "$d = __sinf($a)", kTemplate, kApproxMath},
    {"cos.approx.f32 $d,$a", "$d = __cosf($a)", kTemplate, kApproxMath},
};

}  // namespace

std::span<const PtxIdiom> PtxIdioms() { return kIdioms; }

}  // namespace hipforge::translate
