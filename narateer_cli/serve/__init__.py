"""`narateer serve`: the players' page and the Guide's screen over HTTP (needs the `serve` extra)."""
