#pragma once
// The wave64 mode of the HIP-on-NVIDIA layer (target sm_XX:wave64, docs/wave64.md): `hipforge_wave64.h`, included
// by the generated common header when the build defines HIPFORGE_WAVE64 (the layer's hipcc does for a :wave64
// target). HIP's wavefront API then behaves as on CDNA: warpSize 64, 64-bit masks, two warps per wave.
namespace hipforge::validate {

inline constexpr char kWave64HeaderName[] = "hipforge_wave64.h";
inline constexpr char kWave64Feature[] = ":wave64";  // sm_90:wave64

const char* Wave64Header();

}  // namespace hipforge::validate
