"""The settings PROGRAM.md, docs/ and README.md quote, read from the files that
make them: autoresearch.toml's deadlines and MMI, and compose.yaml's walls
around the worker (memory, processes, files, /tmp, logs, DNS, the oracle's
address). The documents' other figures: test_doc_figures_constants.py
(its second paragraph says where the rest are checked)."""

import os
import re
import tomllib
import unittest

import support
from support import COMPARISON, LOCAL_RUN, MANUAL, SCORING, read, said


class SettingsTest(unittest.TestCase):
    """autoresearch.toml's deadlines and MMI, compose.yaml's walls."""

    def test_the_deadlines_and_the_mmi(self):
        with open(os.path.join(support.ROOT, "autoresearch.toml"), "rb") as f:
            settings = tomllib.load(f)
        grader = settings["grader"]
        said(self, "| time for one instance, all its tests included | %d s | `timeout` |"
             % grader["instance_timeout_s"])
        said(self, "| time for the whole run | %d s | `timeout` |" % grader["run_timeout_s"])
        said(self, "| time for the worker to start (your module's import included) | %d s "
             "| `no_answer` |" % grader["worker_start_timeout_s"])
        mmi = "%g" % settings["metric"]["mmi"]
        self.assertEqual(settings["metric"]["mmi_kind"], "absolute")
        for text, docs in (("so the MMI is %s absolute" % mmi, (MANUAL, SCORING)),
                           ("The MMI (%s)" % mmi, (MANUAL, COMPARISON)),
                           ("falls by less than the MMI (%s, `autoresearch.toml`)" % mmi,
                            COMPARISON),
                           ("lower `relative_tests` by %s to count" % mmi, (MANUAL, SCORING))):
            with self.subTest(text=text):
                said(self, text, docs)

    def test_the_walls_of_compose_yaml(self):
        compose = read("compose.yaml")

        def number(pattern):
            return int(re.search(pattern, compose).group(1))

        memory = number(r"\n\s+mem_limit: (\d+)m")
        self.assertEqual(number(r"\n\s+memswap_limit: (\d+)m"), memory)     # no swap
        pids = number(r"\n\s+pids_limit: (\d+)")
        files = number(r"nofile: \{soft: (\d+), hard: \d+\}")
        tmp = number(r'tmpfs: \["/tmp:size=(\d+)m"\]')
        log = number(r"max-size: (\d+)m")
        self.assertEqual(number(r'max-file: "(\d+)"'), 1)
        oom = number(r"\n\s+oom_score_adj: (\d+)")
        rows = ("| memory (`mem_limit`, `memswap_limit`: no swap beyond it) | %d MiB |" % memory,
                "| processes and threads (`pids_limit`) | %d |" % pids,
                "| open files and sockets (`ulimits` `nofile`) | %d |" % files,
                "| `/tmp` (`tmpfs`, in the worker's memory) | %d MiB |" % tmp,
                "| stdout and stderr (json-file log) | %d MiB, one file |" % log)
        for row in rows:
            with self.subTest(row=row):
                said(self, row, LOCAL_RUN)
        said(self, "`EAGAIN` (just short of %d children" % pids, LOCAL_RUN)
        said(self, "`EMFILE` (just short of %d files" % files, LOCAL_RUN)
        said(self, "%d MiB of memory and no swap, %d processes, %d open files, a read-only "
             "root with a %d MiB `/tmp` in its memory, logs of %d MiB" % (
                 memory, pids, files, tmp, log), "README.md")
        said(self, "`oom_score_adj` %d (the host's first process to kill)" % oom, "README.md")
        self.assertIn('dns: ["127.0.0.1"]', compose)
        said(self, '(`dns: ["127.0.0.1"]`)', "README.md")
        url = re.search(r"AR_ORACLE_URL: (\S+)", compose).group(1)
        said(self, "`AR_ORACLE_URL` (`%s`)" % url, "README.md")


if __name__ == "__main__":
    unittest.main()
