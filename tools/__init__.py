"""Development tools of the chemref repository (not shipped in the wheel): the documentation's generated blocks
(``readme_blocks``), the command-line reference page (``cli_reference``) and where the reference data lives
(``reference_data``)."""
