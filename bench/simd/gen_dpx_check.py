#!/usr/bin/env python3
# gen_dpx_check.py SHIM_HEADER OUT.cu [--mutate]: a CUDA program checking the translator's DPX shim (Hopper's
# __vimax3_s32, __viaddmax_s16x2_relu, __vibmax_u32, ...: worker/translate/core/simd_intrinsics_shim.h) against
# CUDA's own on an NVIDIA GPU, bit for bit, the predicate outputs included. --mutate plants two errors.
import re, sys
header = open(sys.argv[1]).read()
code = header[header.index('R"hipforge_dpx(') + len('R"hipforge_dpx('):header.index(')hipforge_dpx"')]
start = code.index('\n', code.index('#if !defined(__HIP_PLATFORM_NVIDIA__)')) + 1
body = code[start:code.rindex('#endif', 0, code.rindex('#endif'))]
names = re.findall(r'"(__vi\w+)"', header[header.index('kDpxIntrinsicNames'):header.index('kDpxIntrinsicsCode')])
if '--mutate' in sys.argv:
    body = body.replace('hipforge_dpx::Wrap16(x + y), z))\n', '(x + y), z))\n', 1).replace('*pred = a >= b; return hipforge_dpx::Max', '*pred = a > b; return hipforge_dpx::Max', 1)
def kind(n):
    if n.startswith(('__vibmax', '__vibmin')): return 'pred2' if '16x2' in n else 'pred1'
    if re.match(r'__vi(max|min)_', n): return 'two'
    return 'three'
out = ['#include <cstdio>', '#include <cstdlib>', '#include <cuda_runtime.h>']
out += [f'#define {n} hipforge_shim{n}' for n in names] + [body] + [f'#undef {n}' for n in names]
out += ['__device__ unsigned long long Mix(unsigned long long x) { x += 0x9e3779b97f4a7c15ull; x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull; x = (x ^ (x >> 27)) * 0x94d049bb133111ebull; return x ^ (x >> 31); }',
        '// 1024 values around 0, the signed and the unsigned limits, for a halfword (wide = 0) or a word.',
        '__device__ unsigned int Edge(unsigned int k, int wide) {',
        '  const unsigned int top = wide ? 0x7fffff00u : 0x7f00u, neg = wide ? 0x80000000u : 0x8000u, max = wide ? 0xffffff00u : 0xff00u;',
        '  return k < 256 ? k : k < 512 ? top + (k - 256) : k < 768 ? neg + (k - 512) : max + (k - 768); }',
        'constexpr unsigned long long kStructured = 1024ull * 1024ull * 1024ull;',
        '__device__ void Inputs(unsigned long long i, int f, int wide, unsigned int& a, unsigned int& b, unsigned int& c) {',
        '  if (i < kStructured) {',
        '    const unsigned int x = Edge(i & 1023, wide), y = Edge((i >> 10) & 1023, wide), z = Edge(i >> 20, wide);',
        '    if (wide) { a = x; b = y; c = z; } else { a = x | y << 16; b = y | z << 16; c = z | x << 16; }',
        '    return; }',
        '  const unsigned long long r = Mix(i * 131 + f), s = Mix(r); a = (unsigned)r; b = (unsigned)(r >> 32); c = (unsigned)s; }',
        'struct Mismatch { unsigned long long count; unsigned int a, b, c; unsigned long long native, shim; };',
        '__global__ void Check(unsigned long long n, Mismatch* out) {',
        '  const int f = blockIdx.y;',
        '  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n; i += (unsigned long long)gridDim.x * blockDim.x) {',
        '    unsigned int a, b, c; unsigned long long native = 0, shim = 0; bool p1 = false, p2 = false, q1 = false, q2 = false;',
        '    switch (f) {']
for k, n in enumerate(names):
    wide = 0 if '16x2' in n else 1
    t = '(int)' if n.endswith(('_s32', '_s32_relu')) else '(unsigned)'
    kd = kind(n)
    if kd == 'two': call = lambda fn: f'(unsigned){fn}({t}a, {t}b)'
    elif kd == 'three': call = lambda fn: f'(unsigned){fn}({t}a, {t}b, {t}c)'
    elif kd == 'pred1': call = None
    else: call = None
    if kd in ('two', 'three'):
        out.append(f'      case {k}: Inputs(i, f, {wide}, a, b, c); native = {call(n)}; shim = {call("hipforge_shim" + n)}; break;')
    elif kd == 'pred1':
        out.append(f'      case {k}: Inputs(i, f, {wide}, a, b, c); native = (unsigned){n}({t}a, {t}b, &p1) | (unsigned long long)p1 << 32; shim = (unsigned)hipforge_shim{n}({t}a, {t}b, &q1) | (unsigned long long)q1 << 32; break;')
    else:
        out.append(f'      case {k}: Inputs(i, f, {wide}, a, b, c); native = {n}(a, b, &p1, &p2) | (unsigned long long)p1 << 32 | (unsigned long long)p2 << 33; shim = hipforge_shim{n}(a, b, &q1, &q2) | (unsigned long long)q1 << 32 | (unsigned long long)q2 << 33; break;')
out += ['    }',
        '    if (native != shim) { if (atomicAdd(&out[f].count, 1ull) == 0) { out[f].a = a; out[f].b = b; out[f].c = c; out[f].native = native; out[f].shim = shim; } }',
        '  }', '}',
        'int main(int argc, char** argv) {',
        f'  const int functions = {len(names)};',
        '  const char* names[] = {' + ', '.join(f'"{n}"' for n in names) + '};',
        '  const unsigned long long n = kStructured + (argc > 1 ? strtoull(argv[1], nullptr, 10) : (1ull << 26));',
        '  Mismatch* d = nullptr; cudaMalloc(&d, sizeof(Mismatch) * functions); cudaMemset(d, 0, sizeof(Mismatch) * functions);',
        '  cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e); cudaEventRecord(s);',
        '  Check<<<dim3(4096, functions), 256>>>(n, d);',
        '  cudaEventRecord(e); cudaError_t err = cudaDeviceSynchronize(); float ms = 0; cudaEventElapsedTime(&ms, s, e);',
        '  if (err != cudaSuccess) { printf("CUDA error %s\\n", cudaGetErrorString(err)); return 2; }',
        '  Mismatch h[functions]; cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);',
        '  int bad = 0;',
        '  for (int f = 0; f < functions; ++f) { if (h[f].count) { ++bad; printf("MISMATCH %s: %llu of %llu, first a=%08x b=%08x c=%08x cuda=%llx shim=%llx\\n", names[f], h[f].count, n, h[f].a, h[f].b, h[f].c, h[f].native, h[f].shim); } }',
        '  printf("%d functions x %llu inputs (every triple of 1024 values around 0 and the limits, per lane; then random): %d differ; %.1f ms\\n", functions, n, bad, ms);',
        '  return bad ? 1 : 0;', '}']
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
