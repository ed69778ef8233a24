"""Tests of the packaging: the dependency scheme, the wheel installed, scripts/setup."""
