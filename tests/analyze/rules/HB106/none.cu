// Negative: lane arithmetic with 32 in a file without PTX %laneid is HB101's to judge, not HB106's.
__global__ void tile(float* out, const float* in) {
  const unsigned column = threadIdx.x % 32;
  if (column < 32) out[threadIdx.x] = in[column];
}
