"""The pages of tables with friends without JavaScript: the new-table form (the rules part
shared with the new-game form), the lobby with its link, code and QR code, sitting down, the
start, joining by a code typed loosely, and the links that lead there."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from fastapi.testclient import TestClient  # noqa: E402

from rummykit.web import create_app  # noqa: E402
from rummykit.web.language import site_translations  # noqa: E402
from rummykit.web.play.adapter import ADAPTERS, adapter  # noqa: E402
from rummykit.web.play.pages import value_text  # noqa: E402
from rummykit.web.play.service import PlayService  # noqa: E402
from rummykit.web.routes.table_pages import normal_code  # noqa: E402


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'tables.sqlite3'}", poll_seconds=0.2)
    with TestClient(app, follow_redirects=False) as test_client:
        app.state.play = PlayService(app.state.db, app.state.hub, bot_workers=0)
        yield test_client


def form_of(kind: str, **extra: str) -> dict[str, str]:
    """The new-table form as a browser sends it, every option at its preset's value."""
    game = adapter(kind)
    preset, rules = next(iter(game.presets().items()))
    data = {"game": kind, "preset": preset, "fields": "1", "nickname": "Zoé", "timer": "60"}
    data["grace"] = "90"
    data["standin"] = game.default_level()
    for option in game.options():
        text = value_text(rules[option.field])
        if option.kind == "bool":
            if text == "true":
                data[f"opt_{option.field}"] = "true"
        else:
            data[f"opt_{option.field}"] = "" if text == "none" else text
    data["seat_1"] = "person"
    for index in range(2, game.max_players):
        data[f"seat_{index}"] = "none"
    data.update(extra)
    return data


def open_table(client: TestClient, lang: str = "fr", kind: str = "romme", **extra: str) -> str:
    answer = client.post(f"/{lang}/tables/new", data=form_of(kind, **extra))
    assert answer.status_code == 303, answer.text[-2000:]
    match = re.fullmatch(rf"/{lang}/t/([\w-]+)", answer.headers["location"])
    assert match is not None
    return match.group(1)


def as_visitor(client: TestClient) -> dict[str, str]:
    """Leaves the client without the host's cookies; gives them back to be put back."""
    kept = dict(client.cookies)
    client.cookies.clear()
    return kept


@pytest.mark.parametrize("kind", list(ADAPTERS))
def test_the_form_shows_every_option_of_the_game_and_the_tables_own(
    client: TestClient, kind: str
) -> None:
    page = client.get(f"/de/tables/new?game={kind}")
    assert page.status_code == 200
    for option in adapter(kind).options():
        assert f'id="opt-{option.field}"' in page.text
    assert (
        'name="seat_1"' in page.text and f'name="seat_{adapter(kind).max_players}"' not in page.text
    )
    assert re.search(r'<option value="60" selected>', page.text)
    assert 'name="grace" value="90"' in page.text
    assert 'name="spectators"' in page.text and 'name="free_text"' in page.text
    assert (
        'aria-current="page">' + site_translations("de").gettext(adapter(kind).title) in page.text
    )


def test_a_table_is_opened_joined_and_started_without_javascript(client: TestClient) -> None:
    table_id = open_table(client, "fr", seat_2="computer:random")
    lobby = client.get(f"/fr/t/{table_id}")
    assert lobby.status_code == 200
    code = re.search(r'class="table-code"[^>]*>(\w{3}) (\w{3})<', lobby.text)
    assert code is not None
    assert "<svg" in lobby.text and "data-start" in lobby.text
    assert f'value="http://testserver/fr/t/{table_id}"' in lobby.text
    host = as_visitor(client)

    # A visitor by the code typed loosely, then a nickname.
    typed = f" {code.group(1).lower()}-{code.group(2)} "
    found = client.get("/de/join", params={"code": typed})
    assert found.status_code == 303 and found.headers["location"] == f"/de/t/{table_id}"
    visitor = client.get(f"/de/t/{table_id}")
    assert "data-join-form" in visitor.text and "data-start" not in visitor.text
    taken = client.post(f"/de/t/{table_id}/join", data={"nickname": "ZOÉ"})
    assert taken.status_code == 409
    sat = client.post(f"/de/t/{table_id}/join", data={"nickname": "Greta"})
    assert sat.status_code == 303
    seated = client.get(f"/de/t/{table_id}")
    assert "data-join-form" not in seated.text and "Greta" in seated.text
    assert "data-start" not in seated.text
    assert client.post(f"/de/t/{table_id}/nickname", data={"nickname": "Grete"}).status_code == 303
    assert "Grete" in client.get(f"/de/t/{table_id}").text
    guest = dict(client.cookies)

    client.cookies.clear()
    client.cookies.update(host)
    assert client.post(f"/fr/t/{table_id}/start", data={}).status_code == 303
    game = client.get(f"/fr/t/{table_id}")
    assert "data-romme-table" in game.text and "data-table-strip" in game.text
    client.cookies.clear()
    client.cookies.update(guest)
    game = client.get(f"/de/t/{table_id}")
    assert "data-romme-table" in game.text and 'lang="de"' in game.text

    # A latecomer at a table without spectators: no game is shown, and no seat is free.
    client.cookies.clear()
    late = client.get(f"/es/t/{table_id}")
    assert "data-join-form" in late.text and "data-romme-table" not in late.text
    refused = client.post(f"/es/t/{table_id}/join", data={"nickname": "Pablo"})
    assert refused.status_code == 409 and 'role="alert"' in refused.text

    # The guest leaves for good: the home page, and the seat is played by the computer.
    client.cookies.update(guest)
    left = client.post(f"/de/t/{table_id}/leave", data={})
    assert left.status_code == 303 and left.headers["location"] == "/de/"
    client.cookies.clear()
    client.cookies.update(host)
    seat = client.get(f"/api/tables/{table_id}").json()["seats"][1]
    assert seat["presence"] == "gone" and seat["standin"] is True


def test_a_refusal_of_the_api_is_shown_on_the_form_in_the_readers_language(
    client: TestClient,
) -> None:
    answer = client.post("/es/tables/new", data=form_of("tiles", nickname=""))
    assert answer.status_code == 422
    assert 'role="alert"' in answer.text
    assert 'name="game" value="tiles"' in answer.text


def test_a_wrong_code_is_said_in_the_readers_language(client: TestClient) -> None:
    page = client.get("/fr/join", params={"code": "zz-zzzz"})
    assert page.status_code == 404
    t = site_translations("fr").gettext
    expected = t("No open table has the code %(code)s. Check it with the person who sent it.")
    assert expected % {"code": "zz-zzzz"} in page.text.replace("&#39;", "'")
    assert 'aria-invalid="true"' in page.text


def test_codes_are_read_in_any_case_without_spaces_or_dashes() -> None:
    assert normal_code(" ab2-c3d ") == "AB2C3D"
    assert normal_code("ab 2c 3d") == "AB2C3D"


def test_the_home_page_and_each_games_form_lead_to_tables(client: TestClient) -> None:
    home = client.get("/es/").text
    assert 'href="/es/tables/new"' in home and 'href="/es/join"' in home
    for kind in ADAPTERS:
        page = client.get(f"/es/{kind}/new").text
        assert f'href="/es/tables/new?game={kind}"' in page
