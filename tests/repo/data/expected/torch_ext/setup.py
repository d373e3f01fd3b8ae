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
                "nvcc": ["-O3", "-fgpu-flush-denormals-to-zero", "-fno-hip-fp32-correctly-rounded-divide-sqrt", "-fcuda-approx-transcendentals", "--offload-arch=gfx90a", "--offload-arch=gfx942"],
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
