"""Build the compiled kernels (plain C, no numpy headers): the alignment engine's inner
loops, WWLK's batched distance matrices, WLK's
Weisfeiler-Leman rounds and SemBLEU's n-gram counts of one pair of triples, the PENMAN reader, the CoNLL coreference reader, and
regular files mapped read-only for the readers of bytes (``mrkit.codecs._mapped``), the Smatch triples of the common case (PENMAN text straight to integer codes), and the per-pair
precision/recall/F1 columns of a corpus result with their means (``mrkit.aggregate._reduce``), and the
heap setting of the commands that stream (``mrkit.runtime._memory``)."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "mrkit.align._kernel",
            sources=["src/mrkit/align/_kernel.c"],
            depends=["src/mrkit/align/_intern.h", "src/mrkit/align/_arena.h"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "mrkit.codecs._penman",
            sources=["src/mrkit/codecs/_penman.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "mrkit.codecs._cut",
            sources=["src/mrkit/codecs/_cut.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "mrkit.codecs._mapped",
            sources=["src/mrkit/codecs/_mapped.c"],
            extra_compile_args=["-O3", "-std=c11"],
        ),
        Extension(
            "mrkit.codecs._conll",
            sources=["src/mrkit/codecs/_conll.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "mrkit.features._triples",
            sources=["src/mrkit/features/_triples.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "mrkit.runtime._memory",
            sources=["src/mrkit/runtime/_memory.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "mrkit.aggregate._reduce",
            sources=["src/mrkit/aggregate/_reduce.c"],
            # no fused multiply-add anywhere: the bits of Python's and numpy's separate operations
            extra_compile_args=["-O3", "-std=c99", "-ffp-contract=off"],
        ),
        Extension(
            "mrkit.metrics.amr._distances",
            sources=["src/mrkit/metrics/amr/_distances.c"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "mrkit.metrics.amr._wlk",
            sources=["src/mrkit/metrics/amr/_wlk.c"],
            depends=["src/mrkit/align/_intern.h", "src/mrkit/metrics/amr/_triple_arrays.h", "src/mrkit/metrics/amr/_codes.h",
                 "src/mrkit/metrics/amr/_graph_build.h"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "mrkit.metrics.amr._sembleu",
            sources=["src/mrkit/metrics/amr/_sembleu.c"],
            depends=["src/mrkit/align/_intern.h", "src/mrkit/metrics/amr/_triple_arrays.h", "src/mrkit/metrics/amr/_codes.h",
                 "src/mrkit/metrics/amr/_graph_build.h"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "mrkit.metrics.amr._sema",
            sources=["src/mrkit/metrics/amr/_sema.c"],
            depends=["src/mrkit/metrics/amr/_codes.h"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
        Extension(
            "mrkit.metrics.amr._simple",
            sources=["src/mrkit/metrics/amr/_simple.c"],
            depends=["src/mrkit/metrics/amr/_codes.h"],
            extra_compile_args=["-O3", "-std=c99"],
        ),
    ]
)
