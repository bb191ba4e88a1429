"""The h5py import, HDF5 string handling and the results files' seal, shared by the
readers."""

import re
import zlib

from .errors import SassimError


def import_h5py():
    """Returns the h5py module; SassimError with the Debian package to install when it
    is missing."""
    try:
        import h5py  # noqa: PLC0415 - only the .h5 readers need it
    except ImportError as missing:  # pragma: no cover - depends on the machine
        raise SassimError(
            f"reading .h5 files needs h5py ({missing}); on Debian: apt install python3-h5py"
        ) from missing
    return h5py


def text(value):
    """Returns an HDF5 string value (bytes or str) as str."""
    return value.decode() if isinstance(value, bytes) else str(value)


SEAL_BYTES = 512
SEAL_MAGIC = b"sassim-seal v1 "


def check_seal(path):
    """Raises SassimError naming the path unless the file's seal (its first 512 bytes,
    ground/file_seal.h: "sassim-seal v1 bytes=N crc32=xxxxxxxx") matches the bytes after
    it: a damaged or truncated results file is refused before HDF5 reads it."""
    with open(path, "rb") as f:
        head = f.read(SEAL_BYTES)
        crc, size = 0, 0
        while chunk := f.read(1 << 20):
            crc = zlib.crc32(chunk, crc)
            size += len(chunk)
    if not head.startswith(SEAL_MAGIC):
        raise SassimError(
            f"{path}: no seal in its first {SEAL_BYTES} bytes: not a results file of "
            "`sassim run --out`, or one written by a build older than seals, whose contents "
            "cannot be checked (run it again)"
        )
    m = re.match(rb"sassim-seal v1 bytes=(\d+) crc32=([0-9a-f]{8})\n", head)
    if not m:
        raise SassimError(f"{path}: damaged: its seal cannot be read")
    if size != int(m.group(1)):
        raise SassimError(
            f"{path}: truncated or damaged: {size} bytes after the seal, {int(m.group(1))} sealed"
        )
    if crc != int(m.group(2), 16):
        raise SassimError(
            f"{path}: damaged: CRC-32 {crc:08x} of its contents, {m.group(2).decode()} sealed"
        )


def write_seal(path):
    """Seals a file whose first 512 bytes are free (h5py.File(..., userblock_size=512)),
    as `sassim run --out` does: for tools and tests that write results files."""
    with open(path, "r+b") as f:
        head = f.read(SEAL_BYTES)
        if len(head) != SEAL_BYTES or head.strip(b"\0"):
            raise SassimError(f"{path}: no free {SEAL_BYTES} bytes at the start for the seal")
        body = f.read()
        seal = f"sassim-seal v1 bytes={len(body)} crc32={zlib.crc32(body):08x}\n".encode()
        f.seek(0)
        f.write(seal.ljust(SEAL_BYTES, b"\0"))
