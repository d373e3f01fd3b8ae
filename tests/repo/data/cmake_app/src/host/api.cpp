#include "vecops.h"

const char* vecops_version() { return "vecops 1.0"; }
