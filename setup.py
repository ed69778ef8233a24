"""The sound packs copied in from sounds/, and the one compiled part, optional: the solver's search in C (src/fivecrowns/core/melds/_melds_c.c).

Everything else is in pyproject.toml. ``optional=True``: where no C compiler works, the build
says so and goes on, and fivecrowns.core.melds.solver uses its pure-Python search (the same answers).
The module carries the SHA-256 of the source it was built from, so a test can tell a stale
build (an edited C file that was not built again) from a current one.
"""

import hashlib
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

SOUNDS = Path(__file__).parent / "sounds"

SOURCE = "src/fivecrowns/core/melds/_melds_c.c"
DIGEST = hashlib.sha256((Path(__file__).parent / SOURCE).read_bytes()).hexdigest()



class BuildWithSounds(build_py):
    """Copy each sound pack in the top-level ``sounds/`` into the package as
    ``fivecrowns/sounds/PACK/``: ``sounds/`` is the one source, nothing is kept twice."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # why: an editable install reads the checkout's sounds/ itself
        target = Path(self.build_lib) / "fivecrowns" / "sounds"
        for pack in sorted(p for p in SOUNDS.iterdir() if p.is_dir()):
            shutil.copytree(
                pack,
                target / pack.name,
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("*.py", "__pycache__"),
            )


setup(
    cmdclass={"build_py": BuildWithSounds},
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
