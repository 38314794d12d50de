"""Build the Cython extensions: every ``cext/*.pyx`` becomes ``solver.cext.<name>``.

The repository keeps ``solver/``, ``cli/`` and ``cext/`` side by side; the
install puts them under one import package, ``solver`` (``solver.cli`` and
``solver.cext``, mapped in pyproject.toml), so ``pip install .`` adds one name
to site-packages.  Discovery keeps one game's kernel from touching another's
build line.

``SOLVE_DEBUG_BUILD=1`` compiles the kernels with their precondition asserts
and bounds checks on; a release build defines ``CYTHON_WITHOUT_ASSERTIONS``.
"""
import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
DEBUG = os.environ.get("SOLVE_DEBUG_BUILD", "") not in ("", "0")

extensions = [
    Extension(
        f"solver.cext.{pyx.stem}",
        [str(pyx.relative_to(HERE))],
        extra_compile_args=["-O0", "-g"] if DEBUG else ["-O3"],
        define_macros=[] if DEBUG else [("CYTHON_WITHOUT_ASSERTIONS", "1")],
    )
    for pyx in sorted((HERE / "cext").glob("*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": DEBUG,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": DEBUG,
        },
    ),
)
