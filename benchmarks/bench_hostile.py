"""Issue 16 item 9: bounded work on hostile files (wall and CPU time, peak memory).

    .venv/bin/python benchmarks/bench_hostile.py > benchmarks/results/hostile.txt

- a history file of 1,000,000 lines: `read_history_tail` (what `fivecrowns history`
  and Shift+S use) reads only its newest megabyte;
- a 40 MB saved game: refused from its size before a byte is parsed;
- a settings file with 100,000 key names: refused before any binding is checked.

Each figure is one run in a fresh process (peak memory is the process's maximum
resident size, which includes the interpreter and the imports, about 30 MB).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES = {
    "history_1m_lines": """
from fivecrowns.storage.history import read_history_tail
found = read_history_tail(PATH)
print(len(found.games), found.older_not_read)
""",
    "save_40mb": """
from fivecrowns.core.errors import SaveFileError
from fivecrowns.storage.autosave import read_autosave
try:
    read_autosave(PATH)
except SaveFileError as error:
    print(str(error)[-60:])
""",
    "settings_100k_keys": """
from fivecrowns.ui.settings import load_settings
print(load_settings(PATH).problems[0][:60])
""",
}


def make_files(folder: Path) -> dict[str, Path]:
    history = folder / "history.jsonl"
    line = json.dumps(
        {"date": "2026-11-22T10:00+00:00", "players": ["Ann", "Bo"], "totals": [1, 2]}
    )
    with history.open("w") as handle:
        for _ in range(1_000_000):
            handle.write(line + "\n")
    save = folder / "autosave.json"
    with save.open("w") as handle:
        handle.write('{"version": 1, "seats": [' + '{"name": "x"},' * 2_800_000 + "]}")
    settings = folder / "settings.json"
    settings.write_text(json.dumps({"keys": {f"unknown_{i}": "x" for i in range(100_000)}}))
    return {"history_1m_lines": history, "save_40mb": save, "settings_100k_keys": settings}


def measure(code: str, path: Path) -> dict[str, object]:
    script = f"from pathlib import Path\nPATH = Path({str(path)!r})\n" + code
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "peak_rss_mb": round(after.ru_maxrss / 1024, 1),
        "file_mb": round(path.stat().st_size / 1e6, 1),
        "answer": result.stdout.strip(),
    }


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        files = make_files(Path(folder))
        print(f"# bench_hostile on {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
        for name, code in CASES.items():
            print(name, json.dumps(measure(code, files[name])))


if __name__ == "__main__":
    main()
