"""Finding the binary, the override convention, and what run() passes and raises, with
stand-in binaries (small shell scripts)."""

import os
import stat
import tempfile
import unittest
from unittest import mock

import sassim
from sassim import runner
from sassim.runner import find_binary, override_arguments


def stand_in(folder, body, name="sassim"):
    """Writes an executable shell script `name` with `body` into folder; returns its path."""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


class Overrides(unittest.TestCase):
    def test_dict_then_keywords_with_double_underscores(self):
        self.assertEqual(
            override_arguments({"l2.hit_latency_cycles": 400, "sm.opcode_latency_cycles.HGMMA": 9},
                               {"sm__scheduler__policy": "lrr", "num_sms": 4}),
            ["--set", "l2.hit_latency_cycles=400", "--set", "sm.opcode_latency_cycles.HGMMA=9",
             "--set", "sm.scheduler.policy=lrr", "--set", "num_sms=4"])

    def test_values(self):
        self.assertEqual(override_arguments({"a": True, "b": False, "c": [16, 18], "d": (),
                                             "e": 4.8}),
                         ["--set", "a=true", "--set", "b=false", "--set", "c=16,18",
                          "--set", "d=", "--set", "e=4.8"])

    def test_a_path_given_twice(self):
        with self.assertRaisesRegex(sassim.SassimError, "override sm.x given twice"):
            override_arguments({"sm.x": 1}, {"sm__x": 2})


class FindBinary(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.a = stand_in(self.dir.name, "exit 0", "a")
        self.b = stand_in(self.dir.name, "exit 0", "b")

    def tearDown(self):
        self.dir.cleanup()

    def test_argument_then_environment(self):
        with mock.patch.dict(os.environ, {"SASSIM_BINARY": self.b}):
            self.assertEqual(find_binary(self.a), self.a)
            self.assertEqual(find_binary(), self.b)
        with mock.patch.dict(os.environ, {"SASSIM_BINARY": "/no/such/sassim"}):
            with self.assertRaisesRegex(sassim.SassimError,
                                        r"/no/such/sassim \(SASSIM_BINARY\): no such executable"):
                find_binary()

    def test_source_tree_then_path(self):
        path_dir = os.path.join(self.dir.name, "bin")
        os.mkdir(path_dir)
        on_path = stand_in(path_dir, "exit 0")
        env = {k: v for k, v in os.environ.items() if k != "SASSIM_BINARY"}
        env["PATH"] = path_dir
        with mock.patch.dict(os.environ, env, clear=True):
            with mock.patch.object(runner, "SOURCE_TREE_BINARY", self.a):
                self.assertEqual(find_binary(), self.a)
            with mock.patch.object(runner, "SOURCE_TREE_BINARY", "/no/such/sassim"):
                self.assertEqual(find_binary(), on_path)
                os.remove(on_path)
                with self.assertRaisesRegex(sassim.SassimError, "no sassim binary: none given"):
                    find_binary()


class RunCommand(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.argv = os.path.join(self.dir.name, "argv")

    def tearDown(self):
        self.dir.cleanup()

    def test_arguments_passed(self):
        fake = stand_in(self.dir.name, f'printf "%s\\n" "$@" > {self.argv}; exit 2')
        with self.assertRaises(sassim.RunError):
            sassim.run("t", "p.txtpb", out="o.h5", binary=fake, threads=3,
                       overrides={"a.b": 1}, c__d="x y")
        with open(self.argv) as f:
            self.assertEqual(f.read().splitlines(),
                             ["run", "t", "--config", "p.txtpb", "--set", "a.b=1", "--set",
                              "c.d=x y", "--threads", "3", "--out", "o.h5", "-q"])

    def test_failure_carries_stderr_and_status(self):
        fake = stand_in(self.dir.name, 'echo "sassim: error: it broke" >&2; exit 3')
        with self.assertRaises(sassim.RunError) as raised:
            sassim.run("t", binary=fake)
        e = raised.exception
        self.assertEqual(str(e), "sassim run exited with status 3: sassim: error: it broke")
        self.assertEqual(e.returncode, 3)
        self.assertEqual(e.command[:2], [fake, "run"])
        self.assertNotIn("--config", e.command)

    def test_success_without_a_results_file(self):
        fake = stand_in(self.dir.name, "exit 0")
        with self.assertRaisesRegex(sassim.SassimError, r"results\.h5: cannot open as HDF5"):
            sassim.run("t", "gtx1080", binary=fake)


if __name__ == "__main__":
    unittest.main()
