"""A small PNG reader (zlib + numpy) for the screenshots of the real-window tier.

Blender's screenshots are 8-bit, non-interlaced RGB or RGBA PNGs whose rows use all five filter types.
Pillow is not a project dependency, so this decodes exactly that subset and refuses anything else.
"""
import struct
import zlib

import numpy as np

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # colour type -> samples per pixel (grey, RGB, grey+alpha, RGBA)


def _chunks(data):
    pos = len(_SIGNATURE)
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IEND":
            return


def _unfilter_sequential(kind, line, prev, bpp):
    """Average (3) and Paeth (4) depend on the byte one pixel to the left: decode byte by byte.

    `out` and `up` carry `bpp` leading zeros so that the left neighbours of the first pixel read as 0.
    """
    n = len(line)
    out = bytearray(bpp) + bytearray(line)
    up = bytes(bpp) + prev
    if kind == 3:
        for i in range(bpp, n + bpp):
            out[i] = (out[i] + ((out[i - bpp] + up[i]) >> 1)) & 0xFF
    else:
        for i in range(bpp, n + bpp):
            a, b, c = out[i - bpp], up[i], up[i - bpp]
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            out[i] = (out[i] + (a if (pa <= pb and pa <= pc) else (b if pb <= pc else c))) & 0xFF
    return bytes(out[bpp:])


def read_png(path):
    """Return the image as a uint8 array of shape (height, width, channels), row 0 at the top."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(_SIGNATURE):
        raise ValueError(f"{path}: not a PNG file")
    header, idat = None, []
    for kind, body in _chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    if header is None or not idat:
        raise ValueError(f"{path}: no IHDR or IDAT chunk")
    width, height, depth, colour_type, _compression, _filter, interlace = header
    if depth != 8 or colour_type not in _CHANNELS or interlace != 0:
        raise ValueError(f"{path}: unsupported PNG (bit depth {depth}, colour type {colour_type}, "
                         f"interlace {interlace})")
    bpp = _CHANNELS[colour_type]
    stride = width * bpp
    raw = zlib.decompress(b"".join(idat))
    if len(raw) != height * (stride + 1):
        raise ValueError(f"{path}: {len(raw)} bytes of image data, expected {height * (stride + 1)}")
    rows = np.frombuffer(raw, np.uint8).reshape(height, stride + 1)
    image = np.zeros((height, stride), np.uint8)
    prev = np.zeros(stride, np.uint8)
    for y in range(height):
        kind, line = rows[y, 0], rows[y, 1:]
        if kind == 0:
            cur = line
        elif kind == 1:  # Sub: running sum of each channel along the row
            cur = np.cumsum(line.reshape(width, bpp), axis=0, dtype=np.uint64).astype(np.uint8).ravel()
        elif kind == 2:  # Up
            cur = line + prev
        elif kind in (3, 4):
            cur = np.frombuffer(_unfilter_sequential(kind, line.tobytes(), prev.tobytes(), bpp), np.uint8)
        else:
            raise ValueError(f"{path}: bad filter type {kind} in row {y}")
        image[y] = cur
        prev = image[y]
    return image.reshape(height, width, bpp)
