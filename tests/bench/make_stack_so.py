#!/usr/bin/env python3
"""Writes the synthetic shared object `make bench` runs `scaleaudit stack` on.

Usage: make_stack_so.py OUT FATBINS TEXT_MIB RODATA_MIB FIXTURE...

An ELF64 x86-64 shared object laid out like a large CUDA library
(libtorch_cuda.so is about 1.5 GB): a .text of TEXT_MIB MiB of zero bytes
(a hole in a sparse file: it costs no disk), a .rodata of RODATA_MIB MiB,
also a hole, with a copy of the first fixture every 64 MiB (fatbins kept in
a data section, which scaleaudit finds by searching it), a .nv_fatbin of
FATBINS fatbins (the fixtures' bytes, one after another at 8-byte
alignment, cycling through them), and a 512 MiB .bss (no bytes in the
file). Prints the file's size, the fatbins and the entries it holds.
"""
import struct
import sys

MIB = 1 << 20
FATBIN_MAGIC = 0xBA55ED50


def entries(blob):
    """How many fatbins and entries a fixture's bytes hold."""
    fatbins = n = pos = 0
    while pos + 16 <= len(blob):
        magic, _, hs, payload = struct.unpack_from("<IHHQ", blob, pos)
        if magic != FATBIN_MAGIC:
            break
        fatbins += 1
        p, end = pos + hs, pos + hs + payload
        while p < end:
            _, _, ehs, size = struct.unpack_from("<HHIQ", blob, p)
            n += 1
            p += ehs + size
        pos = (end + 7) & ~7
    return fatbins, n


def pad8(b):
    return b + b"\0" * (-len(b) % 8)


def main():
    out, nfat, text_mib, rodata_mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    fixtures = [pad8(open(p, "rb").read()) for p in sys.argv[5:]]
    counts = [entries(f) for f in fixtures]
    names = b"\0.text\0.rodata\0.nv_fatbin\0.bss\0.shstrtab\0"
    off = {n: names.index(n.encode() + b"\0") for n in (".text", ".rodata", ".nv_fatbin", ".bss", ".shstrtab")}

    text_at = 4096
    rodata_at = text_at + text_mib * MIB
    fat_at = rodata_at + rodata_mib * MIB
    fat = bytearray()
    nfatbins = nentries = 0
    for i in range(nfat):
        k = i % len(fixtures)
        fat += fixtures[k]
        nfatbins += counts[k][0]
        nentries += counts[k][1]
    str_at = fat_at + len(fat)
    sh_at = (str_at + len(names) + 7) & ~7

    def shdr(name, typ, flags, at, size, align):
        return struct.pack("<IIQQQQIIQQ", name, typ, flags, 0, at, size, 0, 0, align, 0)

    sh = shdr(0, 0, 0, 0, 0, 0)
    sh += shdr(off[".text"], 1, 6, text_at, text_mib * MIB, 16)
    sh += shdr(off[".rodata"], 1, 2, rodata_at, rodata_mib * MIB, 8)
    sh += shdr(off[".nv_fatbin"], 1, 2, fat_at, len(fat), 8)
    sh += shdr(off[".bss"], 8, 3, str_at, 512 * MIB, 32)
    sh += shdr(off[".shstrtab"], 3, 0, str_at, len(names), 1)
    ehdr = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
    ehdr += struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 0, sh_at, 0, 64, 0, 0, 64, 6, 5)

    with open(out, "wb") as f:
        f.truncate(sh_at + len(sh))	# holes everywhere not written below
        f.write(ehdr)
        embedded = 0
        for at in range(rodata_at, rodata_at + rodata_mib * MIB - len(fixtures[0]), 64 * MIB):
            f.seek(at)
            f.write(fixtures[0])
            nfatbins += counts[0][0]
            nentries += counts[0][1]
            embedded += 1
        f.seek(fat_at)
        f.write(fat)
        f.seek(str_at)
        f.write(names)
        f.seek(sh_at)
        f.write(sh)
    print(f"{sh_at + len(sh)} {nfatbins} {nentries} {embedded}")


if __name__ == "__main__":
    main()
