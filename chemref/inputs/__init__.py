"""What the inputs of a command stand for: one streaming rule for files, folders, file lists and PMC packages.

:func:`iter_sources` yields one :class:`Source` per article, in a fixed order, holding at most one folder's
entries (or one package member's bytes) at a time, so a folder tree of millions of articles or a 10 GB
``oa_comm_xml.*.tar.gz`` is never listed whole in memory:

- a JATS file (``*.xml``, ``*.nxml``) is one article;
- a folder is every JATS file under it, subfolders included, sorted by path;
- a PMC Open Access bulk package (``*.tar.gz``, ``*.tgz``, ``*.tar``) is every JATS member, in archive order,
  read by streaming the archive without extracting it. When the package's file list sits beside it
  (``oa_comm_xml.X.filelist.csv`` for ``oa_comm_xml.X.tar.gz``), members whose ``License`` column is not CC BY
  are skipped before parsing (``Source.skip``);
- ``files_from``: a text file naming one input per line (blank lines and ``#`` comments ignored).

``Source.label`` is what a build writes as ``source_file``. It never holds an absolute path of the machine:
a relative input keeps the path as given (``corpus/PMC1.nxml``), an absolute one is named from its last
component (``/data/corpus`` -> ``corpus/PMC1.nxml``), a package member is ``package.tar.gz:member/path.xml``.

One module per concept, every name importable from here too: :mod:`~chemref.inputs.kinds` (file name
endings), :mod:`~chemref.inputs.source` (the :class:`Source` value and its label), :mod:`~chemref.inputs.walk`
(the folder walk), :mod:`~chemref.inputs.file_lists` (``--files-from``), :mod:`~chemref.inputs.archives`
(package streaming), :mod:`~chemref.inputs.package_lists` (a package's licence CSV) and
:mod:`~chemref.inputs.sources` (the inputs of a command as sources).
"""

from __future__ import annotations

from chemref.inputs.archives import MAX_MEMBER_BYTES, READ_AHEAD
from chemref.inputs.file_lists import read_file_list
from chemref.inputs.kinds import JATS_SUFFIXES, PACKAGE_SUFFIXES, is_package
from chemref.inputs.source import Source, path_text
from chemref.inputs.sources import (
                                    check_inputs,
                                    count_sources,
                                    expand_inputs,
                                    folder_sources,
                                    iter_sources,
)
from chemref.inputs.walk import walk_files, walk_jats

__all__ = ["JATS_SUFFIXES", "PACKAGE_SUFFIXES", "Source", "iter_sources", "expand_inputs", "walk_jats",
           "walk_files", "is_package", "read_file_list", "count_sources", "check_inputs", "folder_sources", "path_text",
           "MAX_MEMBER_BYTES", "READ_AHEAD"]
