"""The oracle's fuzz cases for test_hostile_oracle.py, on the toy problem's
rules (toy.py): the session they are sent to (SECRET its hidden number,
guesses drawn from 0..N-1), the status the oracle's rules give a counted
request's body, the tables of bad queries, bad JSON and garbage headers,
and OracleFuzz, which draws each case (its bytes, how it is sent, the
statuses it must get, what the session counts, the queries answered 200)
from a seeded generator. The wire tools and the tables the worker's fuzz
shares are in fuzz.py."""

import json
import math

import toy
from fuzz import BAD_LENGTHS, BAD_VERSIONS, METHODS, PATHS, WORD_BYTES, Case, request

N = 100                        # the guesses drawn are 0..N-1
SECRET = toy.SECRET            # the fuzzed session's hidden number
MAX_BODY = 516                 # bytes of its bodies at most


def _reject(name):
    raise ValueError(name)


def _finite(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def oracle_status(body):
    """The status the oracle's rules give a counted request with `body`."""
    if len(body) > MAX_BODY:
        return 413
    try:
        query = json.loads(body.decode("utf-8"), parse_constant=_reject, parse_float=_finite)
        toy.PROBLEM.check_query(SECRET, query)
    except (ValueError, RecursionError):        # QueryError is a ValueError
        return 400
    return 200


# ---- the oracle's fuzz cases -----------------------------------------------

INVALID_QUERIES = [
    [], [0], {}, None, 0, "guess", True, {"guess": None}, {"guess": True}, {"guess": False},
    {"guess": 0.0}, {"guess": 1.5}, {"guess": -0.0}, {"guess": 1e3}, {"guess": [7]},
    {"guess": [[0]]}, {"guess": "7"}, {"guess": {"7": 1}}, {"Guess": 7}, {"GUESS": 7},
    {"guess ": 7}, {"guesses": [7]}, {"why": [7]}, [{"guess": 7}], {"guess": [7], "why": 7},
]
BAD_JSON = [
    b"", b" ", b"{", b"}", b"[", b"nope", b'{"guess": 1,}', b'{"guess": 1 2}', b"{'guess': 1}",
    b'{"guess": NaN}', b'{"guess": Infinity}', b'{"guess": -Infinity}', b"NaN",
    b'{"guess": 1e999}', b'{"guess": -1e400}', b'{"guess": 1}{"guess": 2}',
    b'{"guess": 1} x', b'\xef\xbb\xbf{"guess": 1}', b'{"guess": \xff}', b"\xff\xfe\x00",
    '{"guess": 1}'.encode("utf-16"), b'{"guess": 0x1}', b'{"guess": 01}', b'{"guess": .5}',
    b'{"guess": 1', b'"\\ud800"', b'{"guess": "\\x"}', b"\x00", b'{"guess":1}\x00',
]
GARBAGE_HEADERS = [     # (header line, status): a malformed one is 400, before any token
    (b"no colon here", 400), (b"X: \x00\x01\x02", 400), (b"\xff\xfe: \xfd", 400),
    (b" folded continuation", 400), (b": empty name", 400), (b"X : space before", 400),
    (b"X:" + b"\x85" * 9, 403), (b"X:", 403), (b"X-Y_z.1~: \tpadded\t ", 403),
]


class OracleFuzz:
    """Draws the oracle's fuzz cases from a seeded generator."""

    def __init__(self, rng, token, closed_token):
        self.rng, self.token, self.closed = rng, token, closed_token

    def query(self):
        """A valid query: a guess, half the time with a list of up to 30
        numbers beside it, which the rules let be (the bodies' lengths vary)."""
        rng = self.rng
        query = {"guess": rng.randrange(N)}
        if rng.random() < 0.5:
            query["why"] = rng.sample(range(N), rng.randint(0, 30))
        return query

    def body(self):
        """A body for the live token, and its status, in the `keep` mode."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.35:
            spaced = rng.random() < 0.5
            body = json.dumps(self.query(),
                              separators=(", ", ": ") if spaced else (",", ":")).encode()
        elif roll < 0.55:
            body = json.dumps(rng.choice(INVALID_QUERIES)).encode()
        elif roll < 0.70:
            body = rng.choice(BAD_JSON)
        elif roll < 0.75:
            depth = rng.randint(1, MAX_BODY // 2)
            opener, closer = rng.choice([(b"[", b"]"), (b'{"guess":', b"}")])
            body = (opener * depth + b"0" + closer * depth)[:MAX_BODY]
        elif roll < 0.95:
            body = bytearray(json.dumps(self.query()).encode())
            for _ in range(rng.randint(1, 3)):
                at = rng.randrange(len(body))
                what = rng.random()
                if what < 0.4:
                    body[at] = rng.randrange(256)
                elif what < 0.7:
                    del body[at]
                else:
                    body.insert(at, rng.choice(b'0123456789,[]{}":. -eE\\'))
            body = bytes(body)
        else:
            body = rng.randbytes(rng.randint(0, MAX_BODY))
        return body, oracle_status(body)

    def counted_case(self, body, status, kind):
        queries = [json.loads(body)] if status == 200 else []
        mode = "keep" if status in (200, 400) else "once"
        return Case(kind, mode, request(body, token=self.token), (status,), 1,
                    int(status == 400), queries)

    def draw(self):
        rng, token = self.rng, self.token
        roll = rng.random()
        if roll < 0.55:                                   # a counted body, kept alive
            body, status = self.body()
            return self.counted_case(body, status, "body")
        if roll < 0.58:                                   # pipelined, one send
            parts = [self.body() for _ in range(rng.randint(2, 4))]
            parts = [(b, s) for b, s in parts if s in (200, 400)] or [(b"[]", 400)]
            queries = [json.loads(b) for b, s in parts if s == 200]
            return Case("pipelined", "once", b"".join(request(b, token=token) for b, _ in parts),
                        tuple(s for _, s in parts), len(parts),
                        sum(s == 400 for _, s in parts), queries)
        if roll < 0.70:                                   # counted, Content-Length faults
            return self.length_case()
        if roll < 0.71:                                   # counted, the client closes first
            body = json.dumps(self.query()).encode()
            cut = rng.randrange(len(body))
            return Case("abort", "abort", request(body[:cut], token=token,
                                                  length=b"%d" % len(body)), None, 1, 1, [])
        return self.refused_case()

    def length_case(self):
        rng, token = self.rng, self.token
        body = json.dumps(self.query()).encode()
        pick = rng.randrange(9)
        if pick == 0:
            return Case("no_length", "once", request(body, token=token, length=False),
                        (411,), 1, 0, [])
        if pick == 1:                   # the oracle takes digits only: no sign
            length = rng.choice(BAD_LENGTHS + [b"-1", b"-99", b"+5"])
            return Case("bad_length", "once", request(b"", token=token, length=length),
                        (411,), 1, 0, [])
        if pick == 2:
            length = rng.choice([b"%d" % (MAX_BODY + 1), b"9" * 40, b"1" * 5000])
            return Case("out_of_bounds_length", "once",
                        request(b"", token=token, length=length), (413,), 1, 0, [])
        if pick == 3:
            big = rng.randbytes(rng.randint(MAX_BODY + 1, 4 * MAX_BODY))
            return Case("oversized", "once", request(big, token=token), (413,), 1, 0, [])
        if pick == 4:
            extra = rng.randint(1, MAX_BODY - len(body))
            return Case("truncated", "once", request(body, token=token,
                                                     length=b"%d" % (len(body) + extra)),
                        (400,), 1, 1, [])
        if pick == 5:
            chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
            return Case("chunked", "once", request(chunked, token=token, length=False,
                                                   headers=[b"Transfer-Encoding: chunked"]),
                        (411,), 1, 0, [])
        if pick == 6:
            return Case("expect_100", "once", request(body, token=token,
                                                      headers=[b"Expect: 100-continue"]),
                        (100, 200), 1, 0, [json.loads(body)])
        if pick == 7:
            return Case("http_1_0", "once", request(body, token=token, version=b"HTTP/1.0"),
                        (200,), 1, 0, [json.loads(body)])
        data = (b"POST / HTTP/1.1\r\nauthorization: Bearer %s\r\ncontent-length: %d\r\n\r\n%s"
                % (token, len(body), body))
        return Case("lowercase_headers", "once", data, (200,), 1, 0,
                    [json.loads(body)])

    def refused_case(self):
        """A request that is not counted: refused before its token counts."""
        rng, token = self.rng, self.token
        body = json.dumps(self.query()).encode()
        pick = rng.randrange(12)
        if pick == 0:
            bad = rng.choice([b"", b"x", self.closed, token[:-1], token + b"x", token[1:],
                              rng.randbytes(24).hex().encode()])
            return Case("bad_token", "once", request(body, token=bad), (403,), 0, 0, [])
        if pick == 1:
            auth = rng.choice([b"bearer " + token, b"Basic " + token, b"Bearer", b"Bearer  ",
                               b"Token " + token, token])
            return Case("bad_authorization", "once",
                        request(body, headers=[b"Authorization: " + auth]), (403,), 0, 0, [])
        if pick == 2:
            return Case("wrong_method", "once",
                        request(body, token=token, method=rng.choice(METHODS)), (405,), 0, 0, [])
        if pick == 3:
            return Case("wrong_path", "once", request(body, token=token, path=rng.choice(PATHS)),
                        (404,), 0, 0, [])
        if pick == 4:
            return Case("bad_version", "once",
                        request(body, token=token, version=rng.choice(BAD_VERSIONS)),
                        (400,), 0, 0, [])
        if pick in (5, 6):
            line = rng.choice([b"GET /", b"GET /x", b"GET *", b"POST /", b"PUT /", b"X /"])
            return Case("http_0_9", "once", line + b"\r\n", (400,), 0, 0, [])
        if pick == 7:
            words = [bytes(rng.choices(WORD_BYTES, k=rng.randint(1, 12)))
                     for _ in range(rng.choice([1, 4, 5, 6]))]
            return Case("garbage_line", "once", b" ".join(words) + b"\r\n\r\n", (400,), 0, 0, [])
        if pick == 8:
            return Case("empty_line", "once", rng.choice([b"\r\n", b"\n", b" \t\r\n"]) + body,
                        (400,), 0, 0, [])
        if pick == 9:
            roll = rng.random()
            if roll < 0.2:
                return Case("long_line", "once", b"POST /" + b"a" * 70000 + b" HTTP/1.1\r\n\r\n",
                            (414,), 0, 0, [])
            if roll < 0.4:
                return Case("long_header", "once",
                            request(body, token=token, headers=[b"X: " + b"a" * 70000]),
                            (431,), 0, 0, [])
            flood = [b"X-%d: %d" % (i, i) for i in range(rng.randint(101, 300))]
            return Case("header_flood", "once", request(body, token=token, headers=flood),
                        (431,), 0, 0, [])
        if pick == 10:
            junk, status = rng.choice(GARBAGE_HEADERS)
            headers = [junk]
            headers.insert(rng.randrange(2), b"Authorization: Bearer " + rng.randbytes(8).hex()
                           .encode())
            return Case("garbage_headers", "once", request(body, headers=headers),
                        (status,), 0, 0, [])
        data = request(body, token=rng.randbytes(8).hex().encode())   # closes mid-request
        return Case("abort_unknown", "abort", data[:rng.randrange(1, len(data))], None, 0, 0, [])
