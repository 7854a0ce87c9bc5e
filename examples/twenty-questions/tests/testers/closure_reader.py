"""A counterfeit: it looks for the hidden animal through what it is given,
the closures of ask and guess and every object they reach, then the
objects the garbage collector knows, and guesses it at once (0.98 a
round). A judge that runs it in a worker of its own leaves nothing there
to find: it then gives up without a call, and scores 0."""

import gc


def _reachable(roots, depth=4):
    seen, layer = [], list(roots)
    for _ in range(depth):
        nxt = []
        for obj in layer:
            seen.append(obj)
            for cell in getattr(obj, "__closure__", None) or ():
                try:
                    nxt.append(cell.cell_contents)
                except ValueError:
                    pass
            if hasattr(obj, "__dict__"):
                nxt.extend(vars(obj).values())
            if hasattr(obj, "__self__"):
                nxt.append(obj.__self__)
        layer = nxt
    return seen


def _secret(objects):
    for obj in objects:
        secret = getattr(obj, "secret", None)
        if isinstance(secret, tuple) and secret and type(secret[0]) is int:
            return secret[0]
    return None


def play(ask, guess):
    animal = _secret(_reachable([ask, guess]))
    if animal is None:
        animal = _secret(o for o in gc.get_objects() if hasattr(o, "secret"))
    if animal is not None:
        guess(animal)
