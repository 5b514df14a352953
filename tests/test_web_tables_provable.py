"""The committed seeds over HTTP (issue 37): the commitment in the table's answers, a member's client seed, the
game master's rotation, reveal and end, the log export verified offline by the engine and by the service."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web extra (fastapi, uvicorn) is not installed")
pytest.importorskip("sqlalchemy", reason="the table extra (sqlalchemy, alembic) is not installed")

from diceengine import table as T
from diceengine.table import provable as P

from .test_web_tables import bearer, make_client, seated


def test_a_provable_table_over_http_verifies_offline(tmp_path: Path) -> None:
    with make_client(tmp_path, burst=10_000) as c:
        t = seated(c, provable=True)
        tid, keys = t["id"], t["keys"]
        gm, kira = bearer(keys["GM"]), bearer(keys["Kira"])
        commitment = t["made"]["table"]["commitment"]
        assert len(commitment) == 64 and t["made"]["table"]["log"][0]["commitment"] == commitment
        assert c.get(f"/tables/{tid}", headers=kira).json()["commitment"] == commitment
        r = c.post(f"/tables/{tid}/clientseed", json={"seed": "from Kira's browser"}, headers=kira)
        assert r.status_code == 200 and r.json()["step"]["client_seed"] == "from Kira's browser"
        assert c.get(f"/tables/{tid}", headers=kira).json()["client_seeds"] == {"Kira": "from Kira's browser"}
        rolled = c.post(f"/tables/{tid}/roll", json={"expression": "2a1p vs 2d"}, headers=kira).json()["step"]
        assert (rolled["client_seed"], rolled["nonce"], rolled["commitment"]) == ("from Kira's browser", 0, commitment)
        secret = c.post(f"/tables/{tid}/roll", json={"expression": "3d", "secret": True}, headers=gm).json()["step"]
        rotated = c.post(f"/tables/{tid}/rotate", headers=gm).json()["step"]
        assert P.commitment_of(rotated["revealed"]) == commitment
        c.post(f"/tables/{tid}/roll", json={"expression": "1a"}, headers=kira)
        assert c.post(f"/tables/{tid}/reveal", json={"step": secret["seq"]}, headers=gm).status_code == 200
        verified = c.get(f"/tables/{tid}/verify", headers=kira).json()
        assert verified["ok"] and verified["pending"] == 1 and not verified["complete"]
        assert c.post(f"/tables/{tid}/end", headers=gm).status_code == 200
        exported = c.get(f"/tables/{tid}/export", headers=kira)
        assert exported.headers["content-type"] == "application/json"
    report = T.verify(exported.text)  # offline: the engine alone, the server gone
    assert report.complete and report.checked == 3 and report.commitments[0] == commitment


@pytest.mark.parametrize(("path", "body", "who", "status"), [
    ("/clientseed", {"seed": ""}, "Kira", 422),
    ("/clientseed", {"seed": "x" * 129}, "Kira", 422),
    ("/reveal", {"step": 2}, "GM", 400),
    ("/reveal", {"step": 0}, "GM", 422),
    ("/rotate", None, "Kira", 403),
    ("/end", None, "Jax", 403),
])
def test_refusals_of_the_seed_routes(tmp_path: Path, path: str, body: Any, who: str, status: int) -> None:
    with make_client(tmp_path, burst=10_000) as c:
        t = seated(c, provable=True)
        r = c.post(f"/tables/{t['id']}{path}", json=body, headers=bearer(t["keys"][who]))
        assert r.status_code == status, r.text
        assert "error" in r.json()


def test_a_table_without_committed_seeds_refuses_a_client_seed_and_a_rotation(tmp_path: Path) -> None:
    with make_client(tmp_path, burst=10_000) as c:
        t = seated(c, provable=False)  # the way out of the default
        for path, body, who in (("/clientseed", {"seed": "abc"}, "Kira"), ("/rotate", None, "GM")):
            r = c.post(f"/tables/{t['id']}{path}", json=body, headers=bearer(t["keys"][who]))
            assert r.status_code == 400 and r.json()["error"] != "internal", r.text
