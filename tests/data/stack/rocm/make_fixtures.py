#!/usr/bin/env python3
"""Writes the ROCm fixtures of tests/data/stack/rocm from the documented
layouts (LLVM's AMDGPUUsage "ELF Header" and the clang-offload-bundler
documentation): AMDGPU code objects reduced to their ELF header, clang
offload bundles for gfx90a and gfx942 (plain, zlib- and zstd-compressed)
and damaged ones. Run it from this directory; the outputs are committed so
that the tests need neither ROCm nor this script. zstd(1) makes the zstd one."""
import struct
import subprocess
import zlib

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
EM_AMDGPU = 224
ELFOSABI_AMDGPU_HSA = 64
ABI_V5 = 3                      # EI_ABIVERSION 3 = code object v5
MACH_GFX90A, MACH_GFX942 = 0x03F, 0x04C
XNACK_ON, XNACK_OFF, SRAMECC_ANY, SRAMECC_ON = 0x300, 0x200, 0x400, 0xC00


def code_object(flags, extra=64):
    """An ELF64 header for EM_AMDGPU (ET_DYN), then `extra` zero bytes of 'code'."""
    ident = b"\x7fELF" + bytes([2, 1, 1, ELFOSABI_AMDGPU_HSA, ABI_V5]) + bytes(7)
    head = ident + struct.pack("<HHIQQQIHHHHHH", 3, EM_AMDGPU, 1, 0, 0, 0, flags,
                               64, 0, 0, 0, 0, 0)
    assert len(head) == 64
    return head + bytes(extra)


GFX90A = code_object(MACH_GFX90A | XNACK_ON | SRAMECC_ANY)      # gfx90a:xnack+
GFX942 = code_object(MACH_GFX942 | SRAMECC_ON | XNACK_OFF)      # gfx942:sramecc+:xnack-

TRIPLES = [
    (b"host-x86_64-unknown-linux-gnu", b""),
    (b"hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+", GFX90A),
    (b"hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", GFX942),
]


def bundle(entries, align=64):
    """magic, u64 count, per entry {u64 offset, u64 size, u64 triple length, triple}, then the code."""
    table = len(MAGIC) + 8 + sum(24 + len(t) for t, _ in entries)
    pos = (table + align - 1) // align * align
    heads, body = [], b""
    for triple, code in entries:
        at = pos + len(body)
        heads.append(struct.pack("<QQQ", at, len(code), len(triple)) + triple)
        body += code + bytes((-len(code)) % align)
    out = MAGIC + struct.pack("<Q", len(entries)) + b"".join(heads)
    return out + bytes(pos - len(out)) + body


def ccob(raw, method, payload, version):
    """A compressed bundle: CCOB, u16 version, u16 method, sizes, u64 hash, data."""
    if version == 2:
        head = struct.pack("<4sHHIIQ", b"CCOB", 2, method, 24 + len(payload), len(raw), 0)
    else:
        head = struct.pack("<4sHHQQQ", b"CCOB", 3, method, 32 + len(payload), len(raw), 0)
    return head + payload


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


plain = bundle(TRIPLES)
write("gfx90a.hsaco", GFX90A)
write("gfx942.hsaco", GFX942)
write("bundle_gfx90a_gfx942.hipfb", plain)
write("bundle_zlib.hipfb", ccob(plain, 0, zlib.compress(plain, 9), 3))
zstd = subprocess.run(["zstd", "-q", "-c", "-19"], input=plain, stdout=subprocess.PIPE,
                      check=True).stdout
write("bundle_zstd.hipfb", ccob(plain, 1, zstd, 2))
# a .hip_fatbin section as the linker leaves it: one bundle per translation unit, zero padding
write("bundles_two.hipfb", plain + bytes(4096 - len(plain)) + ccob(plain, 1, zstd, 2))

# damaged inputs
write("bad_truncated.hipfb", plain[:50])                        # inside entry 0's header
past = bytearray(plain)
second = len(MAGIC) + 8 + 24 + len(TRIPLES[0][0])              # entry 1's header
struct.pack_into("<Q", past, second + 8, len(plain))            # its size: the whole file
write("bad_past_end.hipfb", bytes(past))
count = bytearray(plain)
struct.pack_into("<Q", count, len(MAGIC), 1 << 60)
write("bad_count.hipfb", bytes(count))
triple = bytearray(plain)
third = second + 24 + len(TRIPLES[1][0])                        # entry 2's header
struct.pack_into("<Q", triple, third + 16, 5000)                # its triple length
write("bad_triple.hipfb", bytes(triple))
broken = bytearray(zstd)
for i in range(12, len(broken)):
    broken[i] ^= 0x5A
write("bad_zstd.hipfb", ccob(plain, 1, bytes(broken), 2))
write("bad_short.hsaco", GFX942[:40])
