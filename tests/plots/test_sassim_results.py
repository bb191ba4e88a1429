"""Unit tests of the parsing and aggregation helpers of the sassim package (python/sassim)
that the plot tools use. Run by CTest: python3 -m unittest discover -s tests/plots
(PYTHONPATH=python:tests/plots)."""

import math
import os
import tempfile
import unittest

import pandas as pd

import results_fixture
from sassim import SassimError, config_text, counters, names, read_results, roofline, sweep
from sassim.hdf5 import write_seal

HERE = os.path.dirname(os.path.abspath(__file__))
SWEEP_CSV = os.path.join(HERE, "data", "sweep.csv")


class ConfigText(unittest.TestCase):
    def test_nested_fields_and_types(self):
        c = config_text.parse_config_text(results_fixture.CONFIG_TEXT)
        self.assertEqual(c["num_sms"], 2)
        self.assertEqual(c["clocks.core_mhz"], 1000)
        self.assertEqual(c["sm.units.fp32.initiation_interval_cycles"], 1)
        self.assertEqual(c["sm.scheduler.policy"], "gto")
        self.assertEqual(c["dram.type"], "GDDR5X")
        self.assertIs(c["l1.cache_global_loads"], False)

    def test_preset_style_comments_and_floats(self):
        c = config_text.parse_config_text(
            'base: "a100"  # inherit\nclocks {  # c\n  core_mhz: 1.5e3\n}\n')
        self.assertEqual(c["base"], "a100")
        self.assertEqual(c["clocks.core_mhz"], 1500.0)

    def test_errors_name_the_line(self):
        with self.assertRaisesRegex(SassimError, r"^f:2: expected 'name: value'"):
            config_text.parse_config_text("a: 1\nwhat is this\n", "f")
        with self.assertRaisesRegex(SassimError, r"^f:1: '}' without an open block"):
            config_text.parse_config_text("}\n", "f")
        with self.assertRaisesRegex(SassimError, r"^f: block sm\.units is not closed"):
            config_text.parse_config_text("sm {\n units {\n", "f")

    def test_config_number(self):
        c = {"a": 3, "s": "x", "b": True}
        self.assertEqual(config_text.config_number(c, "a"), 3.0)
        with self.assertRaisesRegex(SassimError, "has no field dram.channels"):
            config_text.config_number(c, "dram.channels")
        with self.assertRaisesRegex(SassimError, "config field s is 'x', not a number"):
            config_text.config_number(c, "s")
        with self.assertRaisesRegex(SassimError, "not a number"):
            config_text.config_number(c, "b")

    def test_roofline_ceilings(self):
        config = config_text.parse_config_text(results_fixture.CONFIG_TEXT)
        bw, fp32, clock = roofline.roofline_ceilings(config)
        self.assertEqual(bw, 8 * 32 / 8 * 10000 * 1e6)  # 320 GB/s
        self.assertEqual(fp32, 2 * 4 * 32 * 2 * 1e9)  # 2 SMs x 4 sub-cores x 32 lanes x FMA
        self.assertEqual(clock, 1e9)


