"""Write the default sound pack, sounds/default/, from fivecrowns.output.earcons (arithmetic).

python sounds/make_sounds.py           # (re)write sounds/default/*.wav and its pack.json
python sounds/make_sounds.py --check   # exit 1 if a file differs from what is made

The manifest, pack.json, names each cue's file and says what the cue means (the game's own
table of cues, fivecrowns.output.sounds.SOUNDS); a player's pack has the same shape.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from fivecrowns.output.earcons import render_all
from fivecrowns.output.sounds import SOUNDS

PACK = Path(__file__).resolve().parent / "default"


def manifest() -> str:
    """The default pack's pack.json, always the same text."""
    cues = {
        name: {"file": f"{name}.wav", "kind": sound.kind, "meaning": sound.meaning}
        for name, sound in SOUNDS.items()
    }
    return json.dumps({"name": "Default", "cues": cues}, indent=2) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    made = {f"{name}.wav": data for name, data in render_all().items()}
    made["pack.json"] = manifest().encode()
    different = []
    for name, data in made.items():
        path = PACK / name
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                different.append(path.name)
        else:
            PACK.mkdir(exist_ok=True)
            path.write_bytes(data)
            print(f"wrote {path} ({len(data)} bytes)")
    if args.check:
        extra = sorted(p.name for p in PACK.iterdir() if p.name not in made)
        different.extend(extra)
    if different:
        print("differ from the generator: " + ", ".join(different), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
