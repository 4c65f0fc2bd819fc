"""The one place files are read and written: checked paths, bounded reads, atomic writes that lose nothing.

Reading (``read_text``, ``read_json``, ``read_line``) turns every way a path can be wrong (missing, a folder, a
FIFO or device, a symlink loop, unreadable, not UTF-8, too large) into a TaskverseError naming the file, and
never reads more than a limit. Writing (``write_text``, ``output_file``, ``output_folder``) goes through a
temporary file with a unique name beside the target and a rename, so a reader never sees half a file and an
interrupted command leaves none; it never replaces an existing file unless asked (``force``), and never writes
into the library's own folders (``atoms/``, ``benchmarks/``, ``calibration/``, ``engine/``) unless the command
exists to maintain that folder (``maintains``).

The limits a user can meet are listed in ``docs/limits.md``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from taskverse.errors import TaskverseError

MAX_FILE_BYTES = 8 * 1024 * 1024
"""The largest file any command reads (the library's largest task file is about 0.3 MB)."""
MAX_LINE_CHARS = 4096
"""The longest line read from standard input (``play``, ``rate``)."""
MAX_INPUT_LINES = 100_000
"""The most lines one interactive session reads from standard input."""

_OS_REASONS = {
    errno.ENOENT: "no such file",
    errno.ENOTDIR: "a parent of this path is a file, not a folder",
    errno.ELOOP: "symlink loop",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENAMETOOLONG: "file name too long",
    errno.EISDIR: "is a folder; expected a file",
    errno.ENOSPC: "no space left on the device",
    errno.EROFS: "read-only file system",
    errno.EXDEV: "cannot move a file across devices",
}


def os_reason(exc: OSError) -> str:
    """A short reason for an OSError, in words (``symlink loop``, ``permission denied``)."""
    return _OS_REASONS.get(exc.errno or 0) or (exc.strerror or str(exc)).lower()


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_readable(path: str | Path, what: str = "file", limit: int = MAX_FILE_BYTES) -> os.stat_result:
    """Check that ``path`` is a regular file of at most ``limit`` bytes; return its status.

    Raises:
        TaskverseError: naming the file and what is wrong with it.

    """
    try:
        info = os.stat(path)
    except OSError as exc:
        raise TaskverseError(os_reason(exc), file=path) from None
    except ValueError:  # an embedded NUL byte
        raise TaskverseError("invalid file name", file=repr(str(path))) from None
    if stat.S_ISDIR(info.st_mode):
        raise TaskverseError(f"is a folder; expected a {what}", file=path)
    if not stat.S_ISREG(info.st_mode):
        raise TaskverseError(f"is {_kind(info.st_mode)}; expected a {what}", file=path)
    if info.st_size > limit:
        raise TaskverseError(f"too large ({_size(info.st_size)}; the limit is {_size(limit)})", file=path)
    return info


def _size(count: int) -> str:
    return f"{count / 1024 / 1024:.1f} MB" if count >= 1024 * 1024 else f"{count} bytes"


def read_bytes(path: str | Path, what: str = "file", limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (never blocks on a FIFO, never reads more)."""
    check_readable(path, what, limit)
    try:
        # O_NONBLOCK: should the path have been swapped for a FIFO since the check, open() still returns
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise TaskverseError(os_reason(exc), file=path) from None
    if len(data) > limit:
        raise TaskverseError(f"too large (more than {_size(limit)}, the limit)", file=path)
    return data


def decode_text(data: bytes, source: str | Path) -> str:
    """UTF-8 bytes as text (a leading byte-order mark is dropped); anything else names the line of the bad byte."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise TaskverseError(f"not UTF-8 text (byte 0x{data[exc.start]:02X} cannot be decoded)", file=source,
                             line=line) from None


def read_text(path: str | Path, what: str = "file", limit: int = MAX_FILE_BYTES) -> str:
    """The text of a UTF-8 file of at most ``limit`` bytes, with a clean error for every bad path."""
    return decode_text(read_bytes(path, what, limit), path)


def read_json(path: str | Path, what: str = "JSON file", limit: int = MAX_FILE_BYTES) -> Any:
    """Parse a JSON file (bounded in size; too deep a nesting is a clean error, not a RecursionError)."""
    text = read_text(path, what, limit)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TaskverseError(f"invalid JSON: {exc.msg} (column {exc.colno})", file=path, line=exc.lineno) from None
    except RecursionError:
        raise TaskverseError("invalid JSON: nested too deeply", file=path) from None


def read_line(stream: IO[Any], limit: int = MAX_LINE_CHARS) -> str | None:
    """One line of at most ``limit`` characters from a text or binary stream; None at the end of input.

    A longer line is read to its end in bounded pieces and raises a TaskverseError (nothing is kept), so a
    50 MB line on standard input costs no more memory than a short one. Bytes that are not UTF-8 become U+FFFD.
    """
    raw = getattr(stream, "buffer", stream)
    line = raw.readline(limit + 1)
    if not line:
        return None
    if len(line) > limit and not line.endswith(b"\n" if isinstance(line, bytes) else "\n"):
        while True:  # drain the rest of the line without keeping it
            rest = raw.readline(64 * 1024)
            if not rest or rest.endswith(b"\n" if isinstance(rest, bytes) else "\n"):
                break
        raise TaskverseError(f"input line longer than {limit} characters; ignored", field="stdin")
    if isinstance(line, bytes):
        return line.decode("utf-8", errors="replace")
    return str(line)


def read_lines(path: str | Path, line_limit: int, what: str = "file") -> Iterator[tuple[int, bytes | None]]:
    """The lines of a regular file of any size as (byte offset, bytes without the newline), one at a time.

    A line longer than ``line_limit`` bytes comes as (offset, None) and is not kept; a last line with no newline
    (cut short) comes as it is. The path is checked as ``check_readable`` checks it (no FIFOs, no devices).
    """
    check_readable(path, what, limit=2**62)
    try:
        handle = open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb")
    except OSError as exc:
        raise TaskverseError(os_reason(exc), file=path) from None
    with handle:
        offset = 0
        while True:
            line = handle.readline(line_limit + 1)
            if not line:
                return
            start = offset
            offset += len(line)
            if len(line) > line_limit and not line.endswith(b"\n"):
                while True:  # the rest of the long line, read in pieces and dropped
                    rest = handle.readline(1024 * 1024)
                    offset += len(rest)
                    if not rest or rest.endswith(b"\n"):
                        break
                yield start, None
                continue
            yield start, line.removesuffix(b"\n")


# -- writing ----------------------------------------------------------------------------------------------------

def library_folders() -> list[Path]:
    """The library's own folders: only the commands that maintain them write there."""
    from taskverse.paths import project_root

    try:
        root = project_root()
    except TaskverseError:
        return []
    return [root / name for name in ("atoms", "benchmarks", "calibration", "engine")]


def _resolve(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop on the way
        raise TaskverseError(f"cannot resolve the path ({exc})", file=path) from None


def check_output(path: str | Path, force: bool = False, maintains: Path | None = None, folder: bool = False,
                 ) -> Path:
    """Check before any work is done that ``path`` may be written; return it as a Path.

    Args:
        path: The file (or with ``folder``, the folder) to write.
        force: Whether an existing file may be replaced.
        maintains: A library folder the command exists to maintain: it may write, and rewrite, files there.
        folder: The output is a folder (see ``output_folder``).

    Raises:
        TaskverseError: the path is a folder where a file is expected (or the reverse), lies under a file, is a
            device or FIFO, lies in one of the library's folders, or exists and ``force`` is not given.

    """
    path = Path(path)
    if str(path) in ("", "."):
        raise TaskverseError("an output needs a file name", file=path)
    resolved = _resolve(path)
    owned = maintains is not None and resolved.is_relative_to(_resolve(maintains))
    if not owned:
        for protected in library_folders():
            target = _resolve(protected)
            if resolved == target or resolved.is_relative_to(target):
                raise TaskverseError(
                    f"is inside the library's own folder {protected.name}/; write somewhere else "
                    "(only the commands that maintain it write there)", file=path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise TaskverseError(os_reason(exc), file=path) from None
    if info is None:
        _check_parents(path)
        return path
    if folder:
        if not stat.S_ISDIR(info.st_mode):
            raise TaskverseError("exists and is not a folder", file=path)
        return path
    if stat.S_ISDIR(info.st_mode):
        raise TaskverseError("is a folder; expected a file name", file=path)
    if not stat.S_ISREG(info.st_mode):
        raise TaskverseError(f"is {_kind(info.st_mode)}; write to a regular file (or leave out -o to print)",
                             file=path)
    if not force and not owned:
        raise TaskverseError("already exists; add --force to replace it", file=path)
    return path


def _check_parents(path: Path) -> None:
    """The nearest existing ancestor of a new path must be a folder."""
    for parent in path.absolute().parents:
        try:
            info = os.stat(parent)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise TaskverseError(os_reason(exc), file=path) from None
        if not stat.S_ISDIR(info.st_mode):
            raise TaskverseError(f"a parent of this path ({parent}) is a file, not a folder", file=path)
        return


def _make_parent(path: Path) -> Path:
    parent = path.absolute().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise TaskverseError(f"a parent of this path ({parent}) is a file, not a folder", file=path) from None
    except OSError as exc:
        raise TaskverseError(f"cannot create the folder {parent}: {os_reason(exc)}", file=path) from None
    return parent


@contextlib.contextmanager
def output_file(path: str | Path, force: bool = False, maintains: Path | None = None) -> Iterator[Path]:
    """Yield a temporary path to write; on success it becomes ``path`` in one rename, on failure it is removed.

    The temporary file sits beside the target with a unique name that keeps the suffix (so writers that
    choose a format by suffix still work). Without ``force`` an existing file is never replaced: the final
    step is a hard link, which fails if a file appeared meanwhile; a file with the same bytes counts as done.
    """
    path = check_output(path, force, maintains)
    parent = _make_parent(path)
    try:
        handle, name = tempfile.mkstemp(dir=parent, prefix=f".{path.name}.", suffix=f".tmp{path.suffix}")
    except OSError as exc:
        raise TaskverseError(f"cannot write: {os_reason(exc)}", file=path) from None
    os.close(handle)
    tmp = Path(name)
    try:
        yield tmp
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; a written output gets the usual mode
        _commit(tmp, path, replace=force or (maintains is not None and _resolve(path).is_relative_to(
            _resolve(maintains))))
    except OSError as exc:
        raise TaskverseError(f"cannot write: {os_reason(exc)}", file=path) from None
    finally:
        tmp.unlink(missing_ok=True)


def _commit(tmp: Path, path: Path, replace: bool) -> None:
    if replace:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)  # atomic, and fails if the name exists: never replaces a file that appeared meanwhile
    except FileExistsError:
        if path.is_file() and path.read_bytes() == tmp.read_bytes():
            return
        raise TaskverseError("already exists; add --force to replace it", file=path) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOTSUP):
            raise
        if path.exists():  # no hard links on this file system: check, then rename
            raise TaskverseError("already exists; add --force to replace it", file=path) from None
        os.replace(tmp, path)


def write_text(path: str | Path, text: str, force: bool = False, maintains: Path | None = None) -> Path:
    """Write text (UTF-8) atomically; see ``output_file`` for what is refused."""
    return write_bytes(path, text.encode("utf-8"), force, maintains)


def write_bytes(path: str | Path, data: bytes, force: bool = False, maintains: Path | None = None) -> Path:
    """Write bytes atomically; see ``output_file`` for what is refused (a file with these bytes is left as is)."""
    if not force and _same_bytes(Path(path), data):
        check_output(path, force=True, maintains=maintains)  # still never inside the library's folders
        return Path(path)
    with output_file(path, force, maintains) as tmp:
        tmp.write_bytes(data)
    return Path(path)


def _same_bytes(path: Path, data: bytes) -> bool:
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            return False
        return path.read_bytes() == data
    except OSError:
        return False


def open_log(path: str | Path, fresh: bool) -> IO[bytes]:
    """A regular file to append lines to as they come (a log a long run keeps growing, read back on resume).

    Checked as every output is (never in the library's folders, never a folder, FIFO or device, even one put
    there since the check: it is opened without blocking and its kind checked on the open file); ``fresh``
    empties it. Whether an existing file may be taken over is the caller's check (``check_output``), made
    before any work is done.
    """
    fd = _open_regular(path, os.O_WRONLY | os.O_APPEND, "write")
    if fresh:
        os.ftruncate(fd, 0)
    return open(fd, "ab")


def _open_regular(path: str | Path, flags: int, verb: str) -> int:
    """A blocking descriptor on a checked output path (made if missing) that is a regular file.

    Opened without blocking and its kind checked on the open file, so a FIFO or device put there since the path's
    check is refused without waiting on it.
    """
    path = check_output(path, force=True)
    _make_parent(path)
    try:
        fd = os.open(path, flags | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o666)
    except OSError as exc:
        raise TaskverseError(f"cannot {verb}: {os_reason(exc)}", file=path) from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise TaskverseError(f"is {_kind(info.st_mode)}; expected a regular file", file=path)
    if hasattr(os, "O_NONBLOCK"):
        os.set_blocking(fd, True)
    return fd


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[None]:
    """Hold an exclusive advisory lock (``flock``) on ``path``, a regular file made if missing, for the block.

    Processes that update one file in turn (a cache that merges what another process saved) take it first; it
    is held only while they read and write. Checked as ``open_log``'s file is (no folder, FIFO or device).
    """
    import fcntl

    fd = _open_regular(path, os.O_RDWR, "lock")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def same_file(first: str | Path, second: str | Path) -> bool:
    """Whether two paths name the same file (resolved, so ``./a`` and ``a`` are the same)."""
    return _resolve(Path(first)) == _resolve(Path(second))


@contextlib.contextmanager
def output_folder(path: str | Path, force: bool = False, marker: str | None = None) -> Iterator[Path]:
    """Yield an empty temporary folder to fill; on success it takes the place of ``path`` as a whole.

    An existing, non-empty ``path`` is replaced only with ``force``, and only when it holds ``marker`` (a file
    that shows it is an earlier output of the same command), so ``--force`` never deletes an unrelated folder.
    """
    path = check_output(path, force, folder=True)
    existing = path.is_dir() and any(path.iterdir())
    if existing:
        if not force:
            raise TaskverseError("the folder exists and is not empty; add --force to replace it", file=path)
        if marker is not None and not (path / marker).is_file():
            raise TaskverseError(f"the folder is not empty and holds no {marker}, so it is not an earlier output; "
                                 "pick another folder", file=path)
    parent = _make_parent(path)
    try:
        tmp = Path(tempfile.mkdtemp(dir=parent, prefix=f".{path.name}.", suffix=".tmp"))
    except OSError as exc:
        raise TaskverseError(f"cannot write: {os_reason(exc)}", file=path) from None
    try:
        yield tmp
        old = None
        if path.exists():
            old = Path(tempfile.mkdtemp(dir=parent, prefix=f".{path.name}.", suffix=".old"))
            os.replace(path, old / "previous")
        os.replace(tmp, path)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        raise TaskverseError(f"cannot write: {os_reason(exc)}", file=path) from None
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
