"""No request can crash the site, flood it or turn it against its users.

Every case found by trying the site as a hostile user would is here: each is refused with a
4xx answer that names a stable code and says why in the visitor's language, and nothing is
stored.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import html
import io
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from rummykit.web import create_app  # noqa: E402
from rummykit.web.play.service import PlayService, service  # noqa: E402
from rummykit.web.security import Settings  # noqa: E402

from .databases import postgres_database, redis_server, stored_rows  # noqa: E402

DE = {"Accept-Language": "de"}


class Site:
    """The site in process, with a way to count what it has stored."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.games: list[str] = []

    def rows(self) -> dict[str, int]:
        """The rows stored, once the computer seats of the games have moved."""
        play = service(self.client.app)  # type: ignore[arg-type]
        for game_id in self.games:
            self.client.portal.call(play.settle, game_id)  # type: ignore[union-attr, arg-type]
        return stored_rows(self.client)

    def refused(self, status: int | tuple[int, ...], code: str | None, send: Any) -> Any:
        """Send a request that must be refused with ``status`` (and ``code``, when the answer
        is JSON) and must change nothing."""
        before = self.rows()
        response = send()
        statuses = status if isinstance(status, tuple) else (status,)
        assert response.status_code in statuses, (response.status_code, response.text[:300])
        if code is not None and response.headers["content-type"].startswith("application/json"):
            assert response.json()["error"]["code"] == code
        assert self.rows() == before
        return response


@contextmanager
def make_site(
    tmp_path: Path, limits: Settings | None = None, url: str | None = None
) -> Iterator[Site]:
    app = create_app(
        url or f"sqlite:///{tmp_path / 'hard.sqlite3'}", poll_seconds=0.2, limits=limits
    )
    with TestClient(app, follow_redirects=False) as client:
        app.state.play = PlayService(app.state.db, app.state.hub, bot_workers=0)
        yield Site(client)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    with make_site(tmp_path) as opened:
        yield opened


def new_sheet(site: Site, players: list[str] | None = None) -> str:
    body = {"name": "Evening", "players": players or ["Ann", "Bob"]}
    response = site.client.post("/api/sheets", json=body)
    assert response.status_code == 201, response.text
    sheet_id: str = response.json()["id"]
    return sheet_id


def new_game(site: Site, game: str = "romme") -> tuple[str, str]:
    response = site.client.post("/api/games", json={"game": game, "opponents": 1})
    assert response.status_code == 201, response.text
    site.games.append(response.json()["id"])
    return response.json()["id"], response.json()["token"]


# -- Bodies that used to crash the server ------------------------------------------------------


def test_deeply_nested_json_is_refused_on_every_json_route(site: Site) -> None:
    game_id, token = new_game(site)
    sheet_id = new_sheet(site)
    seat = {"X-Seat-Token": token}
    huge = b"[" * 100_000
    small = b'{"action": ' + b"[" * 500 + b"]" * 500 + b"}"
    for path, headers in (
        ("/api/games", {}),
        (f"/api/games/{game_id}/actions", seat),
        ("/api/sheets", {}),
        (f"/api/sheets/{sheet_id}/actions", {}),
    ):
        kind = {"Content-Type": "application/json", **headers}
        site.refused(
            413, "too_large", lambda p=path, h=kind: site.client.post(p, content=huge, headers=h)
        )
        answer = site.refused(
            422,
            "too_deep",
            lambda p=path, h=kind: site.client.post(p, content=small, headers=h | DE),
        )
        assert answer.json()["error"]["message"] == "Diese Anfrage ist zu tief verschachtelt."


@pytest.mark.parametrize("preset", [[], {}, {"a": 1}, 3, None])
def test_a_preset_that_is_not_a_name_is_refused(site: Site, preset: Any) -> None:
    body = {"game": "romme", "preset": preset}
    code = "bad_rules" if preset is None else "bad_field"
    if preset is None:  # null means the default preset
        assert site.client.post("/api/games", json=body).status_code == 201
        return
    site.refused(422, code, lambda: site.client.post("/api/games", json=body))


