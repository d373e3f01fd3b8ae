#include "api.h"
float api_clamp(float v, float min, float max) { return v < min ? min : (v > max ? max : v); }
