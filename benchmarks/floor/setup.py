"""Build the benchmark floor: ``pip install ./benchmarks/floor``."""

from Cython.Build import cythonize
from setuptools import setup

setup(
    name="fastaccept-floor",
    version="0",
    ext_modules=cythonize("fastaccept_floor.pyx", language_level=3),
)
