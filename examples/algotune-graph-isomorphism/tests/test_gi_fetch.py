"""The manifests of gi/fetch.py, which mark a build of the tree or the
emulator done and check it later: a finished build passes, and a changed,
added or removed file, a changed mode or link, or other pins, each fail
the check, naming what differs; and the wheels' pins, read from
requirements.txt, each line a name, a version and a sha256."""

import os
import unittest

import gi_support
from gi import fetch

PINS = [["libc6", "2.36", "amd64", "ab" * 32]]


class ManifestTest(unittest.TestCase):
    def setUp(self):
        self.root = os.path.join(gi_support.tmpdir(self), "root")
        os.makedirs(os.path.join(self.root, "usr", "lib"))
        with open(os.path.join(self.root, "usr", "lib", "a.so"), "wb") as f:
            f.write(b"library")
        os.symlink("usr/lib", os.path.join(self.root, "lib"))
        self.manifest = self.root + ".manifest"
        self.digest = fetch.write_manifest(self.root, self.manifest, PINS)

    def fails(self, pins, *words):
        with self.assertRaises(RuntimeError) as caught:
            fetch.check_manifest(self.root, self.manifest, "the tree", pins)
        for word in ("the tree",) + words:
            self.assertIn(word, str(caught.exception))

    def test_a_finished_build_passes_with_the_digest_written(self):
        self.assertEqual(fetch.check_manifest(self.root, self.manifest, "the tree", PINS),
                         self.digest)
        self.assertEqual(fetch.sha256_file(self.manifest), self.digest)
        with open(self.manifest, encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual([line.split()[0] for line in lines], ["P", "L", "D", "D", "F"])
        self.assertEqual(lines[1], "L usr/lib lib")

    def test_other_pins_fail(self):
        self.fails([PINS[0][:3] + ["cd" * 32]], "'P ")
        self.fails([], "'P ")

    def test_a_changed_file_mode_or_link_fails(self):
        def library():
            return os.path.join(self.root, "usr", "lib", "a.so")

        def write(path, mode):
            with open(path, mode) as f:
                f.write(b"!")
        for change, word in ((lambda: write(library(), "ab"), "usr/lib/a.so"),
                             (lambda: os.chmod(library(), 0o600), "usr/lib/a.so"),
                             (lambda: write(library() + "2", "wb"), "usr/lib/a.so2"),
                             (lambda: os.unlink(library()), "usr/lib/a.so"),
                             (lambda: os.replace(os.path.join(self.root, "lib"),
                                                 os.path.join(self.root, "lib64")), "lib")):
            with self.subTest(word=word):
                self.setUp()            # a fresh build for each change
                change()
                self.fails(PINS, word)

    def test_no_manifest_is_not_built(self):
        os.unlink(self.manifest)
        self.fails(PINS, "not built", repr(self.manifest))


class RequirementsTest(unittest.TestCase):
    def test_the_pins_hold_the_wheels_of_requirements_txt(self):
        wheels = fetch.load_pins()["wheels"]
        self.assertEqual([name for name, _, _ in wheels], ["networkx", "numpy", "scipy"])
        with open(fetch.REQUIREMENTS, encoding="utf-8") as f:
            lines = [line.strip() for line in f if line.strip() and not line.startswith("#")]
        self.assertEqual(lines, ["%s==%s --hash=sha256:%s" % tuple(w) for w in wheels])

    def test_a_line_that_is_not_a_pin_is_named(self):
        path = os.path.join(gi_support.tmpdir(self), "requirements.txt")
        for line in ("numpy>=2.5 --hash=sha256:" + "a" * 64, "numpy==2.5.5",
                     "numpy==2.5.5 --hash=sha256:" + "a" * 63, "numpy==2.5.5 --hash=md5:ab"):
            with self.subTest(line=line):
                with open(path, "w", encoding="utf-8") as f:
                    f.write("# wheels\n\nscipy==1.0 --hash=sha256:%s\n%s\n" % ("b" * 64, line))
                with self.assertRaisesRegex(RuntimeError, "line 4 is not NAME==VERSION"):
                    fetch.load_requirements(path)


if __name__ == "__main__":
    unittest.main()
