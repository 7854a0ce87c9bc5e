"""The result is written even when the disk is full: engine.run sets aside
result.RESERVE_BYTES for result.json before the first instance and writes
into that space in place. Proven on a real, small disk: a tmpfs this test
mounts (support.mount_small_disk: it needs root), filled by another file
during the run, which is the toy problem's (toy.py) with its evaluation
made by hand. When not even the reservation fits, or the write still
fails, the run ends with SystemExit(2) and one line naming the path and
the system's error. Group testing's grading command on a full disk:
tests/end_to_end/test_result_space.py."""

import argparse
import errno
import os
import sys
import unittest
from unittest import mock

import support
import toy
from arh_grader import engine
from arh_grader import result as result_module
from support import fill, mount_small_disk

DISK_BYTES = support.DISK_BYTES     # size of the tmpfs each test mounts


def assert_full(case, directory):
    """The disk of `directory` takes no byte more."""
    with case.assertRaises(OSError) as caught:
        with open(os.path.join(directory, "one-more-byte"), "wb") as f:
            f.write(b"x")
            f.flush()
            os.fsync(f.fileno())
    case.assertEqual(caught.exception.errno, errno.ENOSPC)


def big_result(instances=500):
    """A result as large as a 500-instance run's: entries of about 150 bytes."""
    entries = [{"index": k, "n": 512, "tests": 100 + k, "baseline_tests": 120 + k,
                "relative_tests": 0.8333333333333334, "defectives": list(range(20)),
                "family": "two-tier"} for k in range(instances)]
    return {"status": "valid", "kind": None, "message": None, "index": None,
            "instances": len(entries), "items": entries}


def run_args(case, out, **given):
    """The grading command's options: the toy's one-instance set, result in `out`."""
    values = dict(items=toy.write_set(case), limit=None, only=None, instance_timeout=None,
                  transcripts=None, out=out)
    values.update(given)
    return argparse.Namespace(**values)


class ReservedWriteTest(unittest.TestCase):
    def test_a_reserved_result_is_written_on_a_full_disk(self):
        disk = mount_small_disk(self)
        path = os.path.join(disk, "out", "result.json")
        obj = big_result()
        reserved = result_module.reserve(path)
        self.assertEqual(os.path.getsize(reserved), result_module.RESERVE_BYTES)
        self.assertGreater(fill(disk), 0)
        assert_full(self, disk)
        result_module.write_json(path, obj, reserved=reserved)
        self.assertEqual(support.read_bytes(path), result_module.json_bytes(obj))
        self.assertEqual(sorted(os.listdir(os.path.dirname(path))), ["result.json"])
        self.assertLess(len(result_module.json_bytes(obj)), result_module.RESERVE_BYTES // 10)

    def test_the_same_bytes_as_an_unreserved_write(self):
        folder = support.tmpdir(self)
        obj = big_result(3)
        result_module.write_json(os.path.join(folder, "plain.json"), obj)
        reserved = result_module.reserve(os.path.join(folder, "kept.json"))
        result_module.write_json(os.path.join(folder, "kept.json"), obj, reserved=reserved)
        self.assertEqual(support.read_bytes(os.path.join(folder, "kept.json")),
                         support.read_bytes(os.path.join(folder, "plain.json")))
        self.assertEqual(sorted(os.listdir(folder)), ["kept.json", "plain.json"])

    def test_a_reservation_that_does_not_fit_leaves_nothing(self):
        disk = mount_small_disk(self)
        path = os.path.join(disk, "result.json")
        with self.assertRaises(OSError) as caught:
            result_module.reserve(path, size=2 * DISK_BYTES)
        self.assertEqual(caught.exception.errno, errno.ENOSPC)
        self.assertEqual(os.listdir(disk), [])

    def test_a_bad_size_is_refused_by_value(self):
        with self.assertRaisesRegex(ValueError, "-1"):
            result_module.reserve(os.path.join(support.tmpdir(self), "r.json"), size=-1)


class RunOnAFullDiskTest(unittest.TestCase):
    def test_the_run_writes_its_result_after_the_disk_filled_during_it(self):
        disk = mount_small_disk(self)
        out = os.path.join(disk, "out")
        made = big_result()

        def evaluate_with(items, settings, indexes):
            self.assertTrue(os.listdir(out), "the reservation exists before the first instance")
            self.assertEqual((items, indexes, settings.instance_timeout_s), ([toy.ITEM], [0], 10))
            fill(disk)
            assert_full(self, disk)
            return made

        got, path = engine.run(run_args(self, out), problem=toy.PROBLEM,
                               settings=support.settings(10), evaluate_with=evaluate_with)
        self.assertIs(got, made)
        self.assertEqual(path, os.path.join(out, "result.json"))
        self.assertEqual(support.read_bytes(path), result_module.json_bytes(made))
        self.assertEqual(os.listdir(out), ["result.json"])

    def test_a_write_that_still_fails_is_one_line_and_exit_status_2(self):
        disk = mount_small_disk(self)
        out = os.path.join(disk, "out")

        def evaluate_with(items, settings, indexes):
            fill(disk)
            return big_result()     # far more than the 16 bytes reserved

        with mock.patch.object(result_module, "RESERVE_BYTES", 16), \
                mock.patch.object(sys, "stderr", new=FakeStream()) as stderr, \
                mock.patch.object(sys, "argv", ["grader/grade.py"]):
            with self.assertRaises(SystemExit) as caught:
                engine.run(run_args(self, out), problem=toy.PROBLEM,
                           settings=support.settings(10), evaluate_with=evaluate_with)
        self.assertEqual(caught.exception.code, 2)
        self.assertEqual(stderr.text, "grade: cannot write %s: No space left on device\n"
                         % os.path.join(out, "result.json"))
        self.assertEqual(os.listdir(out), [], "the temporary file is removed")

    def test_no_room_for_the_reservation_ends_the_run_before_it_starts(self):
        disk = mount_small_disk(self)
        out = os.path.join(disk, "out")
        os.mkdir(out)
        argv = run_args(self, out)          # its set written elsewhere, before the disk fills
        fill(disk)
        evaluated = []
        with mock.patch.object(sys, "stderr", new=FakeStream()) as stderr, \
                mock.patch.object(sys, "argv", ["grader/grade.py"]):
            with self.assertRaises(SystemExit) as caught:
                engine.run(argv, problem=toy.PROBLEM, settings=support.settings(10),
                           evaluate_with=lambda *args: evaluated.append(args))
        self.assertEqual((caught.exception.code, evaluated), (2, []))
        self.assertEqual(stderr.text, "grade: cannot write %s: No space left on device\n"
                         % os.path.join(out, "result.json"))
        self.assertEqual(os.listdir(out), [])


class FakeStream:
    """A stand-in for stderr that keeps what is written."""

    def __init__(self):
        self.text = ""

    def write(self, text):
        self.text += text

    def flush(self):
        pass


if __name__ == "__main__":
    unittest.main()
