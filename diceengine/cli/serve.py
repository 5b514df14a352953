"""``dice serve``: the web service and its page under uvicorn (the ``web`` extra)."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import DiceError
from ..i18n import N_

__all__ = ["WORKER_TIMEOUT", "add_commands", "cmd_serve"]

#: how long a server process (``--workers N``) may take to answer its supervisor's health check, in seconds
WORKER_TIMEOUT = 60


def cmd_serve(args: argparse.Namespace) -> int:
    """Run ``diceengine.web:app`` under uvicorn until interrupted."""
    import os

    try:
        import uvicorn
    except ImportError:
        raise DiceError(N_("dice serve needs the web extra: pip install 'diceengine[web]'")) from None
    if args.compute_workers is not None:
        if args.compute_workers < 0:
            raise DiceError(N_("--compute-workers must be 0 or more"))
        os.environ["DICE_WEB_WORKERS"] = str(args.compute_workers)  # read by the app in each server process
    if args.db is not None:  # read by the app in each server process
        os.environ["DICE_TABLE_DB"] = args.db
    if args.allow_origin:
        os.environ["DICE_CORS_ORIGINS"] = ",".join(args.allow_origin)
    if args.workers < 1:
        raise DiceError(N_("--workers must be at least 1"))
    os.environ["DICE_SERVER_GC"] = "1"  # the server's collector (diceengine.web.collector), in each server process
    reload_dirs = None
    if args.reload:  # watch the engine's own code (its systems and grammars may live beside it)
        import importlib

        names = ("diceengine", "diceengine.systems", "diceengine.grammars")
        reload_dirs = sorted({os.path.dirname(importlib.import_module(n).__file__ or "") for n in names})
    if args.worker_timeout < 1:
        raise DiceError(N_("--worker-timeout must be at least 1 second"))
    # a worker process answers its supervisor's health check only once its interpreter is up: under load that takes
    # more than uvicorn's 5 s, and a worker still starting was declared dead and started again, over and over
    uvicorn.run("diceengine.web:app", host=args.host, port=args.port, reload=args.reload, reload_dirs=reload_dirs,
                workers=None if args.reload else args.workers, log_level=args.log_level,
                access_log=not args.no_access_log, timeout_worker_healthcheck=args.worker_timeout)
    return 0


def add_commands(sub: Any) -> None:
    """Add ``serve`` to the ``dice`` parser."""
    p = sub.add_parser("serve", help="the web service and its page (needs the web extra)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--reload", action="store_true", help="restart when the code changes (development)")
    p.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    p.add_argument("--worker-timeout", type=int, default=WORKER_TIMEOUT, metavar="SECONDS",
                   help=f"with --workers: how long a server process may take to answer its health check before it is "
                        f"restarted (default {WORKER_TIMEOUT})")
    p.add_argument("--compute-workers", type=int, default=None, metavar="N",
                   help="processes per server computing exact odds and comparisons (default 1; 0: threads)")
    p.add_argument("--db", default=None, metavar="URL",
                   help="the game tables' database: a SQLite file or a postgresql:// URL (default dice-tables.sqlite)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="a browser origin allowed to call the API from elsewhere (repeatable; none by default)")
    p.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    p.add_argument("--no-access-log", action="store_true", help="do not log each request")
    p.set_defaults(func=cmd_serve)
