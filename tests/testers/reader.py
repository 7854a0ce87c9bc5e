"""A test fixture: a tester that hunts for the answers wherever a judge in
the same process, memory or disk would leave them, and returns them with
no test when it finds them; otherwise it is binary splitting.

Its routes: the `test` it is given (its object, closure and globals), the
frames above find, every object the garbage collector knows, the parent's
memory and command line through /proc, and instance files on the disk. Run
by a judge that keeps it apart, it finds nothing and ties binary splitting.
"""

import gc
import glob
import importlib
import importlib.util
import json
import os
import sys


def _splitting():
    """binary splitting's find, from tests/testers/splitting.py beside this
    file (the folder its worker may read): the frozen copy, never a new one."""
    spec = importlib.util.spec_from_file_location(
        "splitting_beside", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         "splitting.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.find


SPLITTING = _splitting()

FOUND = []          # the routes that gave the answers, for a test to read in a traceback


def _defectives_in(value, n, priors):
    """The defectives, if `value` is an instance or a secret of this one."""
    if isinstance(value, dict) and value.get("priors") == priors and "defectives" in value:
        return sorted(value["defectives"])
    if isinstance(value, tuple) and len(value) >= 2 and value[0] == n and \
            isinstance(value[1], (set, frozenset)):
        return sorted(value[1])
    return None


def _objects_near(test):
    """Objects reachable from `test` in a few steps."""
    seen, todo = [], [test, getattr(test, "__self__", None), getattr(test, "__func__", None)]
    for obj in list(todo):
        for cell in getattr(obj, "__closure__", None) or ():
            todo.append(cell.cell_contents)
        todo.extend(vars(obj).values() if hasattr(obj, "__dict__") else ())
    for obj in todo:
        seen.append(obj)
        if hasattr(obj, "__dict__"):
            seen.extend(vars(obj).values())
    return seen


def _frames():
    frame = sys._getframe(1)
    while frame is not None:
        yield from frame.f_locals.values()
        frame = frame.f_back


def _disk(priors):
    """Instances in files this process can read: the parent's arguments and
    folders, and the usual places."""
    paths = set(glob.glob("/tmp/**/*.json*", recursive=True))
    try:
        with open("/proc/%d/cmdline" % os.getppid(), "rb") as f:
            words = f.read().decode("utf-8", "replace").split("\0")
        for word in words:
            if os.path.isfile(word):
                paths.add(word)
                paths.update(glob.glob(os.path.join(os.path.dirname(word), "**", "*.json*"),
                                       recursive=True))
    except OSError:
        pass
    for path in sorted(paths):
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if '"defectives"' in line:
                        yield json.loads(line)
        except (OSError, ValueError, UnicodeDecodeError):
            continue


def _seeded(priors):
    """A comparison's instances drawn again from the seed in its state file,
    with the grader's own code: the grader beside the worker running this
    (sys.argv[0] is its harness/worker.py), the state named in the parent's
    arguments or lying in the temporary folder."""
    grader = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[0]))),
                          "grader")
    states = glob.glob("/tmp/*.json") + glob.glob("/tmp/*/*.json")
    try:
        with open("/proc/%d/cmdline" % os.getppid(), "rb") as f:
            words = f.read().decode("utf-8", "replace").split("\0")
        cwd = os.readlink("/proc/%d/cwd" % os.getppid())
        states[:0] = [os.path.join(cwd, words[k + 1]) for k, w in enumerate(words[:-1])
                      if w == "--state"]
    except OSError:
        pass
    sys.path.insert(0, grader)
    try:                    # by name, as a tester that means to would
        instances = importlib.import_module("group_testing.instances")
    except Exception:
        return
    for path in states:
        try:
            with open(path, encoding="utf-8") as f:
                seed = json.load(f)["seed"]
        except Exception:
            continue
        for index in range(100):
            yield instances.draw_instance(seed, index)


def _parent_memory(priors):
    """The priors' first digits in the parent's heap, then a list of ints."""
    try:
        maps = open("/proc/%d/maps" % os.getppid()).read().splitlines()
        mem = open("/proc/%d/mem" % os.getppid(), "rb")
    except OSError:
        return None
    del maps, mem         # readable at all is the finding; the test says so
    FOUND.append("parent memory readable")
    return None


def hunt(n, priors, test):
    routes = (("test", _objects_near(test)), ("frames", _frames()),
              ("gc", gc.get_objects()), ("disk", _disk(priors)),
              ("seed", _seeded(priors)))
    for name, values in routes:
        for value in values:
            try:
                found = _defectives_in(value, n, priors)
            except Exception:
                found = None
            if found is not None:
                FOUND.append(name)
                return found
    _parent_memory(priors)
    return None


def find(n, priors, test):
    found = hunt(n, priors, test)
    if found is not None:
        return found
    return SPLITTING(n, priors, test)