def test_a_sheet_join_whose_start_is_a_list_is_refused(site: Site) -> None:
    sheet_id = new_sheet(site)
    action = {"t": "join", "name": "Cy", "start": []}
    site.refused(
        422,
        "bad_action",
        lambda: site.client.post(
            f"/api/sheets/{sheet_id}/actions", json={"version": 0, "action": action}
        ),
    )


@pytest.mark.parametrize(
    "rules",
    [
        {"hand_size": 12.0},
        {"opening_min": 30.0},
        {"joker_penalty": 20.0},
        {"rounds": 10**30},
        {"rounds": 51},
        {"rounds": 0},
        {"rounds": 3.0},
        {"hand_size": True},
        {"layoff_on_opening_turn": 1},
        {"hand_size": "12"},
        {"go_out": "anywhere"},
        {"no_such_rule": 1},
    ],
)
def test_rules_are_whole_numbers_of_the_forms_bounds_and_choices(
    site: Site, rules: dict[str, Any]
) -> None:
    body = {"game": "romme", "rules": rules}
    answer = site.refused(422, None, lambda: site.client.post("/api/games", json=body))
    assert answer.json()["error"]["code"] in ("bad_rules", "bad_json", "bad_field")


def test_the_forms_own_rule_values_are_still_accepted(site: Site) -> None:
    rules = {"hand_size": 12, "opening_min": 40, "rounds": 50, "point_limit": None}
    response = site.client.post("/api/games", json={"game": "romme", "rules": rules})
    assert response.status_code == 201, response.text


def test_integers_of_more_digits_than_python_reads_are_refused(site: Site) -> None:
    body = b'{"game": "romme", "rules": {"rounds": ' + b"9" * 5000 + b"}}"
    headers = {"Content-Type": "application/json"}
    site.refused(
        422, "bad_json", lambda: site.client.post("/api/games", content=body, headers=headers)
    )


def test_an_integer_version_is_an_integer(site: Site) -> None:
    sheet_id = new_sheet(site)
    action = {"t": "leave", "player": 1}
    for version in (0.0, "0", True, -1, 10**12):
        site.refused(
            422,
            "bad_version",
            lambda v=version: site.client.post(
                f"/api/sheets/{sheet_id}/actions", json={"version": v, "action": action}
            ),
        )


# -- Unicode digits and NUL characters -----------------------------------------------------------

SUPERSCRIPT_TWO = "²"


def sheet_forms(sheet_id: str) -> list[tuple[str, dict[str, str]]]:
    """Every score-sheet form, each with one field holding ``²``."""
    base = f"/en/sheet/{sheet_id}"
    return [
        (f"{base}/round", {"version": "²", "p0": "5", "p1": "0", "out": "1"}),
        (f"{base}/round", {"version": "1", "p0": "5", "p1": "0", "out": "²"}),
        (f"{base}/round", {"version": "1", "p0": "²", "p1": "0", "out": "1"}),
        (f"{base}/join", {"version": "²", "name": "Cy", "start": "zero"}),
        (f"{base}/leave", {"version": "²", "player": "1"}),
        (f"{base}/leave", {"version": "1", "player": "²"}),
        ("/en/sheet/new", {"name": "x", "player": "A", "limit": "²"}),
        ("/en/sheet/new", {"name": "x", "player": "A", "limit": "other", "limit_other": "²"}),
    ]


def test_a_unicode_digit_is_refused_in_every_form_field(site: Site) -> None:
    sheet_id = new_sheet(site)
    site.client.post(
        f"/api/sheets/{sheet_id}/actions",
        json={
            "version": 0,
            "action": {"t": "round", "entries": [{"p": 0, "v": 5}, {"p": 1, "v": 0, "out": True}]},
        },
    )
    for path, fields in sheet_forms(sheet_id):
        site.refused(422, None, lambda p=path, f=fields: site.client.post(p, data=f))
    for path, fields in sheet_forms(sheet_id)[:3]:
        corrected = path + "/1"
        site.refused(422, None, lambda p=corrected, f=fields: site.client.post(p, data=f))
    game_forms = [
        ("/en/romme/new", {"opponents": "²"}),
        ("/en/romme/new", {"opponents": "1", "fields": "1", "opt_rounds": "²"}),
        ("/en/romme/new", {"opponents": "1", "fields": "1", "opt_point_limit": "²"}),
        ("/en/tiles/new", {"opponents": "²"}),
        ("/en/rummoli/new", {"opponents": "²"}),
    ]
    for path, fields in game_forms:
        site.refused(422, None, lambda p=path, f=fields: site.client.post(p, data=f))


