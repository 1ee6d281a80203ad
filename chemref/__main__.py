"""``python -m chemref`` runs the CLI."""

import sys

from chemref.cli import main

sys.exit(main())
