"""What the plot tools (scripts/plot_*.py) share: matplotlib, and their error exit."""

import sys

from .errors import SassimError


def pyplot():
    """Returns matplotlib.pyplot on the file-only Agg backend; SassimError naming the
    Debian package when matplotlib is missing."""
    try:
        import matplotlib  # noqa: PLC0415

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError as missing:  # pragma: no cover
        raise SassimError(
            f"plotting needs matplotlib ({missing}); on Debian: apt install python3-matplotlib"
        ) from missing
    return plt


def run_tool(main):
    """Runs a tool's main(); a SassimError becomes 'PROG: error: ...' on stderr and
    exit status 1. Returns nothing."""
    try:
        main()
    except SassimError as e:
        prog = sys.argv[0].rsplit("/", 1)[-1]
        print(f"{prog}: error: {e}", file=sys.stderr)
        sys.exit(1)
