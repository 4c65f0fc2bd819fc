"""Results derived from the library, kept on disk between commands and keyed by everything they derive from.

Scoring every atom and naive version, or checking a suite's tasks in the text world, takes tens of seconds and
gives the same answers until the library, the code or the calibration inputs change. A ``DiskMemo`` keeps such
answers in the per-checkout cache (``.cache/taskverse/<kind>-<key>.pickle``): the key is a digest of the inputs,
so a change to any of them starts an empty memo, and the stale file of the same kind is removed when the new one
is saved (the cache never grows without bound). A corrupt or unreadable file is ignored, never trusted; a cache
that cannot be written only costs time.
"""

from __future__ import annotations

import hashlib
import pickle
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

from taskverse.errors import TaskverseError
from taskverse.paths import cache_dir

T = TypeVar("T")


@cache
def code_digest() -> str:
    """A digest of taskverse's own code (every module of the package): answers computed by other code differ."""
    package = Path(__file__).resolve().parent
    return files_digest(sorted(package.rglob("*.py")), package)


def files_digest(paths: Iterable[Path], root: Path | None = None) -> str:
    """A short digest of some files' names (relative to ``root``) and bytes; missing files count as absent."""
    sha = hashlib.sha256()
    for path in paths:
        if not path.is_file():
            continue
        name = path.relative_to(root) if root is not None and path.is_relative_to(root) else path
        sha.update(name.as_posix().encode() + b"\0")
        sha.update(path.read_bytes())
    return sha.hexdigest()[:16]


class DiskMemo:
    """A dictionary of answers of one kind, loaded from and saved to the cache under a digest of their inputs.

    Example:
        >>> memo = DiskMemo("example", "0123")
        >>> memo.get("x") is None
        True

    """

    def __init__(self, kind: str, key: str) -> None:
        self.kind = kind
        self.path = cache_dir() / f"{kind}-{key}.pickle"
        self.dirty = False
        self.stamp = _stamp(self.path)
        self.entries: dict[Any, Any] = _load(self.path) if self.stamp is not None else {}

    def get(self, key: Any) -> Any:
        """The answer kept for ``key``, or None."""
        return self.entries.get(key)

    def put(self, key: Any, value: Any) -> None:
        """Keep an answer (written by ``save``)."""
        self.entries[key] = value
        self.dirty = True

    def save(self) -> None:
        """Write the memo if it gained answers, and remove the stale memos of its kind.

        Two processes filling one memo at once (two tests, a build beside a run) both keep their answers: the
        save merges in whatever another process saved since this memo was read.
        """
        if not self.dirty:
            return
        from taskverse.fileio import locked, write_bytes

        for stale in self.path.parent.glob(f"{self.kind}-*.pickle"):
            if stale != self.path:
                stale.unlink(missing_ok=True)
        try:  # atomic under a unique temporary name, one process at a time
            with locked(self.path.with_name(f"{self.kind}.lock")):
                stamp = _stamp(self.path)
                if stamp is not None and stamp != self.stamp:  # another process saved since: keep its answers too
                    self.entries = {**_load(self.path), **self.entries}
                write_bytes(self.path, pickle.dumps(self.entries, protocol=pickle.HIGHEST_PROTOCOL), force=True)
                self.stamp = _stamp(self.path)
        except TaskverseError:
            pass  # a read-only checkout or a full disk only costs time
        self.dirty = False


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """(inode, size, modification time) of a memo file, or None if there is none: a save since changes it."""
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


def _load(path: Path) -> dict[Any, Any]:
    """The entries of a memo file (none if it is missing, corrupt or not a memo: rebuilt, never trusted)."""
    try:
        with path.open("rb") as handle:
            loaded = pickle.load(handle)
    except Exception:  # noqa: BLE001 - a corrupt cache is rebuilt, never trusted
        return {}
    return loaded if isinstance(loaded, dict) else {}


def remembered(kind: str, key: str, build: Callable[[], T]) -> T:
    """One value derived from the inputs ``key`` digests: from the cache when there, else built and kept."""
    memo = DiskMemo(kind, key)
    value = memo.get("value")
    if value is None:
        value = build()
        memo.put("value", value)
        memo.save()
    return cast(T, value)


__all__ = ["DiskMemo", "code_digest", "files_digest", "remembered"]
