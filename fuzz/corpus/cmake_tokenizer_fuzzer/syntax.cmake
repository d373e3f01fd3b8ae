cmake_minimum_required(VERSION 3.18)
project(x LANGUAGES CXX CUDA)
set(CMAKE_CUDA_ARCHITECTURES 70 [[bracket]] "q;uoted" ${VAR})
if(A AND (B OR C))
  target_compile_options(x PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>) # comment
endif()
#[[ block
comment ]]
