"""Development tools of the chemref repository (not shipped in the wheel): the README's generated blocks
(``readme_blocks``) and where the reference data lives (``reference_data``)."""