def test_a_huge_number_in_a_form_is_refused(site: Site) -> None:
    sheet_id = new_sheet(site)
    for fields in ({"version": "9" * 5000, "player": "1"}, {"version": "0", "player": "9" * 5000}):
        site.refused(
            422, None, lambda f=fields: site.client.post(f"/en/sheet/{sheet_id}/leave", data=f)
        )
    site.refused(
        422, None, lambda: site.client.post("/en/romme/new", data={"opponents": "9" * 5000})
    )


@pytest.mark.parametrize("since", [SUPERSCRIPT_TWO, "9" * 5000, "-3", "1.5", ""])
def test_the_sockets_read_since_as_a_whole_number_or_not_at_all(site: Site, since: str) -> None:
    game_id, token = new_game(site)
    headers = {"X-Seat-Token": token}
    with site.client.websocket_connect(f"/ws/games/{game_id}?since={since}", headers=headers) as ws:
        message = ws.receive_json()
        # Read as no version at all: the game as it is now, in one whole view (a computer may
        # already have moved).
        assert message["t"] == "view" and message["d"]["step"] is False
        assert message["v"] == message["d"]["seq"]
    sheet_id = new_sheet(site)
    with site.client.websocket_connect(f"/ws/sheet/{sheet_id}?since={since}") as ws:
        assert ws.receive_json()["v"] == 0


def test_a_nul_character_is_refused_in_every_text(site: Site) -> None:
    sheet_id = new_sheet(site)
    nul = "Ann\x00"
    site.refused(
        422,
        "bad_text",
        lambda: site.client.post("/api/sheets", json={"name": nul, "players": ["A", "B"]}),
    )
    site.refused(
        422,
        "bad_text",
        lambda: site.client.post("/api/sheets", json={"name": "x", "players": [nul, "B"]}),
    )
    join = {"t": "join", "name": nul, "start": "zero"}
    site.refused(
        422,
        "bad_text",
        lambda: site.client.post(
            f"/api/sheets/{sheet_id}/actions", json={"version": 0, "action": join}
        ),
    )
    site.refused(
        422,
        None,
        lambda: site.client.post(
            "/en/sheet/new", data={"name": nul, "player": ["A", "B"], "limit": "500"}
        ),
    )
    site.refused(
        422,
        None,
        lambda: site.client.post(
            "/en/sheet/new", data={"name": "x", "player": [nul, "B"], "limit": "500"}
        ),
    )
    site.refused(
        422,
        None,
        lambda: site.client.post(
            f"/en/sheet/{sheet_id}/join", data={"version": "0", "name": nul, "start": "zero"}
        ),
    )
    site.refused(
        422, "bad_text", lambda: site.client.post("/api/games", json={"game": "romme\x00"})
    )


@pytest.mark.postgres
def test_a_nul_character_is_refused_on_postgresql_too(tmp_path: Path) -> None:
    with postgres_database() as url, make_site(tmp_path, url=url) as site:
        for body in (
            {"name": "Ann\x00", "players": ["A", "B"]},
            {"name": "x", "players": ["Ann\x00", "B"]},
        ):
            site.refused(422, "bad_text", lambda b=body: site.client.post("/api/sheets", json=b))
        form = {"name": "Ann\x00", "player": ["A", "B"], "limit": "500"}
        site.refused(422, None, lambda: site.client.post("/en/sheet/new", data=form))
        new_sheet(site)  # and the database works on


