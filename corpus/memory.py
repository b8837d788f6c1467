"""Memory a worker freed, given back to the system.

Building the ranked index or the name catalog allocates and frees hundreds of thousands of
small objects; glibc keeps the freed pages for the process (at 7× the book a worker held ~90
MB it no longer used after the ranked index's build, issue 23). `malloc_trim` returns them.
Elsewhere than glibc it does nothing.
"""

import ctypes

# The process's own symbols: glibc's malloc_trim where the C library is glibc.
_malloc_trim = getattr(ctypes.CDLL(None), "malloc_trim", None)


def give_back_freed_memory() -> None:
    """Return the heap's free pages to the system (a few milliseconds)."""
    if _malloc_trim is not None:
        _malloc_trim(0)
