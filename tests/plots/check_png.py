"""Checks that each argument is a valid, non-empty PNG image: the PNG signature, an IHDR
chunk with a nonzero size, and pixels that decode. Exit 1 naming the first bad file."""

import struct
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.image  # noqa: E402


def check(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) == 0:
        return "empty file"
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "no PNG signature"
    length, kind = struct.unpack(">I4s", data[8:16])
    if kind != b"IHDR" or length != 13:
        return "no IHDR chunk first"
    width, height = struct.unpack(">II", data[16:24])
    if width == 0 or height == 0:
        return f"image is {width} x {height}"
    if data[-8:-4] != b"IEND":
        return "no IEND chunk at the end (truncated?)"
    pixels = matplotlib.image.imread(path)
    if pixels.shape[0] != height or pixels.shape[1] != width:
        return f"decoded {pixels.shape}, header says {width} x {height}"
    return None


def main():
    for path in sys.argv[1:]:
        try:
            problem = check(path)
        except OSError as e:
            problem = str(e)
        if problem:
            print(f"{path}: not a valid PNG: {problem}")
            sys.exit(1)
        print(f"{path}: valid PNG")


if __name__ == "__main__":
    main()
