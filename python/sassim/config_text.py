"""Parsing a config in Protobuf text format (a preset or config file, `sassim config
show`, the /config string of a results file, a sweep run's config.txtpb) into a flat
dict keyed by the paths `--set` takes."""

import re

from .errors import SassimError

# A string, punctuation, a word (name, number, enum, true/false), or any other character.
_TOKEN = re.compile(
    r"""\s+|\#[^\n]*"""
    r"""|(?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')"""
    r"""|(?P<punct>[{}\[\]:;,])|(?P<word>[^\s{}\[\]:;,"'\#]+)|(?P<other>.)"""
)
_NAME = re.compile(r"^[A-Za-z_]\w*$")


def parse_config_text(text, source="config"):
    """Returns the config `text` as a flat dict {path: value}: {"num_sms": 20,
    "clocks.core_mhz": 1733, "sm.scheduler.policy": "gto", "l1.cache_global_loads": False,
    ...}. Values are int, float, bool or str (strings and enum names).

    Paths are those `--set` takes: a field written several times (a list, such as
    `cluster.gpc_sms`) gives one entry, its values joined by commas ("18,18,16");
    a map entry (a block holding only `key` and `value`) gives `<map>.<key>`
    (`sm.opcode_latency_cycles.HGMMA`); a block written several times (a list of
    messages, such as `sm.tensor_ops`) numbers its fields `sm.tensor_ops[0].opcode`.
    SassimError naming `source` and the line when the text is malformed."""
    values = {}
    _flatten(_parse_tree(text, source), "", values)
    return values


def config_number(config, path, source="config"):
    """Returns the numeric field at `path` of a flat config as a float; SassimError
    naming the field when it is absent or not a number."""
    if path not in config:
        raise SassimError(f"{source}: the config has no field {path}")
    value = config[path]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise SassimError(f"{source}: config field {path} is {value!r}, not a number")
    return float(value)


def _parse_tree(text, source):
    """Returns the text as nested lists of (name, value or list of entries), in order."""
    lines = text.splitlines()
    tokens = _tokens(text)

    def malformed(line):
        found = lines[line - 1].strip() if line <= len(lines) else ""
        return SassimError(
            f"{source}:{line}: expected 'name: value', 'name {{' or '}}', found '{found}'"
        )

    root = []
    stack = [("", root)]
    i = 0
    while i < len(tokens):
        kind, token, line = tokens[i]
        i += 1
        if token == "}":
            if len(stack) == 1:
                raise SassimError(f"{source}:{line}: '}}' without an open block")
            stack.pop()
        elif kind == "word" and _NAME.match(token):
            colon = i < len(tokens) and tokens[i][1] == ":"
            if colon:
                i += 1
            value_kind, value, _ = tokens[i] if i < len(tokens) else ("", "", line)
            i += 1
            if value == "{":
                entries = []
                stack[-1][1].append((token, entries))
                stack.append((token, entries))
            elif colon and value == "[":
                i = _read_list(tokens, i, token, stack[-1][1], malformed)
            elif colon and value_kind in ("word", "string"):
                stack[-1][1].append((token, _scalar(value)))
            else:
                raise malformed(line)
        elif token not in (";", ","):
            raise malformed(line)
    if len(stack) > 1:
        raise SassimError(f"{source}: block {'.'.join(n for n, _ in stack[1:])} is not closed")
    return root


def _read_list(tokens, i, name, entries, malformed):
    """Adds (name, value) to entries for each value of a `[a, b, ...]` list whose first
    value is tokens[i]; returns the index after its `]`."""
    start_line = tokens[i - 1][2]
    while i < len(tokens) and tokens[i][1] != "]":
        if tokens[i][0] in ("word", "string"):
            entries.append((name, _scalar(tokens[i][1])))
        elif tokens[i][1] != ",":
            raise malformed(tokens[i][2])
        i += 1
    if i == len(tokens):
        raise malformed(start_line)
    return i + 1


def _tokens(text):
    """Returns the tokens of the text as (kind, text, line number), without spaces and
    comments."""
    tokens = []
    line = 1
    for m in _TOKEN.finditer(text):
        if m.lastgroup:
            tokens.append((m.lastgroup, m.group(), line))
        line += m.group().count("\n")
    return tokens


def _flatten(entries, prefix, out):
    """Adds the entries of one block to `out`, keyed by prefix + name."""
    by_name = {}
    for name, value in entries:
        by_name.setdefault(name, []).append(value)
    for name, items in by_name.items():
        path = prefix + name
        scalars = [v for v in items if not isinstance(v, list)]
        blocks = [v for v in items if isinstance(v, list)]
        if scalars:
            out[path] = scalars[0] if len(scalars) == 1 else ",".join(map(_text, scalars))
        if blocks and all(_is_map_entry(b) for b in blocks):
            for block in blocks:
                entry = dict(block)
                out[f"{path}.{entry['key']}"] = entry["value"]
        elif len(blocks) == 1:
            _flatten(blocks[0], path + ".", out)
        else:
            for i, block in enumerate(blocks):
                _flatten(block, f"{path}[{i}].", out)


def _is_map_entry(block):
    return sorted(name for name, _ in block) == ["key", "value"] and not any(
        isinstance(v, list) for _, v in block
    )


def _text(value):
    """The value as the config text (and --set) writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _scalar(text):
    if text[0] in "\"'":
        return bytes(text[1:-1], "utf-8").decode("unicode_escape")
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text  # an enum name
