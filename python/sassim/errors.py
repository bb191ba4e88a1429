"""The exceptions of the sassim package."""


class SassimError(Exception):
    """An input is missing or malformed, or the sassim binary failed; the message is
    complete (it names the file, field or command and what was expected)."""


class RunError(SassimError):
    """The sassim binary exited with a non-zero status. `command` is its argument list,
    `returncode` its exit status, `stderr` what it printed there."""

    def __init__(self, message, command, returncode, stderr):
        super().__init__(message)
        self.command = command
        self.returncode = returncode
        self.stderr = stderr
