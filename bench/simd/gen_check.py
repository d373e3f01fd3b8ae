#!/usr/bin/env python3
# gen_check.py SHIM_HEADER OUT.cu [--mutate]: writes a CUDA program that checks every SIMD intrinsic of the
# translator's shim (worker/translate/core/simd_intrinsics_shim.h) against CUDA's own on an NVIDIA GPU, bit for
# bit. --mutate plants two known errors (__vavgs* without rounding, __vsubus* without saturation) to show the
# check finds them. bench/simd/README.md has the runs.
import re, sys
header = open(sys.argv[1]).read()
code = header[header.index('R"hipforge_simd(') + len('R"hipforge_simd('):header.index(')hipforge_simd"')]
start = code.index('\n', code.index('#if !defined(__HIP_PLATFORM_NVIDIA__)')) + 1
body = code[start:code.rindex('#endif', 0, code.rindex('#endif'))]
names = re.findall(r'"(__v\w+)"', header[header.index('kSimdIntrinsicNames'):header.index('kSimdIntrinsicsCode')])
if '--mutate' in sys.argv:
    body = body.replace('(sa + sb + 1) >> 1', '(sa + sb) >> 1').replace('hipforge_simd::SatU<W>(ua - ub)', '(ua - ub)')
unary = {n for n in names if re.match(r'__v(abs|absss|neg|negss)[24]$', n)}
out = ['#include <cstdio>', '#include <cstdint>', '#include <cuda_runtime.h>']
out += [f'#define {n} hipforge_shim{n}' for n in names]
out += [body]
out += [f'#undef {n}' for n in names]
out += ['__device__ unsigned long long Mix(unsigned long long x) { x += 0x9e3779b97f4a7c15ull; x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull; x = (x ^ (x >> 27)) * 0x94d049bb133111ebull; return x ^ (x >> 31); }',
        '__device__ unsigned int Rep8(unsigned int x) { return x * 0x01010101u; }',
        '__device__ unsigned int Half(unsigned int k) { return k < 256 ? k : k < 768 ? 0x7f00 + (k - 256) : 0xff00 + (k - 768); }',
        'constexpr unsigned long long kStructured = 65536ull + 1024ull * 1024ull;',
        '__device__ void Inputs(unsigned long long i, int f, unsigned int& a, unsigned int& b, int exhaustive) {',
        '  if (exhaustive) { const unsigned hi = (unsigned)(i >> 16), lo = (unsigned)(i & 0xffff); a = hi | lo << 16; b = lo | hi << 16; return; }',
        '  if (i < 65536) { a = Rep8(i & 0xff) ^ (unsigned)(f & 1) * 0; b = Rep8(i >> 8); return; }',
        '  if (i < kStructured) { unsigned long long j = i - 65536; unsigned x = Half(j & 1023), y = Half(j >> 10); a = x | x << 16; b = y | (y ^ 0x8000) << 16; return; }',
        '  unsigned long long r = Mix(i * 131 + f); a = (unsigned)r; b = (unsigned)(r >> 32); }',
        'struct Mismatch { unsigned long long count; unsigned int a, b, native, shim; };',
        '__global__ void Check(unsigned long long n, Mismatch* out, int exhaustive) {',
        '  const int f = blockIdx.y;',
        '  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n; i += (unsigned long long)gridDim.x * blockDim.x) {',
        '    unsigned int a, b, native = 0, shim = 0; Inputs(i, f, a, b, exhaustive);',
        '    switch (f) {']
for k, n in enumerate(names):
    if n in unary:
        out.append(f'      case {k}: native = {n}(a); shim = hipforge_shim{n}(a); break;')
    else:
        out.append(f'      case {k}: native = {n}(a, b); shim = hipforge_shim{n}(a, b); break;')
out += ['    }',
        '    if (native != shim) { if (atomicAdd(&out[f].count, 1ull) == 0) { out[f].a = a; out[f].b = b; out[f].native = native; out[f].shim = shim; } }',
        '  }', '}',
        'int main(int argc, char** argv) {',
        f'  const int functions = {len(names)};',
        '  const char* names[] = {' + ', '.join(f'"{n}"' for n in names) + '};',
        '  const int exhaustive = argc > 1 && argv[1][0] == \'e\';',
        '  const unsigned long long n = exhaustive ? (1ull << 32) : kStructured + (argc > 1 ? strtoull(argv[1], nullptr, 10) : (1ull << 26));',
        '  Mismatch* d = nullptr; cudaMalloc(&d, sizeof(Mismatch) * functions); cudaMemset(d, 0, sizeof(Mismatch) * functions);',
        '  cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e); cudaEventRecord(s);',
        '  Check<<<dim3(4096, functions), 256>>>(n, d, exhaustive);',
        '  cudaEventRecord(e); cudaError_t err = cudaDeviceSynchronize(); float ms = 0; cudaEventElapsedTime(&ms, s, e);',
        '  if (err != cudaSuccess) { printf("CUDA error %s\\n", cudaGetErrorString(err)); return 2; }',
        '  Mismatch h[functions]; cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);',
        '  int bad = 0;',
        '  for (int f = 0; f < functions; ++f) { if (h[f].count) { ++bad; printf("MISMATCH %s: %llu of %llu, first a=%08x b=%08x cuda=%08x shim=%08x\\n", names[f], h[f].count, n, h[f].a, h[f].b, h[f].native, h[f].shim); } }',
        '  printf("%d functions x %llu inputs (%s): %d differ; %.1f ms\\n", functions, n, exhaustive ? "every pair of halfwords, in both lanes" : "every byte pair, 1M halfword pairs around 0, 0x8000, 0xffff, the rest random", bad, ms);',
        '  return bad ? 1 : 0;', '}']
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
