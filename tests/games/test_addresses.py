"""``games.addresses.address`` is ``reverse``, kept: the same address for the same arguments,
under the prefix and the URLconf in force."""

from __future__ import annotations

from django.test import override_settings
from django.urls import clear_script_prefix, reverse, set_script_prefix

from games.addresses import address


def test_an_address_is_what_reverse_says() -> None:
    for name, args in (
        ("amnesia_stories:area_image", ("A16", "thumb")),
        ("games:reissue_link", (3, 1)),
        ("games:table", (7,)),
    ):
        assert address(name, *args) == reverse(name, args=args)
        assert address(name, *args) == reverse(name, args=args)  # kept, the same


def test_the_prefix_and_the_urlconf_are_part_of_the_key() -> None:
    plain = address("games:table", 7)
    set_script_prefix("/under/")
    try:
        assert address("games:table", 7) == "/under" + plain
    finally:
        clear_script_prefix()
    assert address("games:table", 7) == plain
    with override_settings(ROOT_URLCONF="tests.error_urls"):
        assert address("games:table", 7) == reverse("games:table", args=[7])
