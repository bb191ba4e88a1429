"""Short, readable kernel names for labels."""

import re


def short_kernel_name(name):
    """Returns the function name of an Itanium-mangled kernel name
    (_Z6vecAddIfEvPT_S1_S1_i -> vecAdd, _ZN2ns4gemmEv -> ns::gemm); other names
    unchanged."""
    if not name.startswith("_Z"):
        return name
    rest = name[2:]
    nested = rest.startswith("N")
    if nested:
        rest = rest[1:]
    parts = []
    while rest and rest[0].isdigit():
        m = re.match(r"(\d+)", rest)
        length = int(m.group(1))
        start = m.end()
        parts.append(rest[start:start + length])
        rest = rest[start + length:]
        if not nested:
            break
    return "::".join(parts) if parts else name


def kernel_labels(kernels):
    """Returns "<id> <short name>" per row of a kernels DataFrame (kernel_id,
    kernel_name)."""
    return [f"{int(i)} {short_kernel_name(str(n))}"
            for i, n in zip(kernels["kernel_id"], kernels["kernel_name"])]


def shorten(text, limit=40):
    """Returns `text`, cut to `limit` characters ending in "..." when longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
