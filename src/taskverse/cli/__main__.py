"""``python -m taskverse.cli``: the same as the ``taskverse`` command."""

from taskverse.cli import main

main()