class ResultsFile(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "r.h5")
        results_fixture.write_results(
            self.path,
            [
                {"name": "_Z6vecAddIfEvPT_S1_S1_i", "cycles": 1000, "warp_instructions": 10,
                 "dram_bytes": 400},
                {"name": "_ZN2ns4gemmEv", "cycles": 2000, "warp_instructions": 0},
            ],
            {
                "gpu.sm[0].warp_cycles.selected": [10, 0],
                "gpu.sm[1].warp_cycles.selected": [0, 0],
                "gpu.sm[0].warp_cycles.long_scoreboard": [30, 0],
                "gpu.sm[1].warp_cycles.long_scoreboard": [20, 0],
                "gpu.sm[0].warp_cycles.zzz_custom": [5, 0],
                "gpu.sm[0].flops.fp32": [100, 0],
                "gpu.sm[1].flops.fp32": [60, 0],
                "gpu.sm[0].flops.tensor": [40, 0],
                "gpu.sm[1].warp_insts": [4, 0],
                "gpu.l2.slice[0].sector_hits": [3, 0],
            },
        )

    def tearDown(self):
        self.dir.cleanup()

    def test_reads_the_documented_layout(self):
        r = read_results(self.path)
        self.assertEqual(list(r.kernels["kernel_id"]), [1, 2])
        self.assertEqual(r.kernels["kernel_name"][0], "_Z6vecAddIfEvPT_S1_S1_i")
        self.assertEqual(r.stats.shape, (2, 10))
        self.assertEqual(r.config["clocks.core_mhz"], 1000)

    def test_warp_states_summed_over_sms_in_nsight_order(self):
        states = counters.warp_states(read_results(self.path))
        self.assertEqual(list(states.columns), ["selected", "long_scoreboard", "zzz_custom"])
        self.assertEqual(list(states["long_scoreboard"]), [50, 0])

    def test_cpi_stack_divides_by_warp_instructions(self):
        stack = counters.cpi_stack(read_results(self.path))
        self.assertEqual(stack["selected"][0], 1.0)
        self.assertEqual(stack["long_scoreboard"][0], 5.0)
        self.assertEqual(stack["zzz_custom"][0], 0.5)
        self.assertTrue(math.isnan(stack["selected"][1]))  # no instruction

    def test_flops_and_roofline_points(self):
        r = read_results(self.path)
        self.assertEqual(list(counters.flops(r)), [200, 0])
        self.assertEqual(list(counters.flops(r, ["fp32"])), [160, 0])
        with self.assertRaisesRegex(SassimError, r"no flops\.fp64 counters"):
            counters.flops(r, ["fp64"])
        p = roofline.roofline_points(r)
        self.assertEqual(p["seconds"][0], 1000 / 1e9)
        self.assertAlmostEqual(p["flop_per_s"][0], 200 / 1e-6)
        self.assertEqual(p["intensity"][0], 0.5)
        self.assertEqual(p["intensity"][1], math.inf)  # no DRAM traffic
        self.assertEqual(list(p["label"]), ["1 vecAdd", "2 ns::gemm"])

    def test_tensor_ceilings_come_from_the_peaks_table(self):
        self.assertEqual(roofline.tensor_ceilings(read_results(self.path)), {})  # no /peaks
        results_fixture.write_results(
            self.path, [{"name": "k", "cycles": 1, "warp_instructions": 1}], {"gpu.x": [1]},
            peaks={"tensor_fp8": 4e15, "tensor_bf16": 2e15, "fp32": 1e14, "dram": 5e12})
        r = read_results(self.path)
        self.assertEqual(r.peaks["dram"], 5e12)
        c = roofline.tensor_ceilings(r)
        self.assertEqual(list(c.items()), [("bf16", 2e15), ("fp8", 4e15)])  # operand-type order
        self.assertEqual(roofline.tensor_ceilings(r, ["fp8"]), {"fp8": 4e15})
        self.assertEqual(roofline.tensor_ceilings(r, []), {})
        with self.assertRaisesRegex(SassimError, r"no f16 tensor peak .*it has: bf16, fp8"):
            roofline.tensor_ceilings(r, ["f16"])
        with self.assertRaisesRegex(SassimError, r"unknown tensor precision 'fp4': expected one "
                                    r"of f16, bf16, tf32, fp8"):
            roofline.tensor_ceilings(r, ["fp4"])

    def test_equal_ceilings_share_a_line(self):
        groups = roofline.group_ceilings({"f16": 312e12, "bf16": 312.1e12, "tf32": 156e12,
                                          "fp64": 19.5e12, "int8": 624e12})
        self.assertEqual(groups, [(["f16", "bf16"], 312e12), (["tf32"], 156e12),
                                  (["fp64"], 19.5e12), (["int8"], 624e12)])
        self.assertEqual(roofline.group_ceilings({}), [])

    def test_missing_counters_are_clear_errors(self):
        results_fixture.write_results(self.path, [{"name": "k", "cycles": 1,
                                                   "warp_instructions": 1}], {"gpu.x": [1]})
        r = read_results(self.path)
        with self.assertRaisesRegex(SassimError, r"no gpu\.sm\[<i>\]\.warp_cycles"):
            counters.warp_states(r)
        with self.assertRaisesRegex(SassimError, r"no gpu\.sm\[<i>\]\.flops"):
            counters.flops(r)

    def test_not_a_results_file(self):
        bad = os.path.join(self.dir.name, "bad.h5")
        with open(bad, "w") as f:
            f.write("hello")
        with self.assertRaisesRegex(SassimError, "cannot open as HDF5"):
            read_results(bad)
        import h5py
        with h5py.File(bad, "w"):
            pass
        with self.assertRaisesRegex(SassimError, r"no seal in its first 512 bytes"):
            read_results(bad)
        with h5py.File(bad, "w", userblock_size=512):
            pass
        write_seal(bad)
        with self.assertRaisesRegex(SassimError, r"no /kernels; expected a results file"):
            read_results(bad)


class Names(unittest.TestCase):
    def test_short_kernel_names(self):
        self.assertEqual(names.short_kernel_name("_Z6vecAddIfEvPT_S1_S1_i"), "vecAdd")
        self.assertEqual(names.short_kernel_name("_ZN2ns4gemmEv"), "ns::gemm")
        self.assertEqual(names.short_kernel_name("plain_c_kernel"), "plain_c_kernel")
        self.assertEqual(names.shorten("abcdefgh", 6), "abc...")


