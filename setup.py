"""Build the Cython extensions: every ``cext/*.pyx`` becomes ``cext.<name>``.

Discovery keeps one game's kernel from touching another's build line.
"""
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent

extensions = [
    Extension(
        f"cext.{pyx.stem}",
        [str(pyx.relative_to(HERE))],
        extra_compile_args=["-O3"],
    )
    for pyx in sorted((HERE / "cext").glob("*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
