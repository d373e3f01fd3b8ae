#pragma once
// A project header declaring a CUDA-looking name no mapping table knows (own_declared_names.cu).
void cudaUnknownThing(int*);
