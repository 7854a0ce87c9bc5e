"""The fixed verdicts, the one exception that carries them, and how results
are written: canonical JSON, atomically."""

import json
import os

SUBMISSION_KINDS = ("wrong", "oracle_cap", "no_answer", "schema", "timeout")
PLATFORM_KINDS = ("invalid_set", "grader_error")
KINDS = SUBMISSION_KINDS + PLATFORM_KINDS
MESSAGE_CHARS = 8000    # characters of a message kept at most: its start and its end


class Failure(Exception):
    """A verdict that ends a run: `kind` (one of KINDS), a message a person
    can act on, and the index of the instance it happened on (or None)."""

    def __init__(self, kind, message, index=None):
        if kind not in KINDS:
            raise ValueError("unknown kind %r" % (kind,))
        if len(message) > MESSAGE_CHARS:
            keep = MESSAGE_CHARS // 4
            message = "%s\n... [%d characters cut] ...\n%s" % (
                message[:keep], len(message) - MESSAGE_CHARS, message[-(MESSAGE_CHARS - keep):])
        super().__init__(message)
        self.kind, self.message, self.index = kind, message, index

    def __str__(self):
        where = "" if self.index is None else "instance %d: " % self.index
        return "%s: %s%s" % (self.kind, where, self.message)


_CANONICAL = json.JSONEncoder(separators=(",", ":"), sort_keys=True, ensure_ascii=False,
                              allow_nan=False)   # made once: json.dumps makes one a call


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def _finite(text):
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError("%s is out of a float's range" % text[:20])
    return value


# strict JSON: no NaN or Infinity, no number past a float's range (the oracle's decoder)
STRICT_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)


def strict_json(data):
    """The value of JSON text (str, or bytes in UTF-8), strictly: no NaN or
    Infinity, no number beyond a float's range such as 1e999. ValueError
    for anything else, nesting too deep for the parser included."""
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        return STRICT_DECODER.decode(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except UnicodeDecodeError as e:
        raise ValueError("not UTF-8: %s" % e) from None


def canonical(obj):
    """The canonical JSON bytes of `obj`: sorted keys, no spaces, UTF-8."""
    return _CANONICAL.encode(obj).encode("utf-8")


def write_json(path, obj):
    """Write `obj` to `path` as indented, sorted JSON, atomically: a reader
    sees the old file or the new one, never a part, even after a crash."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(obj, f, indent=1, sort_keys=True, allow_nan=False)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)          # the rename itself survives a crash
    finally:
        os.close(fd)
