"""`narateer report`: a session record of an encounter (or all of them) for notes, each entry in words."""

from __future__ import annotations

import click

from ..report import span, undone_ids
from .common import Session, command


@command(name="report", help="""A session report: rounds, each action in words with its faces, chance and outcome.

Markdown renders as tables in Obsidian and on git hosts; HTML is one page that
needs no network. Default: the current encounter (else the campaign log).

\b
Examples:
  narateer report > session.md
  narateer report --format html > session.html
  narateer report --all""")
@click.argument("enc_id", required=False)
@click.option("--all", "every", is_flag=True, help="Every encounter of the campaign, oldest first.")
@click.option("--format", "fmt", type=click.Choice(["markdown", "html"]), default="markdown", show_default=True)
def report_cmd(app, enc_id, every, fmt):
    from .. import report
    from ..errors import BadInput
    from ..store import encounters
    from .encounters import _log_id

    if every and enc_id:
        raise BadInput("give an encounter or --all, not both", fix=f"drop {enc_id} or --all")
    with Session(app, write=False) as s:
        root, system, rules = s.campaign.root, s.campaign.system, s.rules
        ids = encounters.own_logs(root, system) if every else [_log_id(s, enc_id)]
        logs = sorted((Log(root, log_id) for log_id in ids), key=lambda log: log.order)
    # each log is read again while its rows are printed; none is held whole, however long
    report.write(fmt, logs, app.as_json, system, rules, color=app.use_color(), seeded=app.seeded)


class Log:
    """One log's report, read in two passes so memory stays flat: first its entry count, its time span and its place
    among `--all` (a broken line is bad input before anything is printed), then its rows as they are printed.
    Both passes read the log as it stood at the first (loglines.Snapshot)."""

    def __init__(self, root, log_id: str):
        from ..store import encounters, loglines

        self.id, self.path = log_id, encounters.log_path(root, log_id)
        self.label, self.count, self.order = encounters.log_label(self.path), 0, "~"
        self.undone = set()  # the ids later undos name: their rows are struck
        from ..stream import Spool

        self.spool = Spool()  # the entries the first pass read, for the second (not parsed twice)
        with loglines.Snapshot(self.path, self.label) as log:  # a damaged line: named once, then passed over
            self.span, self.end = span(self._counted(log.entries(damaged=loglines.warn(self.label)))), log.end

    def _counted(self, entries):
        for entry in entries:
            self.spool.add(entry)
            if not self.count:
                self.order = str(entry.get("at"))  # `--all` lists the logs by their first entry's time
            self.count += 1
            if entry.get("command") == "undo":
                self.undone |= undone_ids([entry])
            yield entry

    def entries(self):
        from ..store import loglines

        if self.spool.whole:
            with self.spool:  # read once: the file goes when the rows are printed
                yield from self.spool
            return
        with loglines.Snapshot(self.path, self.label, end=self.end) as log:
            yield from log.entries(damaged=loglines.quiet)
