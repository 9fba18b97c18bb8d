"""The design questions a designer asks of any game, answered from a run's figures.

Every figure is computed by the game's ``bot_figures`` from a game's log (its setup and
moves, replayed by the referee), so the same questions can be asked of simulated games and,
where the figures exist, of real ones. The generic questions ask only what the figures hold:
who wins (each seat's share and the first player's advantage) where a game has winners,
draws and the winning margin where it has scores, how the lead changes where it has a
running score, and the length in moves and in minutes. Minutes come from the pace of the
designer's real tables of the game (minutes per move, each finished table one value, with
its interval); without real tables the answer says the minutes are unknown.

A game whose questions are its own (Amnesia is cooperative: nobody wins; the contest ends by
elimination) declares them in its kit (``PlaytestParts.questions``: (figures, players) ->
[question]), built with :func:`ask` and the formatting helpers here: generic code never
names a game.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from amnesia_site import lists
from games import registry
from games.playtests import figures as P
from games.simulate import figures as F

Question = dict[str, Any]


def ask(key: str, question: str, answer: str, figures: list[str] | None = None) -> Question:
    """One question and its answer in sentences; ``figures`` names the figures it reads."""
    return {"key": key, "question": question, "answer": answer, "figures": figures or []}


def known(fig: dict[str, Any] | None) -> bool:
    return bool(fig) and fig.get("value") is not None  # type: ignore[union-attr]


def pct(x: float) -> str:
    """A share as a percentage in the reader's form ("42%")."""
    return _("%(n)s%%") % {"n": P.number(x * 100, 0)}


def share_text(fig: dict[str, Any]) -> str:
    """'42% (31%–55%)', or '42%' without an interval or where its ends print alike ('100%',
    not '100% (100%–100%)', as ``figures.show_figure`` leaves it out)."""
    if "low" not in fig or pct(fig["low"]) == pct(fig["high"]):
        return pct(fig["value"])
    return pct(fig["value"]) + lists.bracketed(lists.span(pct(fig["low"]), pct(fig["high"])))


def mean_text(fig: dict[str, Any]) -> str:
    """'12.3 (11.9–12.8)', or '12.3' without an interval or where its ends print alike."""
    if "low" not in fig or P.number(fig["low"]) == P.number(fig["high"]):
        return P.number(fig["value"])
    ends = lists.span(P.number(fig["low"]), P.number(fig["high"]))
    return P.number(fig["value"]) + lists.bracketed(ends)


def _count(text: str) -> int:
    """The count a figure's text is said with: one where it reads just "1" ("1 minute"),
    more otherwise ("1.5 minutes", "1 (0.8–1.2) minutes")."""
    return 1 if text == P.number(1) else 2


def minutes_words(fig: dict[str, Any]) -> str:
    """A measured length in minutes with its interval: '41 (35–48) minutes', '1 minute'."""
    text = mean_text(fig)
    return ngettext("%(minutes)s minute", "%(minutes)s minutes", _count(text)) % {"minutes": text}


def pace_words(fig: dict[str, Any]) -> str:
    """The real tables' pace with its interval: '1.2 (0.9–1.5) minutes a move', '1 minute a
    move'."""
    text = mean_text(fig)
    return ngettext("%(pace)s minute a move", "%(pace)s minutes a move", _count(text)) % {
        "pace": text
    }


def proportion(k: int, n: int, plays: int, places: int = 2) -> dict[str, Any]:
    """A measured chance with its n (the real plays) and its exact 95% interval over the
    ``n`` times it could happen (SciPy's ``binomtest``), rounded to ``places``."""
    from scipy.stats import binomtest  # SciPy: only when real plays measure a parameter

    ci = binomtest(k, n).proportion_ci(0.95)
    return {
        "value": round(k / n, places),
        "n": plays,
        "low": round(float(ci.low), places),
        "high": round(float(ci.high), places),
    }


def on_scale(
    measured: dict[str, Any], to_scale, note: str = "", places: int = 2, exact: float | None = None
) -> dict[str, Any]:
    """A measured share (``proportion``) put on a bot parameter's scale by ``to_scale``, a
    function that never decreases, so the interval's ends map to the interval's ends; the
    share as measured kept beside (``share``) and said in ``note``. ``exact``: the share
    before rounding, to put on the scale (else the measured value)."""
    out = {
        "value": round(to_scale(measured["value"] if exact is None else exact), places),
        "n": measured["n"],
        "share": measured["value"],
        "note": note,
    }
    if "low" in measured:
        out.update(
            low=round(to_scale(measured["low"]), places),
            high=round(to_scale(measured["high"]), places),
        )
    return out


# -- the pace of real tables --------------------------------------------------------------------
def pace(entries: list[dict[str, Any]], seed: int = 0) -> dict[str, Any] | None:
    """Minutes per move at the designer's real tables of a game: each finished table with
    moves and a duration gives one value; their mean with its n and 95% interval (none for
    fewer than a handful). None without such a table."""
    values = [
        e["duration_seconds"] / 60 / e["moves"]
        for e in entries
        if e.get("kind") == "table"
        and e.get("finished")
        and e.get("moves")
        and e.get("duration_seconds")
    ]
    if not values:
        return None
    return F.interval_of(values, seed)


