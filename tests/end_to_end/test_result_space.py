"""The result is written even when the disk is full, seen from group
testing's grading command: when not even result.json's reservation fits
(result.RESERVE_BYTES set aside before the first instance), grader/grade.py
ends with exit status 2 and one line naming the path and the system's
error, on a real, small disk: a tmpfs this test mounts (it needs root),
filled before the run. The reservation and the run's write into it, in
process on the toy problem: tests/sdk/test_result_space_engine.py."""

import os
import subprocess
import sys
import unittest

import support


class RunOnAFullDiskTest(unittest.TestCase):
    def test_no_room_for_the_reservation_ends_the_command_in_one_line(self):
        disk = support.mount_small_disk(self)
        out = os.path.join(disk, "out")
        os.mkdir(out)
        support.fill(disk)
        done = subprocess.run([sys.executable, os.path.join(support.GRADER, "grade.py"),
                               "--out", out, "--worker", "http://127.0.0.1:9"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertEqual(done.stderr, "grade: cannot write %s: No space left on device\n"
                         % os.path.join(out, "result.json"))
        self.assertEqual(done.stdout, "")
        self.assertEqual(os.listdir(out), [])


if __name__ == "__main__":
    unittest.main()
