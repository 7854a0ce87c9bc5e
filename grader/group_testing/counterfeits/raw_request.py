"""What two counterfeits of the self-check (invented_token.py, old_token.py)
share: a test of the tester's own, outside test(), with any token."""

import http.client
import json
import os
import urllib.parse


def raw_test(token, pool):
    """POST {"pool": pool} to the oracle with `token`: the HTTP status."""
    url = urllib.parse.urlsplit(os.environ["AR_ORACLE_URL"])
    conn = http.client.HTTPConnection(url.hostname, url.port)
    conn.request("POST", url.path or "/", json.dumps({"pool": pool}),
                 {"Authorization": "Bearer " + token})
    return conn.getresponse().status
