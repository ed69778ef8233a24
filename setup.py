"""The one compiled part, optional: the solver's search in C (src/fivecrowns/core/melds/_melds_c.c).

Everything else is in pyproject.toml. ``optional=True``: where no C compiler works, the build
says so and goes on, and fivecrowns.core.melds.solver uses its pure-Python search (the same answers).
The module carries the SHA-256 of the source it was built from, so a test can tell a stale
build (an edited C file that was not built again) from a current one.
"""

import hashlib
from pathlib import Path

from setuptools import Extension, setup

SOURCE = "src/fivecrowns/core/melds/_melds_c.c"
DIGEST = hashlib.sha256((Path(__file__).parent / SOURCE).read_bytes()).hexdigest()

setup(
    ext_modules=[
        Extension(
            "fivecrowns.core.melds._melds_c",
            [SOURCE],
            define_macros=[("SOURCE_SHA256", f'"{DIGEST}"')],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
