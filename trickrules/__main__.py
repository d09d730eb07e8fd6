"""``python -m trickrules``: the same command line as ``trickrules``."""

from trickrules.tools.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
