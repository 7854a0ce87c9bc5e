"""The fixed verdicts, the one exception that carries them, and how results
are written: canonical JSON, atomically, into space set aside before the run
(reserve), so that a disk another filled meanwhile still takes the result."""

import errno
import json
import os

SUBMISSION_KINDS = ("wrong", "oracle_cap", "no_answer", "schema", "timeout")
# The submission's kinds where the grader runs the submission itself, its
# work counted by an emulator rather than its calls by the oracle: files that
# are not a solver, past the run's or a problem's budget, a reach outside its
# memory, a second thread, past the wall-clock backstop, too much output, a
# solver that raised or died.
RUN_KINDS = ("bad_source", "over_budget", "over_item_budget", "escape", "threads",
             "solver_timeout", "output_too_large", "solver_failed")
PLATFORM_KINDS = ("invalid_set", "grader_error")
KINDS = SUBMISSION_KINDS + RUN_KINDS + PLATFORM_KINDS
MESSAGE_CHARS = 8000    # characters of a message kept at most: its start and its end
RESERVE_BYTES = 8 * 1024 * 1024   # bytes set aside for result.json before a run; a
                                  # 500-instance result takes about 0.2 MB, 10000 about 4 MB
ZERO_CHUNK_BYTES = 1024 * 1024    # bytes a write of zeros, where posix_fallocate is missing


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


def temporary_path(path):
    """The temporary file that becomes `path`: beside it, this process's."""
    return "%s.%d.tmp" % (path, os.getpid())


def reserve(path, *, size=None):
    """Set aside `size` bytes (RESERVE_BYTES by default) of disk for the file `path` will become: create
    its temporary file (temporary_path) with that many bytes allocated, and
    return the temporary's path for write_json(..., reserved=). Call it before
    the run, while the disk has room; OSError (ENOSPC among others) when the
    space is not there, with nothing left behind."""
    size = RESERVE_BYTES if size is None else size
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise ValueError("size must be a whole number of bytes >= 0, not %r" % (size,))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = temporary_path(path)
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        if size:
            _allocate(fd, size)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    os.close(fd)
    return tmp


def _allocate(fd, size):
    """Blocks for bytes 0..size of open file `fd`: posix_fallocate, or zeros
    written where the system has none."""
    allocate = getattr(os, "posix_fallocate", None)
    if allocate is not None:
        try:
            allocate(fd, 0, size)
            return
        except OSError as e:
            if e.errno not in (errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL):
                raise
    zeros = bytes(min(size, ZERO_CHUNK_BYTES))
    done = 0
    while done < size:
        done += os.write(fd, zeros[:size - done])


def release(reserved):
    """Give back a reservation write_json did not use (reserve's path)."""
    try:
        os.unlink(reserved)
    except FileNotFoundError:
        pass


def json_bytes(obj):
    """What write_json writes for `obj`: indented, sorted JSON and a line end."""
    return (json.dumps(obj, indent=1, sort_keys=True, allow_nan=False) + "\n").encode("utf-8")


def write_json(path, obj, *, reserved=None):
    """Write `obj` to `path` as indented, sorted JSON, atomically: a reader
    sees the old file or the new one, never a part, even after a crash.

    With `reserved` (what reserve(path) returned) the bytes go into that
    file in place, within the blocks it holds, and it is cut to their
    length before it becomes `path`: a result that fits its reservation
    needs no new block of the disk. OSError when the write fails; the
    temporary file is removed then."""
    data = json_bytes(obj)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    tmp = temporary_path(path) if reserved is None else reserved
    try:
        with open(tmp, "wb" if reserved is None else "r+b") as f:
            f.write(data)
            f.truncate(len(data))
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
