"""sassim.load_results and sassim.load_sweep on files the binary wrote: counter columns,
truncated and foreign files, a real sweep's merged tables and its runs' configs."""

import os
import shutil
import tempfile
import unittest

import h5py
import numpy as np
import pandas as pd

import sassim
from sassim.hdf5 import write_seal
from support import TRACE, VECTORADD, sassim_cli, write_results


class LoadResults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.path = write_results(os.path.join(cls.dir.name, "r.h5"))

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_counter_columns_are_the_stats_table(self):
        df = sassim.load_results(self.path, counters=True)
        with h5py.File(self.path, "r") as f:
            names = f["stats/names"].asstr()[:]
            values = f["stats/values"][:]
        self.assertEqual(len(names), values.shape[1])
        np.testing.assert_array_equal(df[list(names)].to_numpy(), values)
        per_sm = df.filter(regex=r"^gpu\.sm\[\d+\]\.warp_insts$")
        self.assertEqual(per_sm.shape[1], 20)
        self.assertEqual(list(per_sm.sum(axis=1)), list(df["warp_instructions"].astype(float)))
        self.assertNotIn("gpu.sm[0].warp_insts", sassim.load_results(self.path).columns)

    def test_kernel_columns_come_first(self):
        df = sassim.load_results(self.path)
        self.assertEqual(list(df.columns[:3]), ["kernel_id", "kernel_name", "grid_x"])
        # The config's first field follows the /kernels columns.
        self.assertEqual(df.columns[len(sassim.results.KERNEL_COLUMNS)], "name")
        self.assertEqual(df["bound_by"][0], "l1")  # a shared-memory tiled matrixmul
        self.assertEqual(df["name"][0], "NVIDIA GeForce GTX 1080")
        self.assertTrue(df.attrs["trace"].endswith("matrixmul-32-32-trace"))

    def test_truncated_file_raises_with_the_path(self):
        size = os.path.getsize(self.path)
        for keep in (size // 2, size - 64, 1024, 10):
            with self.subTest(keep=keep):
                cut = os.path.join(self.dir.name, f"cut-{keep}.h5")
                shutil.copy(self.path, cut)
                os.truncate(cut, keep)
                with self.assertRaises(sassim.SassimError) as raised:
                    sassim.load_results(cut)
                self.assertTrue(str(raised.exception).startswith(cut + ": "), raised.exception)

    def test_damaged_file_raises_with_the_path(self):
        damaged = os.path.join(self.dir.name, "damaged.h5")
        shutil.copy(self.path, damaged)
        with open(damaged, "r+b") as f:
            at = f.read().find(b"dram {")  # in the /config text
            self.assertGreater(at, 0)
            f.seek(at)
            f.write(b"\xff\xfe")  # not UTF-8
        # The seal finds any changed byte before HDF5 reads the file.
        with self.assertRaisesRegex(
                sassim.SassimError,
                f"^{damaged}: damaged: CRC-32 [0-9a-f]{{8}} of its contents, [0-9a-f]{{8}} sealed$"):
            sassim.load_results(damaged)
        # Sealed again (as a writer that got it wrong would): the reader still names it.
        with open(damaged, "r+b") as f:
            f.write(bytes(512))
        write_seal(damaged)
        with self.assertRaisesRegex(sassim.SassimError,
                                    f"^{damaged}: cannot read the results .*utf-8"):
            sassim.load_results(damaged)

    def test_foreign_files_raise_with_the_path(self):
        text = os.path.join(self.dir.name, "text.h5")
        with open(text, "w") as f:
            f.write("not hdf5")
        with self.assertRaisesRegex(sassim.SassimError, f"^{text}: cannot open as HDF5"):
            sassim.load_results(text)
        empty = os.path.join(self.dir.name, "empty.h5")
        h5py.File(empty, "w").close()
        with self.assertRaisesRegex(sassim.SassimError, f"^{empty}: no seal in its first 512"):
            sassim.load_results(empty)
        sealed = os.path.join(self.dir.name, "sealed.h5")
        h5py.File(sealed, "w", userblock_size=512).close()
        write_seal(sealed)
        with self.assertRaisesRegex(sassim.SassimError, f"^{sealed}: no /kernels"):
            sassim.load_results(sealed)
        missing = os.path.join(self.dir.name, "missing.h5")
        with self.assertRaisesRegex(sassim.SassimError, f"^{missing}: cannot open"):
            sassim.load_results(missing)


class LoadSweep(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.out = os.path.join(cls.dir.name, "sweep")
        spec = os.path.join(cls.dir.name, "spec.txtpb")
        with open(spec, "w") as f:
            f.write(f'base_config: "gtx1080"\ntrace: "{TRACE}"\ntrace: "{VECTORADD}"\n'
                    'axis { path: "sm.scheduler.policy" values: ["gto", "lrr"] }\n'
                    f'output: "{cls.out}"\n')
        sassim_cli("sweep", spec, "-j", "2", "--no-progress")

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_csv_and_h5_give_the_same_table(self):
        csv = sassim.load_sweep(os.path.join(self.out, "sweep.csv"))
        h5 = sassim.load_sweep(os.path.join(self.out, "sweep.h5"))
        self.assertEqual(len(csv), 4)  # 2 traces x 2 policies, one kernel each
        pd.testing.assert_frame_equal(csv, h5, check_dtype=False)
        self.assertEqual(list(csv["sm.scheduler.policy"]), ["gto", "lrr", "gto", "lrr"])
        self.assertIn("gpu.sm[0].warp_insts", csv.columns)

    def test_rows_equal_each_runs_results(self):
        table = sassim.load_sweep(os.path.join(self.out, "sweep.csv"))
        for _, row in table.iterrows():
            with self.subTest(run=row["run_id"]):
                run = sassim.load_results(os.path.join(self.out, "runs", row["run_id"],
                                                       "results.h5"))
                self.assertEqual(row["cycles"], run["cycles"][0])
                self.assertEqual(row["sm.scheduler.policy"], run["sm.scheduler.policy"][0])
        self.assertGreater(table["cycles"].min(), 0)

    def test_config_adds_each_runs_resolved_config(self):
        table = sassim.load_sweep(os.path.join(self.out, "sweep.h5"), config=True)
        self.assertEqual(list(table["num_sms"]), [20] * 4)
        self.assertEqual(list(table["l2.hit_latency_cycles"]), [70] * 4)
        self.assertEqual(list(table["sm.scheduler.policy"]), ["gto", "lrr", "gto", "lrr"])
        moved = os.path.join(self.dir.name, "alone.csv")
        shutil.copy(os.path.join(self.out, "sweep.csv"), moved)
        with self.assertRaisesRegex(sassim.SassimError, r"runs/\w+/config\.txtpb: cannot read"):
            sassim.load_sweep(moved, config=True)

    def test_bad_tables_raise_with_the_path(self):
        with self.assertRaisesRegex(sassim.SassimError, "^t.txt: expected a sweep table"):
            sassim.load_sweep("t.txt")
        results = write_results(os.path.join(self.dir.name, "r.h5"))
        with self.assertRaisesRegex(sassim.SassimError, f"^{results}: no /columns and /table"):
            sassim.load_sweep(results)


if __name__ == "__main__":
    unittest.main()
