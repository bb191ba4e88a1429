"""Unit tests of python/sassim/energy.py (the /energy group of a results file) that
scripts/plot_energy.py draws from. Run by CTest with the other tests of tests/plots."""

import os
import tempfile
import unittest

import h5py
import numpy as np

import results_fixture
from sassim import SassimError
from sassim.energy import power_split, read_energy
from sassim.hdf5 import write_seal

PARTS = ["instructions", "tensor", "register_file", "l1", "shared", "l2", "interconnect",
         "dram", "sm_static", "sm_idle", "chip_static"]
DTYPE = results_fixture.KERNEL_DTYPE + [("energy_j", "<f8"), ("avg_power_w", "<f8")]


def write(path, joules, cycles, seconds, with_energy=True):
    rows = np.zeros(len(joules), dtype=DTYPE)
    for i, (j, c, s) in enumerate(zip(joules, cycles, seconds)):
        rows[i]["id"] = i + 1
        rows[i]["name"] = f"_Z1{chr(ord('a') + i)}v"
        rows[i]["cycles"] = c
        rows[i]["energy_j"] = sum(j)
        rows[i]["avg_power_w"] = sum(j) / s
    with h5py.File(path, "w", userblock_size=512) as f:
        f.create_dataset("kernels", data=rows)
        if with_energy:
            ds = f.create_dataset("energy/joules", data=np.array(joules, dtype=float))
            ds.attrs["components"] = PARTS
            ds.attrs["units"] = "J"
    write_seal(path)


class EnergyFile(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "r.h5")
        # Kernel 1: 2 us, 1 J of instructions and 3 J of DRAM; kernel 2: 1 us, 5 J idle.
        first = [1.0] + [0.0] * 6 + [3.0] + [0.0] * 3
        second = [0.0] * 9 + [5.0, 0.0]
        write(self.path, [first, second], [2000, 1000], [2e-6, 1e-6])

    def tearDown(self):
        self.dir.cleanup()

    def test_split_by_component_and_kernel(self):
        e = read_energy(self.path)
        self.assertEqual(list(e.columns), PARTS)
        self.assertEqual(list(e.index), [1, 2])
        self.assertEqual(e.loc[1, "dram"], 3.0)
        self.assertEqual(e.loc[2, "sm_idle"], 5.0)
        self.assertEqual(list(e.attrs["kernels"]["energy_j"]), [4.0, 5.0])

    def test_power_is_joules_over_seconds(self):
        p = power_split(read_energy(self.path))
        self.assertAlmostEqual(p.loc[1, "instructions"], 1.0 / 2e-6)
        self.assertAlmostEqual(p.loc[1, "dram"], 3.0 / 2e-6)
        self.assertAlmostEqual(p.loc[2, "sm_idle"], 5.0 / 1e-6)
        self.assertAlmostEqual(p.loc[2].sum(), 5.0 / 1e-6)

    def test_a_run_without_energy_is_named(self):
        path = os.path.join(self.dir.name, "none.h5")
        write(path, [[0.0] * 11], [10], [1e-6], with_energy=False)
        with self.assertRaisesRegex(SassimError, r"none.h5: no /energy/joules: the run's config "
                                                 r"has no `energy` section"):
            read_energy(path)


if __name__ == "__main__":
    unittest.main()
