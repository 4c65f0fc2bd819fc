"""The one switch for the compiled loops (``textenv.kernel``, ``world.settle``): numba when it is installed.

numba is an optional extra (``pip install 'taskverse[fast]'``). Without it ``njit`` returns the function as written,
so the same loop runs uncompiled. Compiled functions are cached on disk beside their module (``cache=True``).
"""

from __future__ import annotations

from typing import Any

try:
    import numba

    njit: Any = numba.njit(cache=True, nogil=True)
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - depends on the install
    HAVE_NUMBA = False

    def njit(function: Any) -> Any:
        """The function itself: numba is not installed."""
        return function


__all__ = ["HAVE_NUMBA", "njit"]
