"""Build the compiled kernel of the alignment engine (plain C, no numpy headers)."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "mrkit.align._kernel",
            sources=["src/mrkit/align/_kernel.c"],
            extra_compile_args=["-O3", "-std=c99"],
        )
    ]
)