# -- Names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "code"),
    [
        (["Bob", "Bob\u200b"], "bad_name"),
        (["Bob", "B\u202eob"], "bad_name"),
        (["Bob", "\u2066Ann\u2069"], "bad_name"),
        (["Bob", "Ann\u00ad"], "bad_name"),
        (["Bob", "\u3164"], "bad_name"),
        (["Bob", "Ｂｏｂ"], "duplicate_name"),
        (["Bob", "BOB"], "duplicate_name"),
        (["ﬁn", "fin"], "duplicate_name"),
    ],
)
def test_look_alike_names_are_one_name_and_invisible_characters_are_refused(
    site: Site, players: list[str], code: str
) -> None:
    site.refused(
        422, code, lambda: site.client.post("/api/sheets", json={"name": "x", "players": players})
    )


def test_a_joining_player_may_not_look_like_a_player_already_there(site: Site) -> None:
    sheet_id = new_sheet(site, ["Bob", "Ann"])
    for name, code in (("Bob\u200b", "bad_name"), ("ｂｏｂ", "duplicate_name")):
        join = {"t": "join", "name": name, "start": "zero"}
        site.refused(
            422,
            code,
            lambda j=join: site.client.post(
                f"/api/sheets/{sheet_id}/actions", json={"version": 0, "action": j}
            ),
        )


def test_a_sheet_name_is_normalised_and_may_not_hold_a_direction_override(site: Site) -> None:
    response = site.client.post("/api/sheets", json={"name": "Ｆｒｉｄａｙ", "players": ["A", "B"]})
    assert response.json()["sheet"]["settings"]["name"] == "Friday"
    site.refused(
        422,
        "bad_name",
        lambda: site.client.post("/api/sheets", json={"name": "x\u202ey", "players": ["A", "B"]}),
    )


# -- CSV ------------------------------------------------------------------------------------


def test_the_csv_export_neutralises_formulas(site: Site) -> None:
    players = ['=HYPERLINK("http://x.ex","ok")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-Eve"]
    sheet_id = new_sheet(site, players)
    entries = [
        {"p": 0, "v": -20, "out": True},
        {"p": 1, "v": 5},
        {"p": 2, "v": 7},
        {"p": 3, "v": 9},
    ]
    site.client.post(
        f"/api/sheets/{sheet_id}/actions",
        json={"version": 0, "action": {"t": "round", "entries": entries}},
    )
    text = site.client.get(f"/en/sheet/{sheet_id}/export.csv").text.lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][1:5] == ["'" + p for p in players]
    assert rows[1][1] == "-20"  # numbers stay numbers
    assert rows[1][5] == "'" + players[0]  # who went out
    for row in rows:
        for cell in row:
            assert cell[:1] not in ("=", "+", "@", "\t", "\r"), cell


# -- Limits ---------------------------------------------------------------------------------


def test_a_large_body_is_refused_before_it_is_read_whole(site: Site) -> None:
    big = b'{"name": "' + b"x" * (200 * 1024) + b'"}'
    headers = {"Content-Type": "application/json"}
    site.refused(
        413, "too_large", lambda: site.client.post("/api/sheets", content=big, headers=headers)
    )

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        for _ in range(100):
            yield b"x" * 1024

    site.refused(
        413, "too_large", lambda: site.client.post("/api/sheets", content=chunks(), headers=headers)
    )
    site.refused(413, None, lambda: site.client.post("/en/sheet/new", data={"name": "x" * 40_000}))


SHEETS = "/api/sheets"


def test_a_content_length_that_is_not_ascii_digits_is_refused(site: Site) -> None:
    for length in ("²", "1e3", "-1", "9" * 40):
        headers = {"Content-Type": "application/json", "Content-Length": length.encode("latin-1")}
        site.refused(
            413, "too_large", lambda h=headers: site.client.post(SHEETS, content=b"{}", headers=h)
        )


def test_an_action_is_a_few_kilobytes_at_most(site: Site) -> None:
    game_id, token = new_game(site)
    melds = [["AS", "2S", "3S"]] * 1000
    body = {"action": {"t": "play", "melds": melds}}
    site.refused(
        413,
        "too_large",
        lambda: site.client.post(
            f"/api/games/{game_id}/actions", json=body, headers={"X-Seat-Token": token}
        ),
    )


