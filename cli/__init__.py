"""The ``solve`` command: a thin Click layer over the ``solver`` package."""
