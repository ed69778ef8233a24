from __future__ import annotations

from fivecrowns.cli import main

raise SystemExit(main())
