#!/usr/bin/env python3
"""Draw the package icons of nasperf as PNG files, with the standard library.

The icons are kept in the tree; run this only to change them:
    python3 packaging/icons/mkicons.py packaging/icons

It writes nasperf-64.png and nasperf-256.png (Synology's PACKAGE_ICON.PNG
and PACKAGE_ICON_256.PNG), nasperf-80.png and nasperf-gray.png (QNAP's
App Center icons).  The drawing is a rounded square with three rising bars
and a baseline: throughput measured on a NAS.
"""

import struct
import sys
import zlib

BLUE = (31, 111, 235)
WHITE = (255, 255, 255)
SS = 4  # supersampling factor per axis


def inside_rounded(x, y, r):
    """Whether the unit-square point (x, y) is inside the rounded square."""
    cx = min(max(x, r), 1 - r)
    cy = min(max(y, r), 1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def shape(x, y):
    """Colour and coverage of the point (x, y), both in [0, 1)."""
    if not inside_rounded(x, y, 0.18):
        return None
    # three bars, rising left to right, standing on a baseline
    bars = ((0.22, 0.36, 0.58), (0.42, 0.56, 0.42), (0.62, 0.76, 0.24))
    for x0, x1, top in bars:
        if x0 <= x < x1 and top <= y < 0.78:
            return WHITE
    if 0.16 <= x < 0.84 and 0.80 <= y < 0.84:
        return WHITE
    return BLUE


def render(size, gray=False):
    """Rows of RGBA bytes for an icon of size x size pixels."""
    rows = []
    n = SS * SS
    for py in range(size):
        row = bytearray([0])  # filter type: none
        for px in range(size):
            r = g = b = a = 0
            for sy in range(SS):
                for sx in range(SS):
                    c = shape((px + (sx + 0.5) / SS) / size,
                              (py + (sy + 0.5) / SS) / size)
                    if c is not None:
                        r += c[0]
                        g += c[1]
                        b += c[2]
                        a += 1
            if a:
                r, g, b = r // a, g // a, b // a
                if gray:
                    r = g = b = (r * 30 + g * 59 + b * 11) // 100
            row += bytes((r, g, b, a * 255 // n))
        rows.append(bytes(row))
    return b"".join(rows)


def chunk(kind, data):
    """One PNG chunk: length, type, data, CRC of type and data."""
    crc = zlib.crc32(kind + data) & 0xffffffff
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def png(size, gray=False):
    """A complete 8-bit RGBA PNG file."""
    ihdr = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
            chunk(b"IDAT", zlib.compress(render(size, gray), 9)) +
            chunk(b"IEND", b""))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    for name, size, gray in (("nasperf-64.png", 64, False),
                             ("nasperf-80.png", 80, False),
                             ("nasperf-gray.png", 64, True),
                             ("nasperf-256.png", 256, False)):
        with open(f"{out}/{name}", "wb") as f:
            f.write(png(size, gray))


if __name__ == "__main__":
    main()
