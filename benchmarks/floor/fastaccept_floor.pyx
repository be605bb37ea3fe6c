# cython: language_level=3, binding=False, boundscheck=False, wraparound=False
# cython: cdivision=True, initializedcheck=False
"""The benchmark floor: the least work a compiled negotiation call can do.

Built as the engine is (the directives of setup.py's ``DIRECTIVES`` that
change a call's code): its functions are built-in functions and its methods
method descriptors, called as the engine's are (a Cython function object
costs every call some 7-9 ns more), and its indexing and ``%`` are C's.

``choose(value, offers)`` reads the value's bytes once and returns one of the
offers; ``Floor(offers).choose(value)`` is the same as a method; ``.empty(value)``
returns an offer without reading anything. Not part of fastaccept: it only
gives the benchmarks a yardstick (benchmarks/README.md, "Targets").
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DATA, PyUnicode_GET_LENGTH, PyUnicode_KIND


cdef inline Py_ssize_t read_once(object value) except -1:
    cdef const unsigned char* s
    cdef Py_ssize_t n, i, acc = 0
    if isinstance(value, str):
        # Read the str's own buffer (one byte per character for Latin-1 text).
        s = <const unsigned char*>PyUnicode_DATA(value)
        n = PyUnicode_GET_LENGTH(value) * PyUnicode_KIND(value)
    else:
        s = <const unsigned char*>PyBytes_AS_STRING(value)
        n = PyBytes_GET_SIZE(value)
    for i in range(n):
        acc += s[i]
    return acc


def choose(value, offers):
    """Read ``value`` once; return one of ``offers`` (at least one: the
    engine's directives make ``% 0`` and an index past the end unchecked)."""
    cdef Py_ssize_t n = len(offers)
    if n == 0:
        raise ValueError("the floor needs at least one offer")
    return offers[read_once(value) % n]


cdef class Floor:
    """The method forms, for comparison with ``Negotiator.choose``."""

    cdef tuple offers

    def __init__(self, offers):
        self.offers = tuple(offers)
        if not self.offers:
            raise ValueError("the floor needs at least one offer")

    def choose(self, value, default=None):
        return self.offers[read_once(value) % len(self.offers)]

    def empty(self, value, default=None):
        return self.offers[0]
