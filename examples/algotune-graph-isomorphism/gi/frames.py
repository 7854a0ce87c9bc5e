"""The host's end of one emulator run (gi/emulator.py starts it): the
items fed to the driver one at a time, the plugin's reports and the
driver's answers read back, the guest's output bounded, all under the
run's one deadline.

    session = Session(proc, (frame_w, report_r, answer_r, out_r, err_r), deadline)
    kind, message, env, imported, counts, answers = drive(
        session, problems, cap, write_problem=write)

The driver reads a token for each item: g (go: import the solver), p (a
problem, written by write_problem just before), e (end). The plugin
reports "r COUNT" at each token's read, so an item's count is known when
the next token is read: each token goes only after the answer to the item
before it, and a read the host did not feed, or a second answer to one
item, is an escape. A run ends otherwise with one of the kinds of
gi/emulator.py's docstring, and its message.
"""

import json
import os
import select
import signal
import subprocess
import time

MAX_ANSWER_BYTES = 1 << 20                # bytes, one answer line
MAX_OUTPUT_BYTES = 1 << 20                # bytes, the guest's stdout and stderr, each
EXIT_GRACE_S = 2.0                        # seconds the driver gets to exit after "end"
PLUGIN_KINDS = ("over_budget", "threads", "escape")
FAULTS = {128 + signal.SIGSEGV, 128 + signal.SIGBUS,   # the exit statuses of a memory fault:
          -signal.SIGSEGV, -signal.SIGBUS}            # through sh (as root), or qemu's own
QEMU_WARNING = "qemu-x86_64: warning: TCG doesn't support requested feature"   # every run's


class Session:
    """The host's end of one emulator run: its pipes, buffers and deadline."""

    def __init__(self, proc, fds, deadline):
        self.proc, self.deadline = proc, deadline
        self.frame_w, self.report_r, self.answer_r, self.out_r, self.err_r = fds
        self.reports, self.report_buf, self.answer_buf = [], b"", b""
        self.output = {self.out_r: 0, self.err_r: 0}
        self.err_tail = b""
        self.open = {self.report_r, self.answer_r, self.out_r, self.err_r}

    def pump(self, timeout):
        """Read what is ready; return a (kind, message) that ends the run, or None."""
        ready, _, _ = select.select(sorted(self.open), [], [], max(0.0, timeout))
        for fd in ready:
            data = os.read(fd, 1 << 16)
            if not data:
                self.open.discard(fd)
                continue
            if fd == self.report_r:
                self.report_buf += data
                *lines, self.report_buf = self.report_buf.split(b"\n")
                self.reports.extend(line.decode(errors="replace").split() for line in lines)
            elif fd == self.answer_r:
                self.answer_buf += data
                if len(self.answer_buf.split(b"\n")[-1]) > MAX_ANSWER_BYTES:
                    return "output_too_large", "an answer line is over %d bytes" % MAX_ANSWER_BYTES
            else:
                self.output[fd] += len(data)
                if fd == self.err_r:
                    self.err_tail = (self.err_tail + data)[-2000:]
                if self.output[fd] > MAX_OUTPUT_BYTES:
                    which = "stdout" if fd == self.out_r else "stderr"
                    return "output_too_large", "the solver wrote over %d bytes on %s" % (
                        MAX_OUTPUT_BYTES, which)
        return None

    def next_report(self):
        """Wait for the plugin's next report line: ("r", count) at a framing
        read, or (kind, message) when the run ends."""
        while not self.reports:
            left = self.deadline - time.monotonic()
            if self.report_r not in self.open:    # the plugin's end closed: the emulator is gone
                return self.ended(left)
            if left <= 0:
                return "solver_timeout", "the run passed its deadline"
            ended = self.pump(left)
            if ended:
                return ended
        line = self.reports.pop(0)
        if len(line) >= 2 and line[0] == "r" and line[1].isdigit():
            return "r", int(line[1])
        if line and line[0] in PLUGIN_KINDS:
            return line[0], " ".join(line[2:]) or line[0]
        if line and line[0] == "exit":             # the guest's process ends, no item pending
            return self.ended(self.deadline - time.monotonic())
        return "solver_failed", "the run ended (%s): %s" % (" ".join(line), self.last_words())

    def ended(self, left):
        """(kind, message) of an emulator that is gone or going: its exit
        status, once its stderr is read to the end (or EXIT_GRACE_S, within
        the `left` seconds of the deadline), and its last words."""
        end = time.monotonic() + min(EXIT_GRACE_S, max(0.0, left))
        while self.err_r in self.open and time.monotonic() < end:
            if self.pump(end - time.monotonic()):     # output past its cap: words enough
                break
        code = self.proc.poll()
        if code is None:
            try:
                code = self.proc.wait(timeout=max(0.0, end - time.monotonic()))
            except subprocess.TimeoutExpired:
                code = "unknown"
        if code in FAULTS:
            return "escape", ("the emulator died of a memory fault (status %r): a load or"
                              " store where the guest holds no memory" % code)
        return "solver_failed", "the emulator exited (status %r): %s" % (
            code, self.last_words() or "no message")

    def last_words(self):
        """The last lines of the guest's stderr (at most 3, the emulator's
        warnings of the CPU model's features left out), joined by " | "."""
        lines = [line for line in self.err_tail.decode(errors="replace").strip().splitlines()
                 if not line.startswith(QEMU_WARNING)]
        return " | ".join(lines[-3:])

    def next_answer(self):
        """Wait for the driver's next answer line: ("answer", line), or
        (kind, message) when the run ends first."""
        while b"\n" not in self.answer_buf:
            if self.reports:              # no item is pending: no read may return
                tag, value = self.next_report()
                if tag == "r":
                    return "escape", "a framing read the host did not feed"
                return tag, value
            left = self.deadline - time.monotonic()
            if left <= 0:
                return "solver_timeout", "the run passed its deadline"
            ended = self.pump(min(left, 0.5))
            if ended:
                return ended
            if self.answer_r not in self.open or self.report_r not in self.open:
                tag, value = self.next_report()
                if tag == "r":
                    return "escape", "a framing read the host did not feed"
                return tag, value
        line, _, self.answer_buf = self.answer_buf.partition(b"\n")
        return "answer", line.decode("utf-8", errors="replace")


