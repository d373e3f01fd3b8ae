from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fused_ops",
    ext_modules=[
        CUDAExtension(
            name="fused_ops",
            sources=["csrc/fused_ops.cpp", "csrc/fused_kernels.cu"],
            extra_compile_args={
                "cxx": ["-O3"],
                "nvcc": ["-O3", "--use_fast_math", "-gencode=arch=compute_80,code=sm_80", "--expt-extended-lambda"],
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
