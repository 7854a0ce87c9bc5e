"""The ports a started worker is given (arh_grader/workers.py): drawn below
the kernel's range for port 0, where the oracles listen, and never the
same twice in a process, so that no oracle can take a worker's port between
the draw and the worker's bind."""

import os
import socket
import unittest

import toy
from arh_grader import workers

KERNEL_RANGE = "/proc/sys/net/ipv4/ip_local_port_range"


class FreePortTest(unittest.TestCase):
    def test_ports_are_distinct_and_free_and_in_ports(self):
        ports = [workers.free_port() for _ in range(200)]
        self.assertEqual(len(set(ports)), len(ports))
        for port in ports[:20]:
            with self.subTest(port=port):
                self.assertIn(port, workers.PORTS)
                with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                    sock.bind((workers.HOST, port))     # still free: nothing took it

    @unittest.skipUnless(os.path.exists(KERNEL_RANGE), "no Linux port range here")
    def test_ports_lie_below_the_range_an_oracle_s_port_0_is_drawn_from(self):
        with open(KERNEL_RANGE) as f:
            low, high = map(int, f.read().split())
        self.assertLess(workers.PORTS.stop - 1, low)
        oracle = toy.start_oracle(self)                 # a bind to port 0, as every oracle
        self.assertGreaterEqual(oracle.port, low)


if __name__ == "__main__":
    unittest.main()
