"""chemref's benchmarks (run as scripts: ``python benchmarks/bench_<area>.py``)."""
