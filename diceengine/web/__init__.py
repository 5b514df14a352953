"""diceengine over HTTP: the FastAPI application behind ``dice serve`` (the ``web`` extra).

``diceengine.web:app`` is an ASGI application for any server; :func:`create_app` makes another one.
"""

from .app import app, create_app

__all__ = ["app", "create_app"]