def item(session, token, what):
    """Start the next item by sending its token; returns the count at the
    read that took it, or (kind, message)."""
    if session.answer_buf:
        return None, ("escape", "%s: more than one answer line for one item" % what)
    os.write(session.frame_w, token)
    tag, value = session.next_report()
    if tag != "r":
        return None, (tag, "%s: %s" % (what, value))
    return value, None


def drive(session, problems, cap, *, write_problem):
    """Feed the items; return (kind, message, env, import, counts, answers).
    An item's count is known when the next item's token is read, so each
    token goes only after the answer before it."""
    counts, answers = [], []
    names = ["the solver's import"] + ["problem %d" % k for k in range(len(problems))]
    tokens = [b"g"] + [b"p"] * len(problems) + [b"e"]
    env = imported = last = None
    for k, token in enumerate(tokens):
        what = names[k] if k < len(names) else "the end"
        if token == b"p":
            write_problem(problems[k - 1])
        at, ended = item(session, token, names[k - 1] if k else "startup")
        if ended:
            return ended[0], ended[1], env, imported, counts, answers
        if k == 0:
            env = at
        else:
            count = at - last
            if cap and count > cap:
                return ("over_budget", "%s passed %d instructions" % (names[k - 1], cap),
                        env, imported, counts, answers)
            if k == 1:
                imported = count
            else:
                counts.append(count)
                answers.append(pending)
        last = at
        if token == b"e":
            break
        tag, line = session.next_answer()
        if tag != "answer":
            return tag, "%s: %s" % (what, line), env, imported, counts, answers
        if k == 0:
            if line != "ready":
                return ("solver_failed", "the solver's import raised: %s" % raised_text(line),
                        env, None, counts, answers)
            continue
        if not line.startswith("ok "):
            return ("solver_failed", "%s: solve raised: %s" % (what, raised_text(line)),
                    env, imported, counts, answers)
        try:
            pending = json.loads(line[3:])
        except ValueError:
            return "escape", "%s: the answer is not JSON" % what, env, imported, counts, answers
    return None, "answered %d problems" % len(problems), env, imported, counts, answers


def raised_text(line):
    if line.startswith("raised "):
        try:
            text = json.loads(line[7:])
            return str(text).strip().splitlines()[-1]
        except (ValueError, IndexError):
            pass
    return "unexpected answer %r" % line[:200]
