#!/usr/bin/env python3
"""Exits 0 when every PNG named decodes: signature, every chunk's CRC, IHDR
first, IEND last, and the IDAT stream inflates to exactly the rows IHDR says;
else prints the first bad file and why, and exits 1."""
import struct
import sys
import zlib

CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def check(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        return 'no PNG signature'
    pos, chunks, idat = 8, [], b''
    while pos < len(data):
        if pos + 12 > len(data):
            return 'cut chunk at byte %d' % pos
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        crc, = struct.unpack('>I', data[pos + 8 + n:pos + 12 + n] or b'\0\0\0\0')
        if len(body) != n or zlib.crc32(kind + body) != crc:
            return 'bad chunk %r at byte %d' % (kind, pos)
        chunks.append(kind)
        if kind == b'IHDR':
            w, h, depth, color = struct.unpack('>IIBB', body[:10])
        if kind == b'IDAT':
            idat += body
        pos += 12 + n
    if not chunks or chunks[0] != b'IHDR' or chunks[-1] != b'IEND':
        return 'chunks out of order'
    raw = zlib.decompress(idat)
    row = 1 + (w * CHANNELS[color] * depth + 7) // 8
    if len(raw) != row * h:
        return 'image data is %d bytes, not %d' % (len(raw), row * h)
    return None


for p in sys.argv[1:]:
    why = check(p)
    if why:
        print('%s: %s' % (p, why))
        sys.exit(1)
