"""Stage 1, load: input files into frozen models, each with its source file and lines."""

from generator.load.tree import Inputs, Loaded, LoadedBundle, LoadedRelease, load_inputs

__all__ = ["Inputs", "Loaded", "LoadedBundle", "LoadedRelease", "load_inputs"]
