"""Reference solver and analysis toolkit for five little-known games.

Each game is a subpackage (``solver.pyramid``, ...) holding a readable
pure-Python reference of its rules, with compiled kernels in ``cext``.
"""
__version__ = "0.1.0"
