"""What a table's screens show (issue 26, items 5, 6 and 10), in Chromium: an Amnesia phone
shows the card to beat; Amnesia Stories links its join screen from the start; "Skip to
content" shows on keyboard focus only, and a refresh never puts the keyboard on it; the suit
colours stand out of every button colour they are drawn on, in both colour schemes; the "S"
key hint is a small key beside its field's name."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from games.amnesia.rules import GAME as AMNESIA
from games.amnesia_stories.modes import PHONES
from games.models import Table
from games.presenters import card_info
from games.services import new_tables, reading, writing
from tests.browser.helpers import log_in, log_in_as

PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def challenge_opened(owner) -> Table:
    """Ana narrates, Bruno insists, Ana refuses and turns the first card: a card to beat."""
    table = new_tables.create_table(owner, "amnesia", ["Ana", "Bruno", "Caio"], seed=5)
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], None)
    marker = AMNESIA.turn_marker(reading.state_of(table))
    insist = {"by": "Bruno", "do": "insist", "text": "She jumps."}
    writing.play_many(table, [insist], None, expected_turn=marker)
    writing.play_many(table, [{"by": "Ana", "do": "refuse"}], None)
    writing.play_many(table, [{"by": "Ana", "do": "open"}], None)
    return table


def test_an_amnesia_phone_shows_the_card_to_beat(page) -> None:
    owner = get_user_model().objects.create_user(username="gm", password="x-long-passphrase")
    table = challenge_opened(owner)
    reference = card_info(reading.state_of(table)["challenge"]["reference"])
    page.set_viewport_size(PHONE)
    page.goto(f"/seat/{table.seats.get(name='Bruno').token}/amnesia/")
    shown = page.get_by_test_id("card-to-beat")
    expect(shown).to_contain_text("Card to beat")
    expect(shown.get_by_label(reference["label"])).to_be_visible()


def test_amnesia_stories_links_its_join_screen_from_the_start(page, django_user_model) -> None:
    gm = log_in(page, django_user_model)
    for extra in ({}, {"answer_mode": PHONES}):
        table = new_tables.create_table(
            gm, "amnesia_stories", ["Ana", "Bruno", "Caio"], extra=extra
        )
        assert reading.state_of(table)["phase"] in ("tell", "deal")  # before any story
        page.goto(table.get_absolute_url())
        join = page.get_by_test_id("join-screen")
        expect(join).to_be_visible()
        join.click()
        expect(page.locator("body")).to_contain_text("Ana")
        assert page.url.endswith(f"/tables/{table.pk}/join/")
    # Printed, the sheet is the title, the words and the codes: the screen's links and its
    # Print button are left off, and so is the dot between them.
    page.emulate_media(media="print")
    expect(page.locator(".join-head")).not_to_contain_text("·", use_inner_text=True)
    expect(page.locator(".join-head")).to_contain_text("Ana")


SKIP_ON_SCREEN = (
    "() => { const r = document.querySelector('.skip-link').getBoundingClientRect();"
    " return r.bottom > 0; }"
)


def test_skip_to_content_shows_on_keyboard_focus_only(browser, transactional_db, live_server):
    owner = get_user_model().objects.create_user(username="gm", password="x-long-passphrase")
    table = new_tables.create_table(owner, "amnesia", ["Ana", "Bruno"], seed=3)
    context = browser.new_context(
        base_url=live_server.url, viewport=PHONE, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    phone = context.new_page()
    try:
        phone.goto(f"/seat/{table.seats.get(name='Ana').token}/amnesia/")
        # A tap plays a move; a script then puts the focus on the link (as a refresh once
        # did): it stays out of sight.
        phone.get_by_role("button", name="Continue the story (pay 1 to the bank)").tap()
        expect(phone.get_by_label("Narration of this scene")).to_be_visible()
        phone.evaluate("() => document.querySelector('.skip-link').focus()")
        assert phone.evaluate("() => document.activeElement.className") == "skip-link"
        assert not phone.evaluate(SKIP_ON_SCREEN)
        # The keyboard reaches it: shown.
        phone.reload()  # the keyboard from the top of the page reaches it first
        expect(phone.get_by_label("Narration of this scene")).to_be_visible()
        phone.keyboard.press("Tab")
        expect(phone.locator(".skip-link")).to_be_focused()
        assert phone.evaluate(SKIP_ON_SCREEN)

        # A link of the page has the keyboard and the table moves: the refresh gives it back
        # to that link, not to the first link of the page (the skip link).
        rules = phone.get_by_role("link", name="Rules of this table")
        rules.focus()
        marker = AMNESIA.turn_marker(reading.state_of(Table.objects.get(pk=table.pk)))
        suggestion = {"by": "Bruno", "do": "suggest", "text": "A knock."}
        writing.play_many(Table.objects.get(pk=table.pk), [suggestion], None, expected_turn=marker)
        expect(phone.locator(".seat-story")).to_contain_text("A knock.")
        expect(rules).to_be_focused()
    finally:
        context.close()


def _linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb: tuple[float, float, float]) -> float:
    r, g, b = (_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# Each suit glyph drawn on a button (or a button that is a card): its colour, the colour of
# the first box behind it that paints a background, its size and weight.
SUITS_ON_BUTTONS = """() => {
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  function behind(el) {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.99)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  }
  const out = [];
  const glyph = /[♠♥♦♣]/;
  document.querySelectorAll('button').forEach(b => {
    b.querySelectorAll('span').forEach(s => {
      if (!glyph.test(s.textContent) || s.children.length) return;
      const st = getComputedStyle(s);
      out.push({where: b.className + ' ' + s.className + ' ' + s.textContent.trim(),
                fg: rgb(st.color).slice(0, 3), bg: behind(s),
                px: parseFloat(st.fontSize), bold: Number(st.fontWeight) >= 700});
    });
  });
  return out;
}"""


def large(glyph: dict) -> bool:
    # WCAG's large text: 18 pt (24 px), or 14 pt (18.66 px) bold.
    return glyph["px"] >= 24 or (glyph["bold"] and glyph["px"] >= 18.66)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_suit_colours_stand_out_of_every_button_they_are_drawn_on(
    browser, transactional_db, live_server, scheme
) -> None:
    """WCAG 2 contrast: at least 4.5 for a glyph of normal size, 3 for a large one (most of
    these glyphs are body-sized, so most are held to 4.5)."""
    owner = get_user_model().objects.create_user(username="gm", password="x-long-passphrase")
    script = {
        "game": "contest",
        "players": ["Ana", "Bo"],
        "options": {"hand_size": 4},
        "deck_mode": "physical",
        "moves": [
            {"by": "Ana", "do": "character", "name": "Zed", "brains": 3, "muscle": 3,
             "moves": 3, "coolness": 3},
            {"by": "Bo", "do": "character", "name": "Yum", "brains": 2, "muscle": 4,
             "moves": 3, "coolness": 3},
            {"by": "Ana", "do": "challenge", "target": "Bo", "contest": "chess match",
             "attribute": "brains"},
        ],
    }  # fmt: skip
    contest = new_tables.import_script(script, owner, name="Chess")
    amnesia = challenge_opened(owner)
    context = browser.new_context(base_url=live_server.url, color_scheme=scheme)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        log_in_as(page, "gm", "x-long-passphrase")
        screens = [
            f"/seat/{contest.seats.get(name='Bo').token}/",  # "Accept with" on the phone
            contest.get_absolute_url(),  # ... and on the laptop
            amnesia.get_absolute_url(),  # the virtual deck's higher/lower
        ]
        physical = new_tables.create_table(
            owner, "amnesia", ["Ana", "Bruno"], seed=5, deck_mode="physical"
        )
        writing.play_many(physical, [{"by": "Ana", "do": "continue"}], None)
        marker = AMNESIA.turn_marker(reading.state_of(physical))
        insist = {"by": "Bruno", "do": "insist", "text": "No."}
        writing.play_many(physical, [insist], None, expected_turn=marker)
        writing.play_many(physical, [{"by": "Ana", "do": "refuse"}], None)
        screens.append(physical.get_absolute_url())  # the 52 card buttons
        seen = []
        for url in screens:
            page.goto(url)
            expect(page.locator("button").first).to_be_attached()
            seen += page.evaluate(SUITS_ON_BUTTONS)
        assert any("red" in g["where"] for g in seen)  # the red suits were found
        assert any(g["where"].startswith("primary") for g in seen)  # on orange buttons too
        low = [
            (g["where"], round(contrast(g["fg"], g["bg"]), 2))
            for g in seen
            if contrast(g["fg"], g["bg"]) < (3 if large(g) else 4.5)
        ]
        assert not low, low
    finally:
        context.close()


def test_the_s_key_hint_is_a_small_key_beside_the_suggestion_name(page, django_user_model):
    gm = log_in(page, django_user_model)
    table = new_tables.create_table(gm, "amnesia", ["Ana", "Bruno"], seed=3)
    writing.play_many(table, [{"by": "Ana", "do": "continue"}], None)
    page.goto(table.get_absolute_url())
    key = page.locator("form.suggestion label kbd")
    expect(key).to_have_text("S")
    box = key.bounding_box()
    field = page.locator("#suggestion").bounding_box()
    assert box is not None and field is not None
    assert box["width"] < 40 and box["height"] < 32, box  # a key, not a stretched box
    assert box["y"] + box["height"] <= field["y"] + 1  # above its field, on the label's line
