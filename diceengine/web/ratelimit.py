"""Requests per key: a token bucket for each member's key (or each client address), shared by the threads of
one server process."""

from __future__ import annotations

import threading
import time

__all__ = ["TokenBucket"]


class TokenBucket:
    """Requests per key: each key's bucket holds up to ``burst`` tokens, refilled at ``rate`` a second; a
    request takes one (:meth:`take` is false when there is none). At most ``size`` keys are remembered."""

    def __init__(self, rate: float, burst: float, size: int = 100_000) -> None:
        self.rate, self.burst, self.size = rate, burst, size
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def take(self, who: str) -> bool:
        """Take a token from ``who``'s bucket; false when it is empty."""
        now = time.monotonic()
        with self._lock:
            tokens, then = self._buckets.get(who, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens < 1:
                self._buckets[who] = (tokens, now)
                return False
            if len(self._buckets) >= self.size and who not in self._buckets:
                self._buckets.clear()  # a flood of keys: forget them all rather than grow without bound
            self._buckets[who] = (tokens - 1, now)
            return True
