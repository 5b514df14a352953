"""diceengine over HTTP: the FastAPI application behind ``dice serve`` (the ``web`` extra).

``diceengine.web:app`` is an ASGI application for any server; :func:`create_app` makes another one.
"""

try:
    import fastapi  # noqa: F401
    import uvicorn  # noqa: F401
except ImportError as err:  # pragma: no cover - the extra is missing
    raise ImportError(f"diceengine.web needs the web extra: pip install 'diceengine[web]' ({err})") from err

from .app import app, create_app

__all__ = ["app", "create_app"]
