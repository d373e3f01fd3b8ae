#pragma once
#ifdef __cplusplus
extern "C" {
#endif
float api_clamp(float v, float min, float max);
#ifdef __cplusplus
}
#endif
