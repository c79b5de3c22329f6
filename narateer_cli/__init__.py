"""narateer: a command-line toolkit for the Narateer tabletop role-playing game."""

__version__ = "0.1.0"
