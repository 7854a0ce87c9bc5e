"""The declarative route's format: a decision graph in policy.json, read
(load, with every check), checked (check) and written (write); PolicyError
names the first fault with the JSON path of the bad value. Its command is
tq/policy.py.

    policy = tq.policy_file.load("submission.zip")     # or a bare policy.json
    tq.policy_file.write("submission.zip", policy)

The format (schema ioai-2026-animal-policy-v1), a UTF-8 JSON object with
exactly these keys: "schema"; "animals_sha256" and "questions_sha256", the
SHA-256 of data/animals_pool.txt and data/questions_pool.txt; "root", a node
index; "nodes", a list of 1 to 32,767 nodes, each exactly one of

    {"type": "ask", "question": q, "yes": i|null, "no": i|null}
    {"type": "guess", "animal": a, "wrong": i|null}
    {"type": "stop"}

q in 0..558, a in 0..1471, i an index in the list, all JSON integers (not
true/false, not 1.0, not NaN). No key may appear twice in an object. A ZIP
must hold exactly one file, policy.json, at its root: no folder, no link,
no name twice, nothing else. tq/evaluator.py says how a graph is walked.
"""

import io
import json
import os
import stat
import zipfile

from tq import data
from tq.sets import short

SCHEMA = "ioai-2026-animal-policy-v1"
MAX_NODES = 32767               # nodes a policy may hold
MAX_POLICY_BYTES = 16 << 20     # bytes of policy.json at most (a full graph needs ~2 MB)
MAX_ARCHIVE_BYTES = 16 << 20    # bytes of a ZIP at most
MEMBER = "policy.json"          # the one file a ZIP holds
TOP_KEYS = ("schema", "animals_sha256", "questions_sha256", "root", "nodes")
NODE_KEYS = {"ask": ("type", "question", "yes", "no"),
             "guess": ("type", "animal", "wrong"),
             "stop": ("type",)}
IDS = {"question": data.QUESTIONS, "animal": data.ANIMALS}
EDGES = ("yes", "no", "wrong")
SHA_KEYS = {"animals_sha256": (data.ANIMALS_SHA256, "the animal pool"),
            "questions_sha256": (data.QUESTIONS_SHA256, "the question pool")}


class PolicyError(ValueError):
    """An invalid policy or archive. `path` is where (a JSON path such as
    "$.nodes[3].yes", or "archive"), `message` what is wrong."""

    def __init__(self, path, message):
        super().__init__("%s: %s" % (path, message))
        self.path, self.message = path, message


class _Pairs(list):
    """A JSON object as parsed: its (key, value) pairs, duplicates kept."""


class _Constant:
    """NaN, Infinity or -Infinity as parsed, to be refused with its path."""

    def __init__(self, name):
        self.name = name


# ---- reading ----------------------------------------------------------------

def member_of(blob):
    """policy.json's bytes from the bytes of a ZIP, checked: exactly one
    regular file named policy.json at the root, unencrypted, not too large."""
    if len(blob) > MAX_ARCHIVE_BYTES:
        raise PolicyError("archive", "%d bytes, more than the %d allowed"
                          % (len(blob), MAX_ARCHIVE_BYTES))
    try:
        archive = zipfile.ZipFile(io.BytesIO(blob))
    except (zipfile.BadZipFile, OSError, ValueError) as e:
        raise PolicyError("archive", "not a ZIP archive (%s)" % e) from None
    with archive:
        infos = archive.infolist()
        names = [info.filename for info in infos]
        for info in infos:
            name, kind = info.filename, (info.external_attr >> 16) & 0o170000
            if names.count(name) > 1:
                raise PolicyError("archive", "it holds %r %d times" % (name, names.count(name)))
            if info.is_dir() or kind == stat.S_IFDIR:
                raise PolicyError("archive", "it holds a folder, %r" % name)
            if kind == stat.S_IFLNK:
                raise PolicyError("archive", "%r is a symbolic link" % name)
            if kind not in (0, stat.S_IFREG):
                raise PolicyError("archive", "%r is not a regular file" % name)
            if "/" in name or "\\" in name:
                raise PolicyError("archive", "%r is not at the archive's root" % name)
            if name != MEMBER:
                raise PolicyError("archive", "it holds %r; it must hold %s and nothing else"
                                  % (name, MEMBER))
        if not infos:
            raise PolicyError("archive", "it is empty; it must hold %s" % MEMBER)
        info = infos[0]
        if info.flag_bits & 0x1:
            raise PolicyError("archive", "%s is encrypted" % MEMBER)
        if info.file_size > MAX_POLICY_BYTES:
            raise PolicyError("archive", "%s has %d bytes, more than the %d allowed"
                              % (MEMBER, info.file_size, MAX_POLICY_BYTES))
        try:
            with archive.open(info) as f:
                member = f.read(MAX_POLICY_BYTES + 1)
        except (zipfile.BadZipFile, NotImplementedError, OSError, ValueError) as e:
            raise PolicyError("archive", "cannot read %s (%s)" % (MEMBER, e)) from None
    if len(member) > MAX_POLICY_BYTES:
        raise PolicyError("archive", "%s has more than %d bytes" % (MEMBER, MAX_POLICY_BYTES))
    return member


