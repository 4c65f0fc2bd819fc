"""First-person frames: the player's client renders into a virtual screen, read after each step as a PNG.

A :class:`VirtualScreen` is an X server of its own (``Xvfb`` from Debian's ``xvfb`` package, software OpenGL through
Mesa) whose framebuffer is a file (``-fbdir``): a frame is one read of that file, no X call and no screenshot key.
The engine's client (Debian's ``minetest``) runs on it with a real video driver (``CLIENT_SETTINGS``) instead of
the headless ``null`` driver, so what it shows is what the player sees: the world from its eyes, the hotbar, the
wielded item. The frame is taken a moment (``settle``) after the harness answered, so the client has drawn what the
server sent. The X server is started with ``-displayfd`` (it picks a free display itself) in a process group of
its own and ended with the episode.

Example:
    >>> png_bytes(2, 1, bytes([255, 0, 0, 0, 0, 255, 0, 0]))[1:4]
    b'PNG'

"""

from __future__ import annotations

import os
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import time
from contextlib import suppress
from pathlib import Path

from taskverse.engine.gamegen.png import RGB, png_file
from taskverse.errors import TaskverseError

XVFB = Path("/usr/bin/Xvfb")
INSTALL_HINT = "install Debian's xvfb: apt-get install -y --no-install-recommends xvfb"
START_LIMIT = 60.0
DRAW_LIMIT = 30.0
"""Seconds the client may take to draw the world after it joined before the first frame is taken as it is."""
"""Seconds the X server may take to say which display it took (a guard: it takes milliseconds)."""
CLIENT_SETTINGS: dict[str, str | bool | int | float] = {
    "video_driver": "opengl",
    "enable_shaders": False,
    "viewing_range": 40,
    "fullscreen": False,
    "enable_clouds": False,     # clouds drift: a still world would never give a still frame
    "hud_scaling": 0.6,         # the hotbar and hearts in a corner of a small screen, not across it
    "chat_log_level": "none",   # the engine's own log lines stay out of the picture
    "recent_chat_messages": 2,  # the fewest chat lines the client allows (joining messages fade)
}
"""Client settings on a virtual screen (the screen size is added)."""


def png_bytes(width: int, height: int, bgrx: bytes) -> bytes:
    """An RGB PNG of a ``width`` x ``height`` image given as 32-bit pixels, blue, green, red and a spare byte."""
    rgb = bytearray(width * height * 3)
    rgb[0::3], rgb[1::3], rgb[2::3] = bgrx[2::4], bgrx[1::4], bgrx[0::4]
    stride = width * 3
    raw = b"".join(b"\x00" + bytes(rgb[y * stride:(y + 1) * stride]) for y in range(height))
    return png_file(width, height, RGB, raw, level=1)  # fast: a frame is kept every step


def xwd_png(data: bytes) -> bytes:
    """The PNG of an X window dump (the format ``Xvfb -fbdir`` keeps its screen in): 24-bit depth, 32 bits a pixel."""
    if len(data) < 100:
        raise TaskverseError("the virtual screen's framebuffer is not an X window dump")
    fields = struct.unpack(">25I", data[:100])
    header_size, width, height = fields[0], fields[4], fields[5]
    bits_per_pixel, bytes_per_line, ncolors = fields[11], fields[12], fields[19]
    if bits_per_pixel != 32 or fields[7] != 0:  # 32 bits a pixel, least significant byte first
        raise TaskverseError(f"the virtual screen has {bits_per_pixel} bits a pixel; expected 32 (-screen WxHx24)")
    start = header_size + 12 * ncolors
    pixels = data[start:start + bytes_per_line * height]
    if bytes_per_line != 4 * width:
        pixels = b"".join(pixels[y * bytes_per_line:y * bytes_per_line + 4 * width] for y in range(height))
    return png_bytes(width, height, pixels)


class VirtualScreen:
    """An X server of its own whose screen is a file; :meth:`frame` reads it as a PNG.

    Args:
        width: Screen width in pixels.
        height: Screen height in pixels.

    """

    def __init__(self, width: int = 320, height: int = 240) -> None:
        if not 16 <= width <= 4096 or not 16 <= height <= 4096:
            raise TaskverseError(f"a screen of {width}x{height}: expected 16 to 4096 pixels each way")
        self.width, self.height = width, height
        self.process: subprocess.Popen[bytes] | None = None
        self.folder: Path | None = None
        self.display = ""

    def start(self) -> VirtualScreen:
        """Start the X server; raises a TaskverseError saying why when it cannot."""
        if not XVFB.exists():
            raise TaskverseError(f"screenshots need a virtual screen and {XVFB} is not installed; {INSTALL_HINT}")
        self.folder = Path(tempfile.mkdtemp(prefix="taskverse-screen-"))
        read, write = os.pipe()
        try:
            self.process = subprocess.Popen(
                [str(XVFB), "-displayfd", str(write), "-screen", "0", f"{self.width}x{self.height}x24",
                 "-fbdir", str(self.folder), "-nolisten", "tcp", "-noreset"],
                pass_fds=(write,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True)
        finally:
            os.close(write)
        try:
            number = self._display_number(read)
        finally:
            os.close(read)
        if number is None:
            self.close()
            raise TaskverseError("the virtual screen (Xvfb) did not start")
        self.display = f":{number}"
        return self

    def _display_number(self, fd: int) -> str | None:
        text = b""
        end = time.monotonic() + START_LIMIT
        while b"\n" not in text:
            left = end - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 64)
            if not chunk:
                return None
            text += chunk
        number = text.split(b"\n", 1)[0].strip().decode("ascii", "replace")
        return number if number.isdigit() else None

    def drawn(self, still: float = 0.3, limit: float = DRAW_LIMIT, poll: float = 0.05) -> bytes:
        """The frame once the client has drawn the world: changed from the first look and still for ``still`` s.

        A client that has just joined shows an empty screen until the map's blocks arrive and are drawn (a second
        or two); after ``limit`` seconds the frame is taken as it is.
        """
        first = last = self._raw()
        since = time.monotonic()
        end = since + limit
        while time.monotonic() < end:
            time.sleep(poll)
            now = self._raw()
            if now != last:
                last, since = now, time.monotonic()
            elif now != first and time.monotonic() - since >= still:
                break
        return xwd_png(last)

    def _raw(self) -> bytes:
        if self.folder is None:
            raise TaskverseError("the virtual screen is not running")
        return (self.folder / "Xvfb_screen0").read_bytes()

    def frame(self) -> bytes:
        """What the screen shows now, as a PNG."""
        if self.folder is None:
            raise TaskverseError("the virtual screen is not running")
        return xwd_png((self.folder / "Xvfb_screen0").read_bytes())

    def close(self) -> None:
        """End the X server (its whole process group) and remove its folder (safe to call twice)."""
        process, self.process = self.process, None
        if process is not None:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            with suppress(ChildProcessError):
                process.wait()
        folder, self.folder = self.folder, None
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def __enter__(self) -> VirtualScreen:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["CLIENT_SETTINGS", "VirtualScreen", "png_bytes", "xwd_png"]
