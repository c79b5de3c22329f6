"""The Narateer rules as pure functions over small immutable records.

Nothing in this package opens a file, prints, or imports click: every
command loads data through the store, calls one engine function, and hands
the result to the renderer. Randomness arrives as a `DiceSource`.
"""
