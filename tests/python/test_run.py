"""sassim.run on the real binary: its DataFrame against the results file read with h5py,
config columns against the preset, overrides, and the binary's errors."""

import os
import tempfile
import unittest

import h5py

import sassim
from sassim.config_text import parse_config_text
from support import PRESETS, TRACE


class Run(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.dir.name, "r.h5")
        cls.df = sassim.run(TRACE, "gtx1080", out=cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_rows_match_the_kernels_table(self):
        with h5py.File(self.path, "r") as f:
            kernels = f["kernels"][:]
        self.assertEqual(len(self.df), len(kernels))
        self.assertEqual(len(self.df), 1)
        self.assertEqual(list(self.df["cycles"]), [int(c) for c in kernels["cycles"]])
        self.assertGreater(self.df["cycles"][0], 0)
        self.assertEqual(list(self.df["warp_instructions"]),
                         [int(c) for c in kernels["warp_instructions"]])
        self.assertEqual(list(self.df["kernel_id"]), [int(i) for i in kernels["id"]])
        self.assertEqual(self.df["kernel_name"][0], "_Z8mult_gpuIfEvPT_S1_S1_ii")
        self.assertEqual(self.df.attrs["config_name"], "gtx1080")
        self.assertIs(self.df.attrs["partial"], False)
        self.assertEqual(self.df.attrs["file"], self.path)

    def test_config_columns_equal_the_preset(self):
        self.assertEqual(self.df["num_sms"][0], 20)
        self.assertEqual(self.df["clocks.core_mhz"][0], 1733)
        self.assertEqual(self.df["sm.scheduler.policy"][0], "gto")
        self.assertEqual(self.df["dram.type"][0], "GDDR5X")
        with open(os.path.join(PRESETS, "gtx1080.txtpb"), encoding="utf-8") as f:
            preset = parse_config_text(f.read(), "gtx1080.txtpb")
        self.assertGreater(len(preset), 50)
        for path, value in preset.items():
            with self.subTest(path=path):
                self.assertEqual(list(self.df[path]), [value])

    def test_overrides_change_the_config_columns_and_the_cycles(self):
        df = sassim.run(TRACE, "gtx1080", sm__scheduler__policy="lrr",
                        overrides={"l2.hit_latency_cycles": 400})
        self.assertEqual(df["sm.scheduler.policy"][0], "lrr")
        self.assertEqual(df["l2.hit_latency_cycles"][0], 400)
        self.assertEqual(self.df["l2.hit_latency_cycles"][0], 70)
        self.assertGreater(df["cycles"][0], self.df["cycles"][0])  # two thirds hit in L2

    def test_without_out_the_results_file_is_removed(self):
        df = sassim.run(TRACE, "gtx1080", threads=1)
        self.assertEqual(list(df["cycles"]), list(self.df["cycles"]))
        self.assertFalse(os.path.exists(df.attrs["file"]))

    def test_bad_preset_raises_with_the_binary_message(self):
        with self.assertRaises(sassim.SassimError) as raised:
            sassim.run(TRACE, "nosuchgpu")
        self.assertIn("unknown preset 'nosuchgpu'", str(raised.exception))
        self.assertIsInstance(raised.exception, sassim.RunError)
        self.assertEqual(raised.exception.returncode, 1)
        self.assertIn("nosuchgpu", raised.exception.stderr)

    def test_bad_override_and_trace_raise(self):
        with self.assertRaisesRegex(sassim.SassimError,
                                    r"--set sm\.bogus=1: SmConfig has no field 'bogus'"):
            sassim.run(TRACE, "gtx1080", sm__bogus=1)
        with self.assertRaisesRegex(sassim.SassimError, "/no/such/trace: no such file"):
            sassim.run("/no/such/trace", "gtx1080")


if __name__ == "__main__":
    unittest.main()
