"""A request that does not fit its model is refused in the catalogues' words (``diceengine.web.answers``): each
kind of pydantic error that shares its words with others is said the same way, in English and in French. The
expected sentences are written here from the catalogues (``diceengine/locale``), not read from the engine."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from diceengine.web.answers import invalid_response


class Probe(BaseModel):
    """One field of each kind the service's requests take."""

    model_config = ConfigDict(extra="forbid", strict=False)

    whole: int = 0
    number: float = 0.0
    flag: bool = False
    items: list[int] = Field(default_factory=list)
    pair: tuple[int, int] = (0, 0)
    inner: dict[str, int] = Field(default_factory=dict)
    text: str = ""
    needed: int


def _refusal(data: dict[str, Any], lang: str) -> tuple[int, str]:
    with pytest.raises(ValidationError) as caught:
        Probe.model_validate({"needed": 1, **data})
    answer = invalid_response(caught.value.errors(), lang)
    return answer.status_code, json.loads(answer.body)["message"]


@pytest.mark.parametrize(("data", "english", "french"), [
    ({"whole": "many"}, "whole: should be a whole number", "whole : doit être un nombre entier"),
    ({"whole": 1.5}, "whole: should be a whole number", "whole : doit être un nombre entier"),
    ({"whole": [1]}, "whole: should be a whole number", "whole : doit être un nombre entier"),
    ({"number": "much"}, "number: should be a number", "number : doit être un nombre"),
    ({"number": [1]}, "number: should be a number", "number : doit être un nombre"),
    ({"flag": "perhaps"}, "flag: should be true or false", "flag : doit être true ou false"),
    ({"flag": [1]}, "flag: should be true or false", "flag : doit être true ou false"),
    ({"items": 3}, "items: should be a list", "items : doit être une liste"),
    ({"pair": 3}, "pair: should be a list", "pair : doit être une liste"),
    ({"inner": 3}, "inner: should be an object", "inner : doit être un objet"),
    ({"text": 3}, "text: should be text", "text : doit être du texte"),
    ({"other": 1}, "other: this field is not expected here", "other : ce champ n'est pas attendu ici"),
])
def test_each_kind_of_error_in_the_catalogues_words(data: dict[str, Any], english: str, french: str) -> None:
    assert _refusal(data, "en") == (422, english)
    assert _refusal(data, "fr") == (422, french)


def test_a_missing_field() -> None:
    with pytest.raises(ValidationError) as caught:
        Probe.model_validate({})
    answer = invalid_response(caught.value.errors(), "fr")
    assert (answer.status_code, json.loads(answer.body)["message"]) == (422, "needed : ce champ est obligatoire")
