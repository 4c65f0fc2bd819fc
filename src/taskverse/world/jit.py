"""The one switch for the compiled loops (``textenv.kernel``, ``world.settle``): numba when it is installed.

numba is an optional extra (``pip install 'taskverse[fast]'``). Without it each decorator returns the function as
written, so the same loop runs uncompiled. Compiled functions are cached on disk beside their module (``cache=True``).

* ``njit``: a compiled function.
* ``bare``: a compiled function without reference counting of the arrays it handles. A call of a compiled function
  with many arrays otherwise counts a reference to each on entry and leaves it on exit, which can cost more than the
  work (the text world's step takes some sixty tables). It cannot make arrays, only index and view those it is given.
* ``bare_with_gil``: ``bare``, keeping the GIL: for a call so short (one step of one state) that releasing the GIL
  and taking it back costs more than the work.
* ``inlined``: a compiled function written into each compiled caller (no call at all; its views then cost nothing
  in a ``bare`` caller).
"""

from __future__ import annotations

from typing import Any

try:
    import numba

    njit: Any = numba.njit(cache=True, nogil=True)
    bare: Any = numba.njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]
    bare_with_gil: Any = numba.njit(cache=True, _nrt=False)  # type: ignore[call-overload]
    inlined: Any = numba.njit(cache=True, nogil=True, inline="always")
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - depends on the install
    HAVE_NUMBA = False

    def njit(function: Any) -> Any:
        """The function itself: numba is not installed."""
        return function

    bare = bare_with_gil = inlined = njit


__all__ = ["HAVE_NUMBA", "bare", "bare_with_gil", "inlined", "njit"]
