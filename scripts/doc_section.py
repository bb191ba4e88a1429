"""A generated section of a Markdown document: the lines from a BEGIN marker to an END
marker (both included), written by the script that computes it and checked by its --check
(scripts/validate_energy.py, validate_collectives.py, llm_whatif.py)."""

import sys


def replace(text, begin, end, section):
    """`text` with its section from `begin` to `end` (and the newline after it) replaced by
    `section`; a document without the section gets it appended after a blank line."""
    if begin not in text:
        return text.rstrip("\n") + "\n\n" + section
    a = text.index(begin)
    b = text.index(end, a) + len(end) + 1
    return text[:a] + section + text[b:]


def current(text, begin, end, section):
    """Whether `text` holds exactly `section` between its markers."""
    return begin in text and end in text and replace(text, begin, end, section) == text


def write_or_check(path, begin, end, section, check, what):
    """Writes `section` into the document at `path`, or with `check` returns 1 (and says so
    on stderr, naming `what`) when the document does not hold it; 0 otherwise."""
    with open(path) as f:
        text = f.read()
    if check:
        if not current(text, begin, end, section):
            sys.stderr.write(f"{path}: {what} is not what its script gives now:\n{section}")
            return 1
        print(f"{path}: {what} is current")
        return 0
    with open(path, "w") as f:
        f.write(replace(text, begin, end, section))
    print(f"wrote {what} of {path}")
    return 0
