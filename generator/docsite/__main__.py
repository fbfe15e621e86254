"""``python -m generator.docsite``: build the generator's documentation site."""

from generator.docsite.build import main

main(prog_name="python -m generator.docsite")
