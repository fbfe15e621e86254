"""Other tools' result files → bundles: the importers (Inspect AI logs, Terminal-Bench runs
and Harbor jobs, and any a benchmark installs through the entry-point group
``lg_bench_site.importers``) and the writing of what they read into a release root."""
