r"""PNG files written with the standard library (zlib and struct): the game's generated pictures.

Example:
    >>> encode_png(1, 1, [[(255, 0, 0, 255)]])[:8] == b"\x89PNG\r\n\x1a\n"
    True

"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

Pixel = tuple[int, int, int, int]


RGB, RGBA = 2, 6
"""PNG colour types: 8-bit red, green, blue; and the same with alpha."""


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png_file(width: int, height: int, colour_type: int, raw: bytes, level: int = 9) -> bytes:
    """A PNG of ``raw`` scanlines (each a filter byte, 0, then its pixels), compressed at zlib's ``level``.

    8 bits a channel, no interlace: the one framing the game's pictures and the client's frames share.
    """
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, level)) + \
        _chunk(b"IEND", b"")


def encode_png(width: int, height: int, rows: Sequence[Sequence[Pixel]]) -> bytes:
    """An RGBA PNG of ``rows`` (top row first, ``width`` pixels a row); the same pixels give the same bytes."""
    if len(rows) != height or any(len(row) != width for row in rows):
        raise ValueError(f"a {width}x{height} picture needs {height} rows of {width} pixels")
    raw = b"".join(b"\x00" + bytes(channel for pixel in row for channel in pixel) for row in rows)
    return png_file(width, height, RGBA, raw)
