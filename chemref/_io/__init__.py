"""Small I/O helpers shared by every reader and writer: inputs read within limits, outputs appear whole or not
at all.

One module per concept; every name is importable from here too:

- :mod:`~chemref._io.limits`: the size limits of an input file and a line, reading a regular file whole;
- :mod:`~chemref._io.text`: UTF-8 decoding diagnostics (line and byte) and line-by-line reading;
- :mod:`~chemref._io.outputs`: checks on output paths before any work, ``-`` for standard output;
- :mod:`~chemref._io.temporary`: the locked temporary files outputs are written to, and their clean-up;
- :mod:`~chemref._io.atomic`: atomic writes (:func:`atomic_write`, :func:`write_text`);
- :mod:`~chemref._io.lock`: the run lock (:class:`RunLock`);
- :mod:`~chemref._io.staging`: several outputs renamed into place together;
- :mod:`~chemref._io.secrets`: the API key, Bearer tokens and URL credentials removed from every message
  (imported from its module where needed: only the judge and error lines use it).
"""

from __future__ import annotations

from chemref._io.atomic import atomic_write, write_text
from chemref._io.limits import (
                                DEFAULT_MAX_FILE_BYTES,
                                MAX_FILE_ENV,
                                MAX_LINE_BYTES,
                                input_problem,
                                max_file_bytes,
                                megabytes,
                                read_limited,
                                read_regular,
                                regular_file,
)
from chemref._io.lock import RunLock
from chemref._io.outputs import STDOUT, check_distinct_outputs, check_not_input, check_output, is_stdout
from chemref._io.staging import commit_renames, discard_staged, staged_file, write_together
from chemref._io.temporary import discard_pending, remove_stale_temporaries
from chemref._io.text import decode_utf8, iter_lines, line_and_column, not_utf8, undecodable_line

__all__ = ["MAX_FILE_ENV", "MAX_LINE_BYTES", "STDOUT", "atomic_write", "check_distinct_outputs", "check_not_input",
           "check_output", "discard_pending", "is_stdout",
           "iter_lines", "max_file_bytes", "read_limited", "regular_file", "write_text", "RunLock",
           "commit_renames", "staged_file",
           "DEFAULT_MAX_FILE_BYTES", "line_and_column", "undecodable_line", "not_utf8", "remove_stale_temporaries",
           "discard_staged", "megabytes", "input_problem", "read_regular", "decode_utf8", "write_together"]
