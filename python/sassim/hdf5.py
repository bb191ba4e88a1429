"""The h5py import and HDF5 string handling shared by the readers."""

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
