"""Write the earcons to src/fivecrowns/sounds/ from fivecrowns.output.earcons (pure arithmetic).

python scripts/make_sounds.py           # (re)write src/fivecrowns/sounds/*.wav
python scripts/make_sounds.py --check   # exit 1 if a file differs from what is made
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fivecrowns.output.earcons import render_all

SOUNDS = Path(__file__).resolve().parent.parent / "src" / "fivecrowns" / "sounds"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    different = []
    for name, data in render_all().items():
        path = SOUNDS / f"{name}.wav"
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                different.append(path.name)
        else:
            SOUNDS.mkdir(exist_ok=True)
            path.write_bytes(data)
            print(f"wrote {path} ({len(data)} bytes)")
    if different:
        print("differ from the generator: " + ", ".join(different), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
