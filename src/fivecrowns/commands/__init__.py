"""Subcommands of ``fivecrowns``: each module has ``configure(parser)`` and ``run(args)``."""
