"""Config columns are `--set` paths: lists, maps and lists of messages of real configs
(`sassim config show`, the preset files), and a round trip through `--set`."""

import os
import unittest

from sassim.config_text import parse_config_text
from support import PRESETS, sassim_cli


def shown(preset, *sets):
    """Returns `sassim config show PRESET --set ...` parsed."""
    args = [a for s in sets for a in ("--set", s)]
    return parse_config_text(sassim_cli("config", "show", preset, *args), preset)


def preset_file(name):
    with open(os.path.join(PRESETS, f"{name}.txtpb"), encoding="utf-8") as f:
        return parse_config_text(f.read(), f"{name}.txtpb")


class ConfigColumns(unittest.TestCase):
    def test_lists_maps_and_repeated_blocks(self):
        h100 = shown("h100")
        self.assertEqual(h100["num_sms"], 132)
        self.assertEqual(h100["cluster.gpc_sms"], "18,18,16,16,16,16,16,16")
        self.assertEqual(h100["sm.opcode_latency_cycles.HGMMA"], 128)
        self.assertEqual(h100["sm.tensor_ops[0].opcode"], "HGMMA.64x256x16.F32")
        self.assertEqual(h100["sm.tensor_ops[0].latency_cycles_per_n"], 0.5)
        self.assertNotIn("sm.tensor_ops.opcode", h100)
        self.assertNotIn("sm.opcode_latency_cycles.key", h100)

    def test_preset_files_read_like_config_show(self):
        for name in ("gtx1080", "h100", "a100"):
            with self.subTest(preset=name):
                written, resolved = preset_file(name), shown(name)
                self.assertGreater(len(written), 50)
                for path, value in written.items():
                    self.assertEqual(resolved[path], value, path)

    def test_columns_set_one_preset_into_another(self):
        h100 = shown("h100")
        sets = [f"{p}={_text(v)}" for p, v in h100.items() if "[" not in p]
        self.assertGreater(len(sets), 130)
        moved = shown("gtx1080", *sets)  # every field but the list of tensor_ops
        self.assertEqual(moved,
                         {p: v for p, v in h100.items() if "[" not in p})
        self.assertNotEqual(shown("gtx1080")["num_sms"], moved["num_sms"])

    def test_preset_with_a_base(self):
        h200 = preset_file("h200")
        self.assertEqual(h200["base"], "h100")
        self.assertEqual(shown("h200")["num_sms"], 132)


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


if __name__ == "__main__":
    unittest.main()
