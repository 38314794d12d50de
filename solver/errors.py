"""The one exception type for bad input.

Anything a user can get wrong (a malformed deal, an illegal move, a bad seed, a
corrupt file) raises :class:`InputError` with a one-line message; the CLI turns
it into ``solve: error: <message>`` and exit status 2.
"""


class InputError(ValueError):
    """Bad input from the user: the message names the problem in one line."""
