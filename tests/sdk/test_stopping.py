"""arh_grader.stopping: a signal inside deferred() acts when the block ends,
even while another thread that does not mask it is alive (the kernel may
hand it the signal; a mask in the main thread alone would not hold it)."""

import os
import signal
import threading
import unittest

import support  # noqa: F401  (puts grader/ on the path)
from arh_grader import stopping


class StoppingTest(unittest.TestCase):
    def setUp(self):
        idle = threading.Event()            # a thread that masks nothing, as a server's
        thread = threading.Thread(target=idle.wait, daemon=True)
        thread.start()
        self.addCleanup(thread.join)
        self.addCleanup(idle.set)

    def test_a_signal_inside_the_block_acts_after_it(self):
        for signum, name, status in ((signal.SIGTERM, "SIGTERM", 143),
                                     (signal.SIGINT, "Ctrl-C", 130)):
            with self.subTest(signal=name):
                done = []
                with self.assertRaises(stopping.Stopped) as caught:
                    with stopping.handled():
                        with stopping.deferred():
                            os.kill(os.getpid(), signum)
                            for step in range(1000):        # the handler has its chances
                                done.append(step)
                        done.append("after the block")     # never reached
                self.assertEqual((caught.exception.signum, len(done)), (signum, 1000))
                self.assertEqual(stopping.SIGNALS[signum], (name, status))

    def test_outside_the_block_a_signal_stops_at_once_and_handlers_come_back(self):
        before = signal.getsignal(signal.SIGTERM)
        done = []
        with self.assertRaises(stopping.Stopped):
            with stopping.handled():
                os.kill(os.getpid(), signal.SIGTERM)
                for step in range(1000):
                    done.append(step)
        self.assertLess(len(done), 1000)
        self.assertIs(signal.getsignal(signal.SIGTERM), before)

    def test_a_block_without_a_signal_raises_nothing(self):
        before = signal.getsignal(signal.SIGINT)    # default_int_handler, or SIG_IGN under nohup
        with stopping.handled():
            with stopping.deferred():
                with stopping.deferred():           # nested: held until the outer ends
                    pass
        self.assertIs(signal.getsignal(signal.SIGINT), before)


if __name__ == "__main__":
    unittest.main()
