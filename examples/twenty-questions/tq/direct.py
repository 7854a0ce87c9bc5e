"""A tester run in-process, round by round, with every call checked, counted
and answered by the template oracle's own Session under this problem's
policy (tq.plugin.PROBLEM's session): the reference against which a policy graph's
evaluation is compared, and the way the exporter sees a tester.

    module = direct.load_tester("src/tester.py")
    rounds = direct.run_set(module.play, [261, 661, 557])
    score.mean_score(rounds)

No HTTP and no time limit: a tester that hangs hangs the caller. A call
after the round has ended (a correct guess, or BUDGET calls) raises
RoundOver into the tester, which derives from BaseException so that an
`except Exception` in the tester does not swallow it; a refused query
raises arh_grader.QueryError into the tester and uses no call.
"""

import importlib.util
import itertools
import json

from arh_grader import QueryError, Session

from tq import plugin, problem
from tq.score import Round

MAX_REFUSED = 10000     # refused queries a round may make before the run gives up
_LOADED = itertools.count()       # a fresh module name for each tester loaded


class RoundOver(BaseException):
    """Raised into a tester that calls after its round has ended."""


class TesterError(Exception):
    """The tester failed: it could not be loaded, it raised, or it kept
    making refused queries. The message names the round."""


def load_tester(path):
    """The module of the tester file `path`, imported under a name of its
    own. TesterError if it cannot be imported or has no callable `play`."""
    name = "tq_tester_%d" % next(_LOADED)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as e:
        raise TesterError("cannot import the tester %r: %s: %s"
                          % (path, type(e).__name__, e)) from e
    if not callable(getattr(module, "play", None)):
        raise TesterError("the tester %r defines no function play(ask, guess)" % (path,))
    return module


def run_round(play, animal):
    """Play one round on `animal` (a pool index); its Round. TesterError if
    play raises anything but RoundOver."""
    session = Session.of(plugin.PROBLEM.session({"animal": animal}))
    transcript = []
    state = {"refused": 0}

    def call(query):
        status, reply, _ = session.submit(json.dumps(query).encode())
        reply = json.loads(reply)
        if status == 200:
            transcript.append((query, reply))
            return reply
        if status == 409:
            raise RoundOver("the round has ended: %s" % (
                "the animal was found" if session.ended_by_answer else
                "all %d calls are used" % problem.BUDGET))
        state["refused"] += 1
        if state["refused"] > MAX_REFUSED:
            raise RoundOver("more than %d refused queries" % MAX_REFUSED)
        raise QueryError(reply["error"])

    def ask(question):
        return call({"ask": question})["yes"]

    def guess(animal):
        return call({"guess": animal})["correct"]

    try:
        play(ask, guess)
    except RoundOver as e:
        if state["refused"] > MAX_REFUSED:
            raise TesterError("round on animal %d: %s" % (animal, e)) from None
    except (Exception, SystemExit) as e:
        raise TesterError("round on animal %d: play raised %s: %s"
                          % (animal, type(e).__name__, e)) from e
    session.end()
    return Round(animal, session.ended_by_answer, len(transcript), state["refused"],
                 tuple(transcript))


def run_set(play, animals):
    """run_round on each animal in order; the list of Rounds."""
    return [run_round(play, animal) for animal in animals]
