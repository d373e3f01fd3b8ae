#pragma once
// A vendored library header of the project, declaring a CUDA-looking name no mapping table knows.
void cudaUnknownThing(int*);
