"""Running the sassim binary (`sassim run`) and loading what it wrote."""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .errors import RunError, SassimError
from .results import load_results

# build/sim/cli/sassim of the source tree this package lives in (python/sassim/ there).
SOURCE_TREE_BINARY = Path(__file__).resolve().parents[2] / "build" / "sim" / "cli" / "sassim"


def find_binary(binary=None):
    """Returns the path of the sassim binary to run: `binary` when given, else the
    environment variable SASSIM_BINARY, else build/sim/cli/sassim of the source tree
    holding this package, else `sassim` on PATH. SassimError saying where it looked
    when none is an executable file."""
    for given, origin in ((binary, "the binary argument"),
                          (os.environ.get("SASSIM_BINARY"), "SASSIM_BINARY")):
        if given:
            if os.path.isfile(given) and os.access(given, os.X_OK):
                return str(given)
            raise SassimError(f"{given} ({origin}): no such executable file")
    if os.access(SOURCE_TREE_BINARY, os.X_OK):
        return str(SOURCE_TREE_BINARY)
    on_path = shutil.which("sassim")
    if on_path:
        return on_path
    raise SassimError(
        f"no sassim binary: none given, SASSIM_BINARY unset, no {SOURCE_TREE_BINARY} "
        "(scripts/setup.sh builds it) and no sassim on PATH"
    )


def override_arguments(overrides=None, fields=None):
    """Returns the `--set PATH=VALUE` arguments for `overrides` ({"sm.scheduler.policy":
    "gto"}: paths as `--set` takes them) followed by `fields` (keyword names, where a
    double underscore stands for a dot: sm__scheduler__policy). Values: True/False become
    true/false, lists and tuples comma-separated values, others str(). SassimError when
    one path is given twice."""
    paths = {}
    for path, value in (overrides or {}).items():
        paths[str(path)] = value
    for name, value in (fields or {}).items():
        path = name.replace("__", ".")
        if path in paths:
            raise SassimError(f"override {path} given twice ({name}= and in overrides)")
        paths[path] = value
    arguments = []
    for path, value in paths.items():
        arguments += ["--set", f"{path}={_value_text(value)}"]
    return arguments


def _value_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_value_text(v) for v in value)
    return str(value)


def run(trace, preset=None, out=None, *, overrides=None, binary=None, threads=None,
        counters=False, **fields):
    """Runs `sassim run TRACE --config PRESET --set PATH=VALUE... --out OUT -q` and
    returns load_results(OUT, counters) of what it wrote.

    preset: a preset name ("gtx1080") or a config file; None lets sassim choose from the
    trace. out: the results file to write; None writes a temporary one, removed once
    loaded. Overrides come as a dict of `--set` paths (overrides={"sm.scheduler.policy":
    "lrr"}) and as keywords with "__" for each dot (sm__scheduler__policy="lrr"); see
    override_arguments. threads: --threads N. binary: see find_binary.
    RunError (a SassimError) with sassim's stderr message when it exits non-zero."""
    command = [find_binary(binary), "run", os.fspath(trace)]
    if preset is not None:
        command += ["--config", os.fspath(preset)]
    command += override_arguments(overrides, fields)
    if threads is not None:
        command += ["--threads", str(threads)]
    if out is not None:
        return _run(command, os.fspath(out), counters)
    with tempfile.TemporaryDirectory(prefix="sassim-run-") as folder:
        return _run(command, os.path.join(folder, "results.h5"), counters)


def _run(command, out, counters):
    command = command + ["--out", out, "-q"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        message = done.stderr.strip() or done.stdout.strip() or "no message"
        raise RunError(
            f"sassim run exited with status {done.returncode}: {message}",
            command, done.returncode, done.stderr,
        )
    return load_results(out, counters)
