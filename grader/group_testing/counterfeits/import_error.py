"""A counterfeit of the self-check: loading it imports a module the worker
does not have, so it never defines find. Its verdict: no_answer."""

import importlib

importlib.import_module("no_such_module_here")
