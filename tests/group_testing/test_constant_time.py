"""An answer carries one bit: the oracle's work for a test depends on the
pool's length, never on where its defectives are.

The attack it stops: a tester sends the whole pool in order and then
reversed, and guesses that the defective sits at the end whose pool was
answered sooner. Against an oracle that stops at the first defective it
found, such a pair told the end 65 to 79% of the time."""

import random
import socket
import time
import unittest

import support
from support import problem
from fuzz import request

N = 512                  # items: the largest instance, the largest signal
PAIRS = 1280             # pairs of timed tests; at 0.5, the sd of a rate is 0.014
MOST_RIGHT = 0.56        # rate of right guesses allowed (4.3 sd above 1/2)
SEED = "constant-time"


class CountedPool(list):
    """A pool that counts the items looked at."""

    looked = 0

    def __iter__(self):
        for item in list.__iter__(self):
            self.looked += 1
            yield item


class WorkTest(unittest.TestCase):
    def test_every_item_is_looked_at_wherever_the_defective_is(self):
        for where, defectives in (("first", [0]), ("last", [N - 1]), ("none", []),
                                  ("all", list(range(N)))):
            with self.subTest(defective=where):
                secret = problem.secret_of({"n": N, "defectives": defectives})
                pool = CountedPool(range(N))
                positive = problem.is_positive(secret, {"pool": pool})
                self.assertIs(positive, bool(defectives))
                self.assertEqual(pool.looked, N)


class TimingTest(unittest.TestCase):
    """Over real HTTP, as a raw socket client on a kept-alive connection
    would see it. Load on the machine only adds noise, which moves the rate
    towards 1/2; the order of the two tests of a pair is drawn at random, so
    no drift of the machine favours a guess."""

    def test_a_pair_of_full_pool_tests_does_not_tell_the_end(self):
        rng = random.Random(SEED)
        oracle = support.start_oracle(self)
        forward, backward = list(range(N)), list(range(N - 1, -1, -1))
        bodies = {name: request(('{"pool":%s}' % pool).replace(" ", "").encode(),
                                token=b"%s")
                  for name, pool in (("forward", forward), ("backward", backward))}
        sock = socket.create_connection(("127.0.0.1", oracle.port), timeout=10)
        self.addCleanup(sock.close)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def timed(token, name):
            sock.sendall(bodies[name].replace(b"Bearer %s", b"Bearer " + token.encode()))
            started = time.perf_counter_ns()
            data = b""
            while not data.endswith(b"}"):
                chunk = sock.recv(4096)
                self.assertTrue(chunk, "the oracle closed the connection")
                data += chunk
            elapsed = time.perf_counter_ns() - started
            self.assertIn(b"200 OK", data)
            return elapsed

        right, tokens = 0, []
        for _ in range(PAIRS):
            low = rng.random() < 0.5
            item = rng.randrange(0, 8) if low else rng.randrange(N - 8, N)
            token = oracle.open(problem.secret_of({"n": N, "defectives": [item]}), cap=10,
                                max_body=problem.max_body(N))
            order = ["forward", "backward"]
            rng.shuffle(order)
            seconds = {name: timed(token, name) for name in order}
            tokens.append(token)        # closed at the end: a close cuts a request
            guess_low = seconds["forward"] < seconds["backward"]
            right += guess_low == low
        for token in tokens:
            oracle.close(token)
        rate = right / PAIRS
        self.assertLessEqual(rate, MOST_RIGHT,
                             "a pair of tests told the defective's end %d times of %d"
                             % (right, PAIRS))


if __name__ == "__main__":
    unittest.main()
