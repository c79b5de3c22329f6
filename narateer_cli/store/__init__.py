"""Campaign storage: YAML files, logs, the private folder, locks and transactions.

Every module here works with `pathlib.Path`, and importing pathlib imports `urllib.parse` (with
`ipaddress`) for one method narateer never calls on a command's path, `Path.as_uri`: about 2 ms of a
roll, 4% of the import floor (SPEC Part 9, speed). So pathlib is imported here, first, against a
stand-in `urllib.parse` whose `quote_from_bytes` imports the real module when it is first called:
`Path.as_uri` behaves exactly as before, and any later `import urllib.parse` gets the real module.
"""

import sys


def _pathlib_without_urllib():
    if "pathlib" in sys.modules or "urllib.parse" in sys.modules:
        return
    import types

    def quote_from_bytes(*args, **kwargs):
        from urllib.parse import quote_from_bytes as real

        return real(*args, **kwargs)

    stand_in = types.ModuleType("urllib.parse")
    stand_in.quote_from_bytes = quote_from_bytes
    sys.modules["urllib.parse"] = stand_in
    try:
        import pathlib  # noqa: F401
    finally:
        if sys.modules.get("urllib.parse") is stand_in:
            del sys.modules["urllib.parse"]


_pathlib_without_urllib()