def minutes(moves: dict[str, Any] | None, speed: dict[str, Any] | None) -> dict[str, Any] | None:
    """A game's length in minutes: its moves at the real tables' pace. The interval joins the
    two intervals' ends (low moves at the low pace, high at high): wider than either, never
    narrower than what is known."""
    if not known(moves) or not known(speed):
        return None
    assert moves is not None and speed is not None
    out = {"n": moves["n"], "kind": "mean", "value": moves["value"] * speed["value"]}
    if "low" in moves and "low" in speed:
        out.update(low=moves["low"] * speed["low"], high=moves["high"] * speed["high"])
    return out


# -- the generic questions ----------------------------------------------------------------------
def _wins(figures: dict[str, Any], players: int) -> list[Question]:
    seats = [figures.get(f"seat{i}.wins") for i in range(1, players + 1)]
    if not all(known(s) for s in seats):
        return []
    fair = 1 / players
    first = seats[0]
    assert first is not None
    by_seat = lists.separator().join(
        _("seat %(k)s %(share)s") % {"k": k, "share": share_text(s)}  # type: ignore[arg-type]
        for k, s in enumerate(seats, 1)
    )
    words = {"by_seat": by_seat, "fair": pct(fair), "edge": pct(first["value"] - fair)}
    if "low" not in first:
        verdict = _("Too few games to say whether the first player has an advantage.")
    elif first["low"] > fair:
        verdict = _("The first player has an advantage (%(edge)s above a fair share).") % words
    elif first["high"] < fair:
        verdict = _("The first player is at a disadvantage (%(edge)s from a fair share).") % words
    else:
        verdict = _("The first player has no measurable advantage.")
    answer = lists.sentences(
        _("Wins by seat: %(by_seat)s; a fair share is %(fair)s.") % words, verdict
    )
    names = [f"seat{i}.wins" for i in range(1, players + 1)]
    return [ask("wins", _("Who wins, and does the first player have an advantage?"), answer, names)]


def _draws_and_margin(figures: dict[str, Any]) -> list[Question]:
    out = []
    draw = figures.get("draw")
    if known(draw):
        assert draw is not None
        answer = (
            _("%(share)s of games end in a draw.") % {"share": share_text(draw)}
            if draw["value"] > 0
            else _("No game ends in a draw.")
        )
        out.append(ask("draws", _("How often is it a draw?"), answer, ["draw"]))
    margin = figures.get("margin")
    if known(margin):
        assert margin is not None
        answer = _("The winner leads the runner-up by %(margin)s points on average.") % {
            "margin": mean_text(margin)
        }
        out.append(ask("margin", _("By how much does the winner win?"), answer, ["margin"]))
    return out


def _lead(figures: dict[str, Any]) -> list[Question]:
    changes, behind = figures.get("lead_changes"), figures.get("behind_at_half_wins")
    if not known(changes):
        return []
    assert changes is not None
    answer = _("The lead changes hands %(changes)s times a game.") % {"changes": mean_text(changes)}
    if known(behind):
        assert behind is not None
        answer = lists.sentences(
            answer,
            _("A player behind at half-time wins %(share)s of games.")
            % {"share": share_text(behind)},
        )
    return [
        ask(
            "lead",
            _("Does the lead change, and can a player behind at half-time win?"),
            answer,
            ["lead_changes", "behind_at_half_wins"],
        )
    ]


def _length(figures: dict[str, Any], speed: dict[str, Any] | None) -> list[Question]:
    moves = figures.get("moves")
    if not known(moves):
        return []
    assert moves is not None
    answer = _("A game lasts %(moves)s moves.") % {"moves": mean_text(moves)}
    length = minutes(moves, speed)
    if length is None:
        answer = lists.sentences(
            answer,
            _(
                "How many minutes that is is unknown: no real table of this game has been "
                "played to the end with its duration."
            ),
        )
    else:
        assert speed is not None
        answer = lists.sentences(
            answer,
            _("At the pace of the real tables (%(pace)s, %(tables)s) that is %(minutes)s.")
            % {
                "pace": pace_words(speed),
                "tables": ngettext("%(n)s table", "%(n)s tables", speed["n"]) % {"n": speed["n"]},
                "minutes": minutes_words(length),
            },
        )
    return [ask("length", _("How long is a game?"), answer, ["moves"])]


def answers(
    game: str,
    figures: dict[str, Any],
    players: int,
    real_entries: list[dict[str, Any]] | None = None,
) -> list[Question]:
    """The design questions of a run (or any set of figures) and their answers, the generic
    ones the figures allow, then the game's own."""
    if not figures:
        return []
    speed = pace([e for e in real_entries or [] if e.get("game", game) == game])
    out = _wins(figures, players) + _draws_and_margin(figures) + _lead(figures)
    out += _length(figures, speed)
    own = registry.kit(game).playtest.questions
    if own is not None:
        out += own(figures, players)
    return out