def parse(blob):
    """The JSON value of policy.json's bytes, objects kept as _Pairs and
    NaN/Infinity as _Constant, so that check() can name where they are."""
    if len(blob) > MAX_POLICY_BYTES:
        raise PolicyError("$", "%d bytes, more than the %d allowed"
                          % (len(blob), MAX_POLICY_BYTES))
    if blob.startswith(b"\xef\xbb\xbf"):
        raise PolicyError("$", "the file starts with a byte-order mark; save it as "
                          "UTF-8 without one")
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError as e:
        raise PolicyError("$", "not UTF-8: byte %d is %r" % (e.start, blob[e.start:e.start + 1]))
    try:
        return json.loads(text, object_pairs_hook=_Pairs, parse_constant=_Constant)
    except RecursionError:
        raise PolicyError("$", "nested too deeply") from None
    except json.JSONDecodeError as e:
        raise PolicyError("$", "not valid JSON: %s" % e) from None
    except ValueError as e:          # an integer of more digits than Python reads
        raise PolicyError("$", "not valid JSON: %s" % e) from None


def _plain(value, path):
    """`value` with _Pairs turned into dicts; PolicyError at the first
    duplicate key or NaN/Infinity, naming its path."""
    if isinstance(value, _Constant):
        raise PolicyError(path, "%s is not a JSON number" % value.name)
    if isinstance(value, _Pairs):
        result = {}
        for key, item in value:
            if key in result:
                raise PolicyError(path, "the key %r appears twice" % key)
            result[key] = _plain(item, "%s.%s" % (path, key))
        return result
    if isinstance(value, list):
        return [_plain(item, "%s[%d]" % (path, i)) for i, item in enumerate(value)]
    return value


# ---- checking ---------------------------------------------------------------

def _keys(obj, expected, path, what):
    for key in obj:
        if key not in expected:
            raise PolicyError(path, "unknown key %r in %s (allowed: %s)"
                              % (key, what, ", ".join(expected)))
    for key in expected:
        if key not in obj:
            raise PolicyError(path, "missing key %r in %s" % (key, what))


def _index(value, size, path, what, *, null=False):
    if (null and value is None) or (type(value) is int and 0 <= value < size):
        return
    raise PolicyError(path, "must be %s%s in 0..%d, got %s"
                      % ("null or " if null else "", what, size - 1, short(value)))


def check(value):
    """The policy as plain dicts and lists, or PolicyError at its first
    fault, in document order: duplicate keys and NaN first, then the top
    level, then node after node."""
    try:
        policy = _plain(value, "$")
    except RecursionError:
        raise PolicyError("$", "nested too deeply") from None
    if type(policy) is not dict:
        raise PolicyError("$", "the policy must be a JSON object, got %s" % short(policy))
    _keys(policy, TOP_KEYS, "$", "the policy")
    if policy["schema"] != SCHEMA:
        raise PolicyError("$.schema", "must be %r, got %s" % (SCHEMA, short(policy["schema"])))
    for key, (digest, pool) in SHA_KEYS.items():
        if policy[key] != digest:
            raise PolicyError("$." + key, "%s is not the SHA-256 of %s, %r"
                              % (short(policy[key], limit=100), pool, digest))
    nodes = policy["nodes"]
    if type(nodes) is not list or not 1 <= len(nodes) <= MAX_NODES:
        raise PolicyError("$.nodes", "must be a list of 1 to %d nodes, got %s"
                          % (MAX_NODES, "%d nodes" % len(nodes) if type(nodes) is list
                             else short(nodes)))
    _index(policy["root"], len(nodes), "$.root", "a node index")
    for i, node in enumerate(nodes):
        path = "$.nodes[%d]" % i
        if type(node) is not dict:
            raise PolicyError(path, "a node must be a JSON object, got %s" % short(node))
        if "type" not in node:
            raise PolicyError(path, "missing key 'type' in a node")
        kind = node["type"]
        if type(kind) is not str or kind not in NODE_KEYS:
            raise PolicyError(path + ".type", "must be one of %s, got %s"
                              % (", ".join(map(repr, NODE_KEYS)), short(kind)))
        _keys(node, NODE_KEYS[kind], path, "%s %s node" % ("an" if kind == "ask" else "a", kind))
        for key in NODE_KEYS[kind][1:]:
            if key in IDS:
                _index(node[key], IDS[key], "%s.%s" % (path, key), "an integer")
            else:
                _index(node[key], len(nodes), "%s.%s" % (path, key), "a node index",
                       null=True)
    return policy


def load(path):
    """The checked policy of a file: a ZIP when its name ends in .zip,
    policy.json otherwise. PolicyError for an invalid one, OSError when it
    cannot be read."""
    with open(path, "rb") as f:
        blob = f.read(max(MAX_ARCHIVE_BYTES, MAX_POLICY_BYTES) + 1)
    if path.lower().endswith(".zip"):
        blob = member_of(blob)
    return check(parse(blob))


def dumps(policy):
    """policy.json's bytes for a policy: compact JSON, keys in the
    schema's order, UTF-8."""
    return json.dumps(policy, separators=(",", ":"), allow_nan=False).encode("utf-8")


def write(path, policy):
    """Write a policy to `path`: a ZIP holding policy.json when the name
    ends in .zip (the same bytes every time), policy.json itself otherwise."""
    blob = dumps(policy)
    if path.lower().endswith(".zip"):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            info = zipfile.ZipInfo(MEMBER, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            archive.writestr(info, blob, compress_type=zipfile.ZIP_DEFLATED)
        blob = buffer.getvalue()
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(blob)
    os.replace(tmp, path)
