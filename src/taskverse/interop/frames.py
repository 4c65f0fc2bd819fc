"""Frames of an episode for a video rater: N evenly spaced images from a folder of frames or a video file.

A folder holds PNG or JPEG frames, in the order of their names (``frame_2`` before ``frame_10``). A video file
is cut into frames by ``ffmpeg``: the one on PATH, else the static build the ``video`` extra installs
(``pip install 'taskverse[video]'``, the imageio-ffmpeg package); taskverse does not decode video itself, and needs
no ffprobe (the video's length is read from ffmpeg's own description of it). Every image is checked by its first
bytes and bounded in size; frames go to the endpoint as they are, never decoded here.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from taskverse.errors import TaskverseError

MAX_FRAMES = 64
"""The most frames one rating sends."""
MAX_FRAME_BYTES = 8 * 1024 * 1024
"""The largest frame file read."""
MAX_FOLDER_FILES = 100_000
"""Image files one folder may hold."""
FFMPEG_SECONDS = 600.0
"""How long ffmpeg may take to cut a video into frames."""
VIDEO_SUFFIXES = (".mp4", ".mkv", ".webm", ".avi", ".mov", ".m4v", ".gif")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")


@dataclass(frozen=True)
class Frame:
    """One frame: its name (file name, or its position in a video), its image type and bytes."""

    name: str
    mime: str
    data: bytes


def image_type(data: bytes) -> str | None:
    r"""``image/png`` or ``image/jpeg`` by the file's first bytes, else None.

    Example:
        >>> image_type(b"\x89PNG\r\n\x1a\n...")
        'image/png'

    """
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    return None


def spread(total: int, count: int) -> list[int]:
    """``count`` indices spread evenly over ``range(total)``, first and last included.

    Example:
        >>> spread(10, 4)
        [0, 3, 6, 9]

    """
    if count >= total:
        return list(range(total))
    if count == 1:
        return [0]
    return [round(i * (total - 1) / (count - 1)) for i in range(count)]


def natural_key(path: Path) -> list[object]:
    """A name's sort key with its numbers as numbers (``frame_2`` before ``frame_10``)."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def read_frame(path: Path) -> Frame:
    """One image file as a frame; anything but a PNG or JPEG of at most ``MAX_FRAME_BYTES`` is an error."""
    from taskverse.fileio import read_bytes

    data = read_bytes(path, "frame (PNG or JPEG)", MAX_FRAME_BYTES)
    mime = image_type(data)
    if mime is None:
        raise TaskverseError("is not a PNG or JPEG image (by its first bytes)", file=path)
    return Frame(path.name, mime, data)


def folder_frames(folder: Path, count: int) -> tuple[list[Frame], int]:
    """``count`` frames spread over the PNG/JPEG files of a folder (sorted by name), and how many it holds."""
    try:
        found = sorted((p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()),
                       key=natural_key)
    except OSError as exc:
        from taskverse.fileio import os_reason

        raise TaskverseError(f"cannot list the folder: {os_reason(exc)}", file=folder) from None
    if not found:
        raise TaskverseError("holds no .png, .jpg or .jpeg frames", file=folder)
    if len(found) > MAX_FOLDER_FILES:
        raise TaskverseError(f"holds {len(found)} frames; at most {MAX_FOLDER_FILES} are read", file=folder)
    return [read_frame(found[i]) for i in spread(len(found), count)], len(found)


def find_ffmpeg() -> str | None:
    """The ffmpeg to cut videos with: the one on PATH, else the ``video`` extra's static build, else None."""
    found = shutil.which("ffmpeg")
    if found is not None:
        return found
    try:
        import imageio_ffmpeg  # type: ignore[import-untyped]
    except ImportError:
        return None
    try:
        return str(imageio_ffmpeg.get_ffmpeg_exe())
    except RuntimeError:  # the package is there but holds no binary for this platform
        return None


def video_frames(video: Path, count: int) -> tuple[list[Frame], int]:
    """``count`` frames spread over a video file, cut out by ffmpeg (a clean error when it is not installed)."""
    from taskverse.fileio import check_readable

    check_readable(video, "video file", limit=2**40)
    ffmpeg = find_ffmpeg()
    if ffmpeg is None:
        raise TaskverseError("reading a video file needs ffmpeg, and none is installed: install it (apt-get install "
                             "ffmpeg, or pip install 'taskverse[video]') or pass a folder of PNG/JPEG frames",
                             file=video)
    seconds = _duration(ffmpeg, video)
    with tempfile.TemporaryDirectory(prefix="taskverse-frames-") as tmp:
        rate = count / seconds if seconds > 0 else 1.0
        _run([ffmpeg, "-nostdin", "-loglevel", "error", "-i", str(video), "-vf", f"fps={rate:.6f}",
              "-frames:v", str(count), "-q:v", "3", str(Path(tmp) / "frame_%05d.jpg")], video)
        frames, _ = folder_frames(Path(tmp), count)
    return [Frame(f"{video.name}@{i}", f.mime, f.data) for i, f in enumerate(frames)], len(frames)


_DURATION = re.compile(r"^\s*Duration:\s*(\d+):(\d+):(\d+(?:\.\d+)?)", re.MULTILINE)


def _duration(ffmpeg: str, video: Path) -> float:
    """The video's length in seconds from ``ffmpeg -i``'s description (0 when it gives none, as for a stream).

    ffmpeg given an input and no output describes the input and exits 1, so the exit code says nothing here: a
    file it cannot read has no ``Input #0`` in the description.
    """
    described = _run([ffmpeg, "-hide_banner", "-nostdin", "-i", str(video)], video, check=False)
    if "Input #0" not in described:
        reason = (described.strip().splitlines() or ["no message"])[-1][:200]
        raise TaskverseError(f"ffmpeg cannot read it: {reason}", file=video)
    found = _DURATION.search(described)
    if found is None:
        return 0.0
    hours, minutes, seconds = found.groups()
    return int(hours) * 3600 + int(minutes) * 60 + float(seconds)


def _run(command: list[str], video: Path, check: bool = True) -> str:
    """What ffmpeg says on its error output (its description of the input); an error if it fails and ``check``."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, errors="replace", timeout=FFMPEG_SECONDS,
                              check=False)
    except subprocess.TimeoutExpired:
        raise TaskverseError(f"{Path(command[0]).name} took longer than {FFMPEG_SECONDS:g} s", file=video) from None
    except OSError as exc:
        raise TaskverseError(f"cannot run {command[0]}: {exc}", file=video) from None
    if check and done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["no message"])[-1][:200]
        raise TaskverseError(f"ffmpeg cannot read it: {reason}", file=video)
    return done.stderr


def sample_frames(source: Path, count: int) -> tuple[list[Frame], int]:
    """``count`` frames from a folder of frames, one image, or a video file, and how many there were in all."""
    if not 1 <= count <= MAX_FRAMES:
        raise TaskverseError(f"--frames {count}: expected 1..{MAX_FRAMES}")
    if source.is_dir():
        return folder_frames(source, count)
    if source.suffix.lower() in IMAGE_SUFFIXES:
        return [read_frame(source)], 1
    if source.suffix.lower() in VIDEO_SUFFIXES:
        return video_frames(source, count)
    from taskverse.fileio import check_readable

    check_readable(source, "video file or folder of frames", limit=2**40)
    raise TaskverseError(f"expected a folder of PNG/JPEG frames or a video file ({', '.join(VIDEO_SUFFIXES)})",
                         file=source)