class SweepTable(unittest.TestCase):
    def setUp(self):
        self.table = sweep.read_sweep_table(SWEEP_CSV)

    def test_axes_are_the_parameter_columns(self):
        self.assertEqual(sweep.sweep_axes(self.table), ["l2.hit_latency_cycles"])

    def test_stat_summed_over_kernels_one_line_per_trace(self):
        s = sweep.sweep_series(self.table, "l2.hit_latency_cycles", "cycles")
        self.assertEqual(sorted(s), ["traces/bfs", "traces/vectoradd"])
        self.assertEqual(s["traces/bfs"], ([50.0, 100.0, 200.0], [4400.0, 5020.0, 6270.0]))
        self.assertEqual(s["traces/vectoradd"][1], [367.0, 417.0, 517.0])

    def test_ipc_is_recomputed_and_kernels_selected(self):
        s = sweep.sweep_series(self.table, "l2.hit_latency_cycles", "ipc")
        self.assertAlmostEqual(s["traces/bfs"][1][0], (1789 + 1814) / 4400)
        k = sweep.sweep_series(self.table, "l2.hit_latency_cycles", "cycles", kernel=2)
        self.assertEqual(list(k), ["traces/bfs"])
        self.assertEqual(k["traces/bfs"][1], [400.0, 420.0, 470.0])

    def test_wildcards_sum_counter_columns(self):
        cols = sweep.stat_columns(self.table, "gpu.sm[*].warp_insts")
        self.assertEqual(cols, ["gpu.sm[0].warp_insts", "gpu.sm[1].warp_insts"])
        s = sweep.sweep_series(self.table, "l2.hit_latency_cycles",
                            "gpu.sm[*].warp_cycles.long_scoreboard")
        self.assertEqual(s["traces/bfs"][1][0], 3000 + 2000 + 100 + 90)

    def test_rates_are_averaged(self):
        s = sweep.sweep_series(self.table, "l2.hit_latency_cycles", "l2_hit_rate")
        self.assertAlmostEqual(s["traces/bfs"][1][0], 0.85)

    def test_several_axes_and_categorical_values(self):
        t = self.table.copy()
        policies = ["gto", "gto", "lrr", "lrr", "gto", "gto", "gto", "lrr", "gto"]
        t.insert(4, "sm.scheduler.policy", policies)
        self.assertEqual(sweep.sweep_axes(t), ["l2.hit_latency_cycles", "sm.scheduler.policy"])
        s = sweep.sweep_series(t, "sm.scheduler.policy", "cycles")
        self.assertIn("traces/bfs, l2.hit_latency_cycles=50", s)
        self.assertEqual(s["traces/bfs, l2.hit_latency_cycles=100"], (["lrr"], [5020]))
        self.assertFalse(sweep.is_numeric(["gto", "lrr"]))

    def test_errors(self):
        with self.assertRaisesRegex(SassimError, "no column nope in the sweep table; swept "
                                                  "parameters: l2.hit_latency_cycles"):
            sweep.sweep_series(self.table, "nope", "cycles")
        with self.assertRaisesRegex(SassimError, "no column matches 'x.y'"):
            sweep.sweep_series(self.table, "l2.hit_latency_cycles", "x.y")
        with self.assertRaisesRegex(SassimError, "no row of kernel id 9"):
            sweep.sweep_series(self.table, "l2.hit_latency_cycles", "cycles", kernel=9)
        with tempfile.NamedTemporaryFile("w", suffix=".csv") as f:
            f.write("run_id,trace\n1,t\n")
            f.flush()
            with self.assertRaisesRegex(SassimError, "no column kernel_id; expected a sweep"):
                sweep.read_sweep_table(f.name)
        with self.assertRaisesRegex(SassimError, "expected a sweep table"):
            sweep.read_sweep_table("table.txt")

    def test_sweep_h5(self):
        import h5py
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sweep.h5")
            with h5py.File(path, "w") as f:
                cols = list(self.table.columns)
                f.create_dataset("columns", data=cols, dtype=h5py.string_dtype())
                for c in cols:
                    v = self.table[c]
                    if v.dtype == object:
                        f.create_dataset(f"table/{c}", data=list(v), dtype=h5py.string_dtype())
                    else:
                        f.create_dataset(f"table/{c}", data=v.to_numpy())
            t = sweep.read_sweep_table(path)
            pd.testing.assert_frame_equal(t, self.table, check_dtype=False)


if __name__ == "__main__":
    unittest.main()