def test_one_action_names_at_most_a_pack_of_cards(site: Site) -> None:
    game_id, token = new_game(site)
    body = {"action": {"t": "play", "melds": [["AS"]] * 200}}
    site.refused(
        422,
        "too_big",
        lambda: site.client.post(
            f"/api/games/{game_id}/actions", json=body, headers={"X-Seat-Token": token}
        ),
    )


def test_too_many_or_too_large_headers_are_refused(site: Site) -> None:
    many = {f"x-h{i}": "1" for i in range(500)}
    site.refused(431, None, lambda: site.client.get("/en/", headers=many))
    site.refused(
        431, None, lambda: site.client.get("/api/sheets/x" * 1, headers={"x-big": "a" * 100_000})
    )


def test_creating_games_and_sheets_is_rate_limited_per_client(tmp_path: Path) -> None:
    limits = Settings(create_rate="3/minute", action_rate="1000/minute")
    with make_site(tmp_path, limits) as site:
        for _ in range(3):
            new_sheet(site)
        answer = site.refused(
            429,
            "too_many_requests",
            lambda: site.client.post("/api/sheets", json={"name": "x", "players": ["A", "B"]}),
        )
        assert int(answer.headers["Retry-After"]) >= 1
        site.refused(429, None, lambda: site.client.post("/api/games", json={"game": "romme"}))
        site.refused(
            429,
            None,
            lambda: site.client.post(
                "/en/sheet/new", data={"name": "x", "player": ["A", "B"], "limit": "500"}
            ),
        )
        assert site.client.get("/en/").status_code == 200  # reading is not limited


def test_actions_are_rate_limited_per_client(tmp_path: Path) -> None:
    limits = Settings(create_rate="100/minute", action_rate="4/minute")
    with make_site(tmp_path, limits) as site:
        sheet_id = new_sheet(site)
        leave = {"t": "leave", "player": 5}
        for _ in range(4):
            response = site.client.post(
                f"/api/sheets/{sheet_id}/actions", json={"version": 0, "action": leave}
            )
            assert response.status_code == 422
        site.refused(
            429,
            "too_many_requests",
            lambda: site.client.post(
                f"/api/sheets/{sheet_id}/actions", json={"version": 0, "action": leave}
            ),
        )


SHEET = {"name": "x", "players": ["A", "B"]}


def test_with_redis_the_processes_count_one_clients_creations_together(tmp_path: Path) -> None:
    with redis_server(tmp_path) as redis_url:
        limits = Settings(create_rate="2/minute", redis_url=redis_url)
        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        with make_site(tmp_path / "a", limits) as one, make_site(tmp_path / "b", limits) as other:
            new_sheet(one)
            new_sheet(other)
            for site in (one, other):
                site.refused(
                    429,
                    "too_many_requests",
                    lambda s=site: s.client.post("/api/sheets", json=SHEET),
                )


def test_open_sockets_are_capped_per_table_and_per_client(tmp_path: Path) -> None:
    with make_site(tmp_path, Settings(sockets_per_table=2, sockets_per_client=3)) as site:
        first, second = new_sheet(site), new_sheet(site)
        with (
            site.client.websocket_connect(f"/ws/sheet/{first}"),
            site.client.websocket_connect(f"/ws/sheet/{first}"),
        ):
            with (
                pytest.raises(WebSocketDisconnect),
                site.client.websocket_connect(f"/ws/sheet/{first}"),
            ):
                pass
            with site.client.websocket_connect(f"/ws/sheet/{second}") as third:
                assert third.receive_json()["v"] == 0
                with (
                    pytest.raises(WebSocketDisconnect),
                    site.client.websocket_connect(f"/ws/sheet/{second}"),
                ):
                    pass
        with site.client.websocket_connect(
            f"/ws/sheet/{first}"
        ) as again:  # closed ones count no more
            assert again.receive_json()["v"] == 0


# -- Headers --------------------------------------------------------------------------------


