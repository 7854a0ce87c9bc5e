"""The HTTP limits every worker on the template keeps (harness/arh_worker.py
keeps its own copy; a test compares), and the oracle's: a problem's
contract adds its own (the /solve body's size, an instance's items).
"""

BODY_TIMEOUT = 2.0          # seconds a body may take to arrive after its header lines
TOKEN_MAX = 256             # characters of a token at most (visible ASCII, 0x21-0x7e)
LINE_MAX = 65_536           # bytes of a request line at most, its CRLF included
WORKER_HEADER_LINES = 99    # header lines of a request to the worker at most
ORACLE_HEADER_LINES = 100   # header lines of a request to the oracle at most
HEADER_LINE_MAX = 65_536    # bytes of one header line at most (the worker's limit)
HEAD_MAX = 65_536           # bytes of all the header lines at most (the oracle's limit)
REPLY_MAX = 1 << 20         # bytes of a worker's reply body the grader reads at most
LISTENING = "worker: listening on "   # the stderr line a worker writes once it listens
ORACLE_URL_DEFAULT = "http://127.0.0.1:8081/"   # AR_ORACLE_URL when it is not set
