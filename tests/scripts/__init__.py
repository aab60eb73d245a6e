"""Tests of the Python scripts in scripts/."""
