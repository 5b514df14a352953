"""Requests per key and per address: token buckets, each holding up to ``burst`` tokens refilled at ``rate`` a
second, a request taking one.

:class:`SharedBuckets` keeps them in the tables' database (the ``dice_buckets`` table, through SQLAlchemy), so that
every server process on that database (``dice serve --workers N``, several servers) draws from the same bucket:
two processes give the budget of one, not twice it. A request's take is one statement (the refill, the take and
the answer at once, atomic on SQLite and PostgreSQL), committed without waiting for the disk (a bucket lost to a
power cut is a full bucket). :class:`TokenBucket` is the same in one process's memory; a shared bucket keeps one
too, in front of the database, holding what this process was given: it never holds fewer tokens than the shared
bucket (which counts every process's requests), so when it is empty the request is refused with nothing written,
and a flood from one key or address costs no statement once its bucket is empty.

Neither forgets everyone at once: past ``size`` buckets the least recently used go first, and in the database a
bucket idle long enough to be full again is dropped (it reads as a new, full bucket), so that a flood of new keys
resets no one else's bucket.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

__all__ = ["SIZE", "SharedBuckets", "TokenBucket"]

#: buckets remembered (a bucket past them is forgotten, the least recently used first)
SIZE = 100_000


class TokenBucket:
    """Requests per key in this process's memory: ``who``'s bucket holds up to ``burst`` tokens, refilled at
    ``rate`` a second; a request takes one (:meth:`take` is false when there is none). At most ``size`` keys are
    remembered, the least recently used forgotten first; ``clock`` gives seconds."""

    def __init__(self, rate: float, burst: float, size: int = SIZE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.size, self.clock = rate, burst, size, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, who: str, rate: float | None = None, burst: float | None = None) -> bool:
        """Take a token from ``who``'s bucket (of ``rate`` and ``burst``, by default the limiter's); false when
        it is empty."""
        rate = self.rate if rate is None else rate
        burst = self.burst if burst is None else burst
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.pop(who, (burst, now))
            tokens = min(burst, tokens + max(0.0, now - then) * rate)
            granted = tokens >= 1
            self._buckets[who] = (tokens - 1 if granted else tokens, now)
            while len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
            return granted

    def refund(self, who: str) -> None:
        """Give back the token :meth:`take` just gave ``who`` (a request refused elsewhere after all)."""
        with self._lock:
            found = self._buckets.get(who)
            if found is not None:
                self._buckets[who] = (found[0] + 1, found[1])


class SharedBuckets:
    """Requests per key kept in the database of ``engine`` (the ``dice_buckets`` table of the tables'
    migrations), shared by every process on it; the same :meth:`take` as :class:`TokenBucket`. Every
    ``evict_every`` takes, the buckets idle for longer than ``idle`` seconds (full again by then: forgetting
    them changes nothing) are dropped, then the least recently used past ``size``. ``clock``: seconds since the
    epoch, the same on every server."""

    def __init__(self, engine: Any, rate: float, burst: float, idle: float, size: int = SIZE,
                 evict_every: int = 1000, clock: Callable[[], float] = time.time) -> None:
        self.engine, self.rate, self.burst, self.idle, self.size = engine, rate, burst, idle, size
        self.evict_every, self.clock = evict_every, clock
        self._take = _take_statement(engine.dialect.name)
        self._local = TokenBucket(rate, burst, size, clock)
        self._count = 0
        self._evict_due = False
        self._lock = threading.Lock()

    def take(self, who: str, rate: float | None = None, burst: float | None = None) -> bool:
        """Take a token from ``who``'s bucket (of ``rate`` and ``burst``, by default the limiter's): one
        statement, committed; false when it is empty."""
        granted = self._taken(None, who, rate, burst)
        self.settle()
        return granted

    def take_in(self, conn: Any, who: str, rate: float | None = None, burst: float | None = None) -> bool:
        """:meth:`take` in the transaction of ``conn``, a connection to the same database (a step's group commit:
        no transaction of its own, committed with the step's); the eviction it may call for waits for
        :meth:`settle`."""
        return self._taken(conn, who, rate, burst)

    def settle(self) -> None:
        """Evict (:meth:`evict`) when the takes since the last eviction call for it."""
        with self._lock:
            evict, self._evict_due = self._evict_due, False
        if evict:
            self.evict()

    def _taken(self, conn: Any, who: str, rate: float | None, burst: float | None) -> bool:
        rate = self.rate if rate is None else rate
        burst = self.burst if burst is None else burst
        if not self._local.take(who, rate, burst):  # empty here, so empty there: nothing to ask the database
            return False
        params = {"who": who, "now": self.clock(), "rate": rate, "burst": burst, "full": burst - 1.0}
        if conn is None:
            with self.engine.begin() as own:
                granted = own.execute(self._take, params).scalar_one()
        else:
            granted = conn.execute(self._take, params).scalar_one()
        with self._lock:
            self._count += 1
            if self._count % self.evict_every == 0:
                self._evict_due = True
        if not granted:
            self._local.refund(who)  # the other processes took it: this process was given nothing
        return bool(granted)

    def evict(self) -> None:
        """Drop the buckets idle long enough to be full, then the least recently used past ``size``."""
        import sqlalchemy as sa

        from ..table.schema import buckets

        with self.engine.begin() as conn:
            conn.execute(sa.delete(buckets).where(buckets.c.stamp < self.clock() - self.idle))
            excess = conn.execute(sa.select(sa.func.count()).select_from(buckets)).scalar_one() - self.size
            if excess > 0:
                oldest = sa.select(buckets.c.who).order_by(buckets.c.stamp).limit(excess).scalar_subquery()
                conn.execute(sa.delete(buckets).where(buckets.c.who.in_(oldest)))

    def close(self) -> None:
        self.engine.dispose()


def _take_statement(dialect: str) -> Any:
    """The take as one statement: a new bucket starts full and gives a token; an old one is refilled for the
    time since its last take (never above ``burst``) and gives a token if it holds one; ``granted`` says which."""
    import sqlalchemy as sa

    from ..table.schema import buckets

    insert: Any
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert

        least, greatest = "least", "greatest"
    else:
        from sqlalchemy.dialects.sqlite import insert

        least, greatest = "min", "max"  # SQLite's scalar min and max of several values

    def fn(name: str, *args: Any) -> Any:
        return getattr(sa.func, name)(*args)

    p = {name: sa.bindparam(name, type_=sa.Float) for name in ("now", "rate", "burst", "full")}
    refilled = fn(least, p["burst"], buckets.c.tokens + fn(greatest, 0.0, p["now"] - buckets.c.stamp) * p["rate"])
    new = insert(buckets).values(who=sa.bindparam("who", type_=sa.String), tokens=p["full"], stamp=p["now"],
                                 granted=True)
    return new.on_conflict_do_update(index_elements=[buckets.c.who], set_={
        "tokens": sa.case((refilled >= 1.0, refilled - 1.0), else_=refilled),
        "stamp": fn(greatest, buckets.c.stamp, p["now"]),
        "granted": refilled >= 1.0,
    }).returning(buckets.c.granted)