def test_a_socket_from_another_sites_page_is_refused(site: Site) -> None:
    sheet_id = new_sheet(site)
    game_id, token = new_game(site)
    for path, headers in (
        (f"/ws/sheet/{sheet_id}", {}),
        (f"/ws/games/{game_id}", {"X-Seat-Token": token}),
    ):
        with (
            pytest.raises(WebSocketDisconnect),
            site.client.websocket_connect(
                path, headers=headers | {"Origin": "https://evil.example"}
            ),
        ):
            pass
        with site.client.websocket_connect(
            path, headers=headers | {"Origin": "http://testserver"}
        ) as ws:
            ws.receive_json()


def test_origins_behind_a_proxy_are_configurable(tmp_path: Path) -> None:
    with make_site(tmp_path, Settings(allowed_origins=("https://cards.example",))) as site:
        sheet_id = new_sheet(site)
        with site.client.websocket_connect(
            f"/ws/sheet/{sheet_id}", headers={"Origin": "https://cards.example"}
        ) as ws:
            assert ws.receive_json()["v"] == 0


def test_sheet_and_game_answers_of_the_api_are_never_cached(site: Site) -> None:
    sheet_id = new_sheet(site)
    game_id, token = new_game(site)
    for path in (
        f"/api/sheets/{sheet_id}",
        f"/api/games/{game_id}",
        "/api/sheets/nothing-here-at-all",
    ):
        assert (
            site.client.get(path, headers={"X-Seat-Token": token}).headers["cache-control"]
            == "no-store"
        )
    created = site.client.post("/api/sheets", json={"name": "x", "players": ["A", "B"]})
    assert created.headers["cache-control"] == "no-store"


SECURITY_HEADERS = {
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


def test_every_page_carries_the_security_headers(site: Site) -> None:
    """A crawl from the home page in every language, with a sheet and a game of each kind
    among the pages, follows every link of the site and checks each answer's headers."""
    sheet_id = new_sheet(site)
    start = ["/", f"/en/sheet/{sheet_id}", "/nothing/here", "/api/docs", "/openapi.json"]
    for kind in ("romme", "tiles", "rummoli"):
        game_id, _ = new_game(site, kind)  # the seat's cookie stays in the client
        start.append(f"/en/{kind}/{game_id}")
    start += [f"/{lang}/" for lang in ("fr", "es", "de")]
    seen: set[str] = set()
    queue = list(start)
    while queue:
        path = queue.pop()
        if path in seen or len(seen) > 300:
            continue
        seen.add(path)
        response = site.client.get(path)
        assert response.status_code < 500, path
        policy = response.headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in policy, path
        if path == "/api/docs":  # Swagger UI's inline scripts, each allowed by its hash
            for script in re.findall(r"<script>(.*?)</script>", response.text, flags=re.S):
                digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
                assert f"'sha256-{digest}'" in policy
        else:
            assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy, path
            assert "script-src 'self';" in policy, path
        for name, value in SECURITY_HEADERS.items():
            assert response.headers.get(name) == value, (path, name)
        if path.startswith("/api/"):
            assert response.headers["cache-control"] == "no-store", path
        if response.headers.get("content-type", "").startswith("text/html"):
            for link in re.findall(r'(?:href|src)="(/[^"#]*)', response.text):
                if not link.startswith("//") and "/rummoli/demo?" not in link:
                    queue.append(html.unescape(link))
        if response.is_redirect:
            queue.append(response.headers["location"])
    assert len(seen) > 40  # the crawl reached the whole site


TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "rummykit" / "web" / "templates"


def test_no_template_holds_inline_script_or_style() -> None:
    """What the policy forbids is not in the pages: every script is a file or a JSON data
    block, no event handler attribute, no style attribute or element."""
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag or 'type="application/json"' in tag, (template, tag)
        assert not re.search(r"\son[a-z]+\s*=", text), template
        assert not re.search(r"\sstyle\s*=|<style\b", text), template
        assert "hx-on" not in text and "js:" not in text, template


def test_sockets_are_not_compressed_unless_the_setting_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two zlib streams a socket were half the memory of an idle page.
    from rummykit.web.security import server_options

    monkeypatch.delenv("RUMMYKIT_WS_DEFLATE", raising=False)
    assert server_options()["ws_per_message_deflate"] is False
    monkeypatch.setenv("RUMMYKIT_WS_DEFLATE", "1")
    assert server_options()["ws_per_message_deflate"] is True
