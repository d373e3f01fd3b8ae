#pragma once
int RunStencil(int n);
