"""Five Crowns for everyone: rules core, solver, and front ends.

The package root imports nothing: the core modules (``cards``, ``melds``,
``game``, ``views``) import only the standard library.
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
