"""The documentation site of the generator itself (``docs/``), built by the same engine as the
release sites, with its command and input-format reference generated from the command line
and the models: ``python -m generator.docsite``."""
