"""Contest events in words: the drinks as this table names them, one translated sentence per
referee event, a contest laid out side by side, and the story so far."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _g
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from amnesia_site.lists import listing
from games.contest.cards import attribute_info, card, card_label
from games.contest.characters import ATTRIBUTE_LABELS
from games.contest.rules.core import card_value
from games.contest.rules.narrative import said_once, teller


# -- words ----------------------------------------------------------------------------------
def drink_words(mode: str) -> dict[str, Any]:
    """How this table names a drink (a sober table counts penalty points)."""
    if mode == "penalty_points":
        return {
            "title": _("Penalty points"),
            "take": _("Penalty point"),
            "two": _("2 penalty points"),
            "one": _("a penalty point"),
            "mode": mode,
        }
    if mode == "sips":
        return {
            "title": _("Sips"),
            "take": _("Sip"),
            "two": _("2 sips"),
            "one": _("a sip"),
            "mode": mode,
        }
    return {
        "title": _("Drinks"),
        "take": _("Drink"),
        "two": _("2 drinks"),
        "one": _("a drink"),
        "mode": "drinks",
    }


def count_drinks(mode: str, n: int) -> str:
    if mode == "penalty_points":
        return ngettext("%(n)s penalty point", "%(n)s penalty points", n) % {"n": n}
    if mode == "sips":
        return ngettext("%(n)s sip", "%(n)s sips", n) % {"n": n}
    return ngettext("%(n)s drink", "%(n)s drinks", n) % {"n": n}


def penalty_label(mix: list[str] | str, words: dict[str, Any]) -> str:
    mix = [mix] if isinstance(mix, str) else list(mix)
    drinks, cards = mix.count("drink"), mix.count("card")
    parts = []
    if drinks:
        # A count as one translated phrase ("2杯", not "2 杯" glued from words in English order).
        parts.append(str(words["one"]) if drinks == 1 else count_drinks(words["mode"], drinks))
    if cards:
        parts.append(_g("a card") if cards == 1 else _g("%(n)s cards") % {"n": cards})
    return " + ".join(parts)


# -- events as sentences ---------------------------------------------------------------------
def describe(ev: dict[str, Any], names: dict[str, str], mode: str) -> str:
    """A translated sentence for one referee event (the referee's own summary is English)."""
    t = ev.get("type")
    w = lambda key: names.get(ev.get(key) or "", ev.get(key) or "")  # noqa: E731
    attr = lambda key: str(ATTRIBUTE_LABELS.get(ev.get(key), ev.get(key) or ""))  # noqa: E731
    if t == "character":
        return _g("%(player)s plays %(character)s.") % {
            "player": ev["player"],
            "character": ev["character"],
        }
    if t == "deal":
        return _g("The cards are dealt.")
    if t == "control":
        how = ev.get("how")
        who = w("controller")
        if how == "start":
            return _g("%(who)s starts the story.") % {"who": who}
        if how == "face_card":
            return _g("%(who)s plays %(card)s and takes control of the story.") % {
                "who": who,
                "card": card_label(ev["card"]) if ev.get("card") else _g("a face card"),
            }
        if how == "drinks":
            return _g("%(who)s takes %(two)s and takes control of the story.") % {
                "who": who,
                "two": drink_words(mode)["two"],
            }
        if how == "plot_card":
            return _g("%(who)s plays the plot card %(card)s and takes control of the story.") % {
                "who": who,
                "card": card_label(ev["card"]) if ev.get("card") else "",
            }
        if how == "out":
            return _g("%(who)s takes over the story: the narrator dropped out.") % {"who": who}
        if how == "vote":
            return _g("%(who)s wins the vote and takes control of the story.") % {"who": who}
        return _g("%(who)s takes control of the story.") % {"who": who}
    if t == "challenge":
        text = _g("%(a)s challenges %(b)s to %(kind)s, with %(attr)s.") % {
            "a": w("challenger"),
            "b": w("defender"),
            "kind": ev.get("kind", ""),
            "attr": attr("attribute"),
        }
        return text + (" " + _g("An extended contest.") if ev.get("extended") else "")
    if t == "unnamed":
        return _g(
            "%(a)s challenged %(b)s without calling the character by name: no contest, and the "
            "narrator owes a penalty."
        ) % {"a": w("challenger"), "b": w("defender")}
    if t == "accept":
        return _g("%(who)s accepts, with %(attr)s.") % {
            "who": w("player"),
            "attr": attr("attribute"),
        }
    if t == "refusal":
        return _g("%(who)s refuses the challenge and pays %(what)s.") % {
            "who": w("player"),
            "what": penalty_label(ev.get("penalties") or [], drink_words(mode)),
        }
    if t == "play":
        text = _g("%(who)s plays %(card)s: total %(total)s.") % {
            "who": w("player"),
            "card": card_label(ev["card"]),
            "total": ev.get("total"),
        }
        if ev.get("draws"):
            text += " " + _g("Drawn: %(cards)s.") % {
                "cards": listing(card_label(c) for c in ev["draws"])
            }
        return text
    if t == "result":
        return _g("%(winner)s wins against %(loser)s %(how)s.") % {
            "winner": w("winner"),
            "loser": w("loser"),
            "how": how_label(ev.get("how")),
        }
    if t == "round":
        outcome = ev.get("outcome")
        if outcome == "tie":
            return _g("A tie: both play another card.")
        if outcome == "jokers":
            return _g("Both played a joker: both play again.")
        return _g("The next round of the extended contest.")
    if t == "no_card":
        return _g("%(who)s has no card left to play.") % {"who": w("player")}
    if t == "penalty":
        if ev.get("penalty") == "drink":
            return _g("%(who)s takes %(what)s.") % {
                "who": w("player"),
                "what": count_drinks(mode, ev.get("count", 1)),
            }
        return _g("%(who)s loses %(card)s.") % {"who": w("player"), "card": card_label(ev["card"])}
    if t == "pretzel":
        return _g("%(who)s throws a pretzel at %(target)s.") % {
            "who": w("player"),
            "target": w("target"),
        }
    if t == "eat":
        n = ev.get("count", 1)
        return ngettext("%(who)s eats %(n)s pretzel.", "%(who)s eats %(n)s pretzels.", n) % {
            "who": w("player"),
            "n": n,
        }
    if t == "out":
        return _g("%(who)s is out: %(why)s.") % {
            "who": w("player"),
            "why": out_label(ev.get("reason")),
        }
    if t == "end":
        return _g("%(who)s is the last one standing and wins; the character earns a point.") % {
            "who": w("winner")
        }
    if t == "void":
        return _g("The challenger dropped out: the challenge is void.")
    if t == "reshuffle":
        return _g("The deck ran out: the discard pile is shuffled into a new deck.")
    if t == "heal":
        if ev.get("choice") == "pretzel":
            return _g("%(who)s heals: one pretzel removed.") % {"who": w("player")}
        return _g("%(who)s heals: a lost card comes back.") % {"who": w("player")}
    if t == "swap":
        return _g("%(who)s gives up %(card)s and takes the joker.") % {
            "who": w("player"),
            "card": card_label(ev["card"]),
        }
    if t == "give_up":
        return _g("%(who)s gives up.") % {"who": w("player")}
    if t == "vote":
        return _g("%(caller)s calls a vote on %(target)s: %(up)s up, %(down)s down.") % {
            "caller": w("caller"),
            "target": w("target"),
            "up": len(ev.get("up") or []),
            "down": len(ev.get("down") or []),
        }
    if t == "vote_tie":
        return _g("The vote is tied: nothing happens.")
    if t == "stay":
        return _g("%(who)s pays three penalties to stay.") % {"who": w("player")}
    if t == "extra_point":
        return _g("%(who)s earns an extra point.") % {"who": w("player")}
    if t == "extra_point_denied":
        return _g("No extra point this time.")
    return ev.get("summary", "")


def how_label(how: str | None) -> str:
    return str(
        {
            "play": _("with the higher total"),
            "joker": _("with a joker"),
            "tie": _("on the tie rule"),
            "no_card": _("as the other has no card left"),
            "forfeit": _("as the other chose to lose"),
            "give_up": _("as the other gave up"),
        }.get(how or "", "")
    )


def out_label(reason: str | None) -> str:
    return str(
        {
            "cards": _("every card lost"),
            "pretzels": _("buried under pretzels"),
            "vote": _("voted off"),
        }.get(reason or "", _("dropped out"))
    )


def describe_events(events: list[dict[str, Any]], names: dict[str, str], mode: str) -> list[str]:
    """What one move did, a sentence an event, each thing said once (``said_once``)."""
    return [describe(ev, names, mode) for ev in said_once(events)]


# -- a contest, on the board or in the story -------------------------------------------------
def contest_sides(
    record: dict[str, Any], players: dict[str, Any], names: dict[str, str], mode: str
) -> dict[str, Any]:
    """Each side's attribute, cards (played, then drawn), total, and the rounds before."""

    def cards_of(codes: list[str]) -> list[dict[str, Any]]:
        out = []
        for i, code in enumerate(codes):
            out.append(dict(card(code), drawn=i > 0))
        return out

    sides = []
    for name in (record["challenger"], record["defender"]):
        attr = (record.get("attributes") or {}).get(name)
        attrs = (players.get(name) or {}).get("attributes") or {}
        penalties = (record.get("penalties") or {}).get(name, [])
        codes = (record.get("cards") or {}).get(name, [])
        total = (record.get("totals") or {}).get(name)
        parts = []
        if total is not None and attr and attrs.get(attr) is not None:
            parts = [attrs[attr]] + [card_value(c) for c in codes]
            if total - sum(parts):
                parts.append(total - sum(parts))  # the word bonus
        sides.append(
            {
                "name": name,
                "who": names.get(name, name),
                "role": _("challenger") if name == record["challenger"] else _("defender"),
                "attribute": attribute_info(attr, attrs.get(attr) if attr else None),
                "cards": cards_of((record.get("cards") or {}).get(name, [])),
                "total": total,
                "sum": " + ".join(str(v) for v in parts) if len(parts) > 1 else "",
                "played": name in (record.get("played") or record.get("cards") or {}),
                "team": [names.get(m, m) for m in (record.get("teams") or {}).get(name, [])],
                "winner": record.get("winner") == name,
                "loser": record.get("loser") == name,
                "set_aside": [card(c) for c in (record.get("extended_lost") or {}).get(name, [])],
                "penalties": [
                    count_drinks(mode, 1)
                    if p == "drink"
                    else _g("lost %(card)s") % {"card": card_label(p)}
                    for p in penalties
                ],
            }
        )
    rounds = []
    for r in record.get("rounds") or []:
        rounds.append(
            {
                "number": r.get("round"),
                "outcome": r.get("outcome"),
                "sides": [
                    {
                        "who": names.get(n, n),
                        "cards": cards_of((r.get("cards") or {}).get(n, [])),
                        "total": (r.get("totals") or {}).get(n),
                    }
                    for n in (record["challenger"], record["defender"])
                ],
            }
        )
    return {
        "kind": record.get("kind", ""),
        "extended": record.get("extended", False),
        "sides": sides,
        "rounds": rounds,
        "winner": names.get(record.get("winner") or "", record.get("winner")),
        "loser": names.get(record.get("loser") or "", record.get("loser")),
        "how": how_label(record.get("how")) if record.get("winner") else "",
        "joker_swap": record.get("joker_swap"),
    }


# Events the contest record already holds: the story shows the record instead.
INSIDE_CONTEST = {"accept", "play", "result", "round", "no_card", "penalty", "swap_offer", "swap"}


def story_blocks(
    entries: list[dict[str, Any]], players: dict[str, Any], names: dict[str, str], mode: str
) -> list[dict[str, Any]]:
    """The story so far: narration, changes of control, whole contests, and the rest as lines."""
    blocks: list[dict[str, Any]] = []
    in_contest = False
    for entry in said_once(entries):
        kind = entry.get("type")
        if kind == "error":
            continue
        if kind == "move":
            if entry.get("text"):
                by = teller(entry)
                blocks.append({"kind": "narration", "text": entry["text"], "by": names.get(by, by)})
            continue
        if kind == "control":
            blocks.append({"kind": "control", "text": describe(entry, names, mode)})
        elif kind == "contest" and entry.get("contest"):
            in_contest = False
            blocks.append(
                {
                    "kind": "contest",
                    "contest": contest_sides(entry["contest"], players, names, mode),
                }
            )
        elif kind in ("challenge",):
            in_contest = True
            blocks.append({"kind": "challenge", "text": describe(entry, names, mode)})
        elif kind in ("refusal", "void", "end"):
            in_contest = False
            blocks.append({"kind": kind, "text": describe(entry, names, mode)})
        elif in_contest and kind in INSIDE_CONTEST:
            continue
        elif kind in ("character", "deal"):
            continue
        else:
            blocks.append({"kind": "line", "type": kind, "text": describe(entry, names, mode)})
    return blocks
