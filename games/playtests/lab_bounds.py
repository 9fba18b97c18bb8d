"""What a lab run may ask, and who sees it: the lab's bounds, its checks of a run's options, bots
and parameters, and the runs a person may see (``games.playtests.lab_start`` starts a run within
them).

Bounds: a run holds at most LAB_MAX_RUN_GAMES games (a sweep's values together), a person has
at most LAB_MAX_QUEUED_GAMES simulated games queued or running, and one run at a time.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Q
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games import registry
from games.messages import referee_message
from games.models import Ruleset
from games.playtests import figures as N
from games.playtests import lab_words as words
from games.playtests.models import SimulationRun
from games.rules.errors import BadScript
from games.rules.script import parse_setup
from games.simulate.bots import BadParam, check_params
from games.simulate.engine import seat_names

Status = SimulationRun.Status
ACTIVE = (Status.QUEUED, Status.RUNNING)
MAX_GAMES = 20_000  # of one value of a run; LAB_MAX_RUN_GAMES bounds a run's values together
MAX_SWEEP_VALUES = 9


class LabError(ValueError):
    """Bad input for a run, in a sentence for the designer."""


def setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def default_budget() -> int:
    return int(setting("LAB_BUDGET_SECONDS", 600))


def chunk_games() -> int:
    return int(setting("LAB_CHUNK_GAMES", 50))


def grouped(n: int) -> str:
    """A count with the reader's thousands separator (20,000; 20.000)."""
    return number_format(n, force_grouping=True)


def max_run_games() -> int:
    """The most games one run may hold, a sweep's values together (0: no bound but
    MAX_GAMES a value)."""
    return int(setting("LAB_MAX_RUN_GAMES", 20_000))


def max_queued_games() -> int:
    """The most simulated games one person may have queued or running (0: no bound)."""
    return int(setting("LAB_MAX_QUEUED_GAMES", 20_000))


def games_queued(user) -> int:
    """The simulated games the person's runs still have to play (queued or running)."""
    left = 0
    runs = SimulationRun.objects.filter(owner=user, status__in=ACTIVE).exclude(
        sweep__has_key="kind"
    )
    for asked, done in runs.values_list("games_asked", "games_done"):
        left += max(0, asked - done)
    return left


def simulable_games() -> list[str]:
    return [k.slug for k in registry.kits() if k.bots and k.bot_figures is not None]


# -- who sees what ----------------------------------------------------------------------------
def visible_runs(user):
    """The runs a user may see: their own and those shared with them (top-level ones)."""

    if not user.is_authenticated:
        return SimulationRun.objects.none()
    return SimulationRun.objects.filter(
        Q(owner=user) | Q(shared_with=user), parent__isnull=True
    ).distinct()


def running_run(user) -> SimulationRun | None:
    """The designer's run still queued or running (one at a time per designer)."""
    return (
        SimulationRun.objects.filter(owner=user, parent__isnull=True, status__in=ACTIVE)
        .order_by("pk")
        .first()
    )


# -- a run's settings --------------------------------------------------------------------------
def options_for(game: str, ruleset: Ruleset | None, changed: dict, players: int) -> dict:
    options = dict(ruleset.options) if ruleset else {}
    options.update(changed)
    try:
        setup = parse_setup({"game": game, "players": seat_names(players), "options": options})
    except BadScript as exc:
        raise LabError(referee_message(exc)) from None  # in the designer's language
    return setup.options


def check_bots_and_params(game: str, bots: list[str], params: dict) -> dict:
    kit = registry.kit(game)
    if not bots:
        raise LabError(_("Choose at least one bot."))
    for name in bots:
        if name not in kit.bots:
            raise LabError(_("Unknown bot: %(name)s.") % {"name": name})
    classes = [kit.bots[n] for n in dict.fromkeys(bots)]
    known: dict = {}
    for cls in classes:
        known.update(cls.params)
    for name, value in params.items():
        # Said in the designer's language, by the parameter's label (BadParam is English).
        if name not in known:
            raise LabError(words.unknown_setting(game, name, "param"))
        spec = known[name]
        number_ = isinstance(value, int | float) and not isinstance(value, bool)
        if not number_ or not spec.min <= value <= spec.max:
            raise LabError(
                _("%(what)s goes from %(low)s to %(high)s: %(value)s is not one of its values.")
                % {
                    "what": words.param_label(game, name),
                    "low": N.number(spec.min, None),
                    "high": N.number(spec.max, None),
                    "value": words.value_words(game, "param", name, value),
                }
            )
    try:
        return check_params(classes, params)
    except BadParam as exc:
        raise LabError(str(exc)) from None
