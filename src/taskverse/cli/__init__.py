"""The ``taskverse`` command line (the contract is ``shared/CLI.md``).

Every command that prints data takes ``--format json`` and then prints exactly one JSON document on stdout;
progress and logs go to stderr. Bad input exits non-zero with one clear line, never a traceback. The group lives
in ``app``; each command module holds a ``COMMANDS`` list, added here.
"""

from taskverse.cli import compile, difficulty, engine, interop, library, pipeline, plan, space, suites, textenv
from taskverse.cli.app import main

for _module in (library, plan, engine, difficulty, textenv, compile, suites, space, pipeline, interop):
    for _command in getattr(_module, "COMMANDS", ()):
        main.add_command(_command)

__all__ = ["main"]
