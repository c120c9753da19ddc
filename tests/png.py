"""A small PNG reader (ISO/IEC 15948: 8-bit greyscale, RGB, RGBA,
non-interlaced; the five filters), so the pixel checks need no imaging
library."""
import struct
import zlib


def read(path):
    """(width, height, pixel(x, y) -> 0xRRGGBB)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG" % path)
    pos, idat = 8, b""
    w = h = depth = ctype = interlace = None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB",
                                                                body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if depth != 8 or interlace != 0 or ctype not in (0, 2, 6):
        raise ValueError("%s: PNG type %s/%s/%s not read here" %
                         (path, depth, ctype, interlace))
    bpp = {0: 1, 2: 3, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows = []
    prev = bytearray(stride)
    i = 0
    for _ in range(h):
        f = raw[i]
        cur = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = cur[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                cur[x] = (cur[x] + a) & 255
            elif f == 2:
                cur[x] = (cur[x] + b) & 255
            elif f == 3:
                cur[x] = (cur[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                cur[x] = (cur[x] + pr) & 255
        rows.append(cur)
        prev = cur

    def pixel(x, y):
        r = rows[y]
        k = x * bpp
        if bpp == 1:
            return r[k] * 0x10101
        return r[k] << 16 | r[k + 1] << 8 | r[k + 2]
    return w, h, pixel


def close(a, b, tol):
    """Whether two RGB colors differ by at most tol in every channel."""
    return all(abs(((a >> s) & 255) - ((b >> s) & 255)) <= tol
               for s in (16, 8, 0))
