"""Puts on sys.path what graph isomorphism's commands import: the SDK's
grader/ (the repository's, two folders above this project, or in the
grader's image the project's own grader/) and this project, for the
package gi. A command run as a script (python3 gi/local.py) has only its
own folder there, gi/, where Python finds this module:

    if not __package__:                 # run as a script: sdk_path finds the SDK and gi
        import sdk_path  # noqa: F401
    from arh_grader.commands import local  # noqa: E402

Imported, it puts them first, the SDK's before the project, each once;
it does nothing else. Imported as part of gi (gi.local), a command needs
none of this: its importer has put both there.
"""

import os
import sys

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [p for p in (os.path.join(PROJECT, os.pardir, os.pardir, "grader"),   # here,
                            os.path.join(PROJECT, "grader"),     # or in the grader's image
                            PROJECT) if os.path.isdir(p) and p not in sys.path]
