"""rummykit: rules engines, solvers and computer players for Rommé, Rummoli and tile rummy.

The engines are pure Python with no I/O: ``from rummykit import romme``. The web site, storage
and command line stand on top of them.
"""

__version__ = "0.1.0"
