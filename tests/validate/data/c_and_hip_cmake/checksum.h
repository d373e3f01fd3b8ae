#ifdef __cplusplus
extern "C" {
#endif
unsigned checksum(const float* values, int n);
#ifdef __cplusplus
}
#endif
