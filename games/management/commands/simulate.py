"""``simulate GAME``: bots play a game by its real rules many times; the figures, each with its
95% interval and n, and the rule holes found (``games.simulate``).

    python manage.py simulate amnesia_stories --players 4 --games 1000 --bots sensible,random
        [--ruleset NAME[@VERSION]] [--set OPTION=VALUE ...] [--param NAME=VALUE ...]
        [--seed S] [--processes N] [--json OUT] [--budget SECONDS]
        [--compare NAME[@VERSION]] [--probe OPTION|all] [--margin 0.05] [--move-cap N]

Reads only the rulesets from the database. Bad input gets one sentence and exit 2. Output
is for designers at a terminal, in English like the project's other commands.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from games import registry
from games.management.typed import manage_py
from games.models import Ruleset
from games.playtests.models import PlaytestReport
from games.rules.errors import BadScript
from games.rules.script import parse_setup
from games.rulesets import match_ruleset
from games.simulate import figures as F
from games.simulate import holes
from games.simulate.bots import BadParam, check_params, resolve
from games.simulate.engine import DEFAULT_MOVE_CAP, MAX_GAMES, Result, Spec, run, seat_names

DEFAULT_BUDGET = 600.0
MAX_PROCESSES = 16
KEEP_SCRIPTS = 20


def app_version() -> str:
    try:
        data = tomllib.loads((Path(settings.BASE_DIR) / "pyproject.toml").read_text("utf-8"))
        return data["project"]["version"]
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def bad(message: str) -> CommandError:
    return CommandError(message, returncode=2)


def parse_pairs(pairs: list[str], what: str) -> dict[str, Any]:
    out = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise bad(f"{what} must be NAME=VALUE, not {pair!r}.")
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        out[name.strip()] = value
    return out


def seconds_per_move(game: str) -> dict[str, Any] | None:
    """How long a move takes at real tables of the game: the finished tables' playing time
    over their moves (their playtest reports), pooled; None without any."""
    seconds = moves = tables = 0
    for figures in PlaytestReport.objects.filter(table__game=game).values_list(
        "figures", flat=True
    ):
        if figures.get("finished") and figures.get("duration_seconds") and figures.get("moves"):
            seconds += figures["duration_seconds"]
            moves += figures["moves"]
            tables += 1
    return {"seconds_per_move": seconds / moves, "tables": tables} if moves else None


def add_minutes(records: list[dict[str, Any]], pace: dict[str, Any] | None) -> None:
    """Each simulated game's length in minutes at the pace of the real tables (a bot's moves
    are a person's moves: the free ones, a suggestion or a pretzel, included)."""
    if pace is None:
        return
    for record in records:
        record["figures"]["minutes"] = record["moves"] * pace["seconds_per_move"] / 60


def find_ruleset(game: str, ref: str) -> Ruleset:
    name, _, version = ref.partition("@")
    found = Ruleset.objects.filter(game=game, name=name)
    if not found.exists():
        raise bad(f"No ruleset called {name!r} for {game}.")
    if version:
        if not version.isdigit():
            raise bad(f"The version in {ref!r} must be a whole number.")
        try:
            return found.get(version=int(version))
        except Ruleset.DoesNotExist:
            raise bad(f"Ruleset {name!r} has no version {version}.") from None
    return found.order_by("-version").first()


class Command(BaseCommand):
    help = "Bots play a game by its rules many times; prints the figures with their intervals."
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("game")
        parser.add_argument("--ruleset", help="NAME or NAME@VERSION (default: the game's defaults)")
        parser.add_argument("--players", type=int, default=4)
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--bots", default="sensible", help="bot names, one per seat in turn")
        parser.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE")
        parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--processes", type=int, default=1)
        parser.add_argument("--json", dest="json_out", metavar="OUT")
        parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS")
        parser.add_argument("--compare", metavar="NAME[@VERSION]")
        parser.add_argument("--probe", action="append", default=[], metavar="OPTION|all")
        parser.add_argument("--margin", type=float, default=0.05)
        parser.add_argument("--move-cap", type=int, default=DEFAULT_MOVE_CAP)

    def handle(self, *args, **opts):
        try:
            plan = self.plan(opts)
        except DatabaseError as exc:
            # The rulesets and the real tables' pace are read here: a database never migrated
            # (a fresh checkout) gets a sentence, not a traceback.
            said = str(exc).strip()
            reason = said.splitlines()[0] if said else type(exc).__name__
            raise CommandError(
                f"The database could not be read ({reason}): set it up with "
                f"`{manage_py('migrate')}` first, or check DATABASE_URL."
            ) from exc
        result = run(plan["spec"], plan["processes"], plan["budget"])
        add_minutes(result.records, plan["pace"])
        report = self.report(plan, result)
        if plan["compare"] is not None:
            other_spec = plan["compare"]["spec"]
            other_spec.games = len(result.records) or 1
            other = run(other_spec, plan["processes"], plan["budget"])
            add_minutes(other.records, plan["pace"])
            report["compare"] = self.compare_part(plan, result, other)
        if plan["probe"]:
            report["probes"] = self.probes(plan, result)
        self.show(report)
        if opts["json_out"]:
            Path(opts["json_out"]).write_text(json.dumps(report, indent=1, default=str), "utf-8")

    # -- reading the arguments ------------------------------------------------------------
    def plan(self, opts) -> dict[str, Any]:
        slug = opts["game"]
        if not registry.is_game(slug):
            names = ", ".join(k.slug for k in registry.kits())
            raise bad(f"Unknown game {slug!r}; the games are: {names}.")
        kit = registry.kit(slug)
        if not kit.bots or kit.bot_figures is None:
            raise bad(f"{slug} has no bots, so it cannot be simulated.")
        games = opts["games"]
        if not 1 <= games <= MAX_GAMES:
            raise bad(f"--games must be between 1 and {MAX_GAMES:,}, not {games}.")
        if not 1 <= opts["processes"] <= MAX_PROCESSES:
            raise bad(f"--processes must be between 1 and {MAX_PROCESSES}.")
        if opts["budget"] <= 0:
            raise bad("--budget must be a positive number of seconds.")
        if not 10 <= opts["move_cap"] <= 1_000_000:
            raise bad("--move-cap must be between 10 and 1,000,000.")
        if not 0 < opts["margin"] < 1:
            raise bad("--margin must be between 0 and 1 (a share of each figure's mean).")
        referee = kit.referee
        players = opts["players"]
        if not referee.min_players <= players <= referee.max_players:
            raise bad(
                f"{slug} is played by {referee.min_players} to {referee.max_players} players, "
                f"not {players}."
            )
        names = [b.strip() for b in opts["bots"].split(",") if b.strip()]
        for name in names:
            if name not in kit.bots:
                raise bad(f"Unknown bot {name!r}; {slug} has: {', '.join(kit.bots)}.")
        if not names:
            raise bad("--bots must name at least one bot.")
        classes = [kit.bots[n] for n in dict.fromkeys(names)]
        try:
            params = check_params(classes, parse_pairs(opts["param"], "--param"))
        except BadParam as exc:
            raise bad(str(exc)) from None
        overrides = parse_pairs(opts["set"], "--set")
        main = self.ruleset_part(slug, opts["ruleset"], overrides, players)
        spec = Spec(
            referee=referee,
            classes=dict(kit.bots),
            figures=kit.bot_figures,
            trace=kit.bot_trace,
            value=kit.bot_value,
            options=main["options"],
            players=players,
            bots=names,
            params=params,
            seed=opts["seed"],
            games=games,
            move_cap=opts["move_cap"],
            keep_scripts=KEEP_SCRIPTS,
        )
        compare = None
        if opts["compare"]:
            other = self.ruleset_part(slug, opts["compare"], overrides, players)
            compare = {**other, "spec": Spec(**{**spec.__dict__, "options": other["options"]})}
        probe = list(dict.fromkeys(opts["probe"]))
        if "all" in probe:
            probe = list(referee.options)
        for option in probe:
            if option not in referee.options:
                raise bad(f"Unknown option {option!r} for {slug}.")
        return {
            "kit": kit,
            "spec": spec,
            "ruleset": main,
            "compare": compare,
            "probe": probe,
            "margin": opts["margin"],
            "processes": opts["processes"],
            "budget": opts["budget"],
            "bots": {n: resolve(kit.bots[n].params, params, strict=False) for n in names},
            "pace": seconds_per_move(slug),
        }

    def ruleset_part(self, slug, ref, overrides, players) -> dict[str, Any]:
        options: dict[str, Any] = {}
        label = None
        if ref:
            ruleset = find_ruleset(slug, ref)
            options.update(ruleset.options)
            label = f"{ruleset.name}@{ruleset.version}"
        options.update(overrides)
        try:
            setup = parse_setup({"game": slug, "players": seat_names(players), "options": options})
        except BadScript as exc:
            raise bad(exc.message) from None
        if label is None:
            found = match_ruleset(slug, setup.options)
            if found is not None:
                label = f"{found.name}@{found.version}"
            else:
                referee = registry.kit(slug).referee
                changed = [
                    f"{k}={v}" for k, v in setup.options.items() if v != referee.options[k].default
                ]
                label = "no saved ruleset: " + (", ".join(changed) or "the defaults")
        elif overrides:
            label += " with " + ", ".join(f"{k}={v}" for k, v in overrides.items())
        return {"label": label, "options": setup.options}

    # -- the report -----------------------------------------------------------------------
    def report(self, plan, result: Result) -> dict[str, Any]:
        spec = plan["spec"]
        label = plan["ruleset"]["label"]
        return {
            "game": spec.referee.name,
            "ruleset": label,
            "options": spec.options,
            "players": spec.players,
            "games_asked": spec.games,
            "games": len(result.records),
            "partial": result.partial,
            "seed": spec.seed,
            "bots": spec.bots,
            "params": plan["bots"],
            "move_cap": spec.move_cap,
            "app_version": app_version(),
            "real_plays": plan["pace"],
            "figures": F.summarize(result.records, spec.seed),
            "findings": holes.stalls(result.records, label)
            + holes.dominance(result.records, label),
            "timings": {
                "seconds": round(result.seconds, 3),
                "processes": result.processes,
                "games_per_second": round(len(result.records) / result.seconds, 2)
                if result.seconds
                else None,
            },
        }

    def compare_part(self, plan, a: Result, b: Result) -> dict[str, Any]:
        diffs = holes.differences(a.records, b.records)
        names = list(diffs)
        pvalues = [_pvalue(diffs[n]["diffs"]) for n in names]
        qs = holes.adjusted(pvalues)
        figures = F.compare(a.records, b.records, plan["spec"].seed)
        for name, q in zip(names, qs, strict=True):
            if name in figures:
                figures[name]["p_adjusted"] = q
                figures[name]["differs"] = q < holes.ALPHA
        return {
            "ruleset": plan["compare"]["label"],
            "options": plan["compare"]["options"],
            "games": len(b.records),
            "partial": b.partial,
            "figures": figures,
            "findings": holes.stalls(b.records, plan["compare"]["label"]),
            "timings": {"seconds": round(b.seconds, 3)},
        }

    def probes(self, plan, base: Result) -> list[dict[str, Any]]:
        spec = plan["spec"]
        referee = spec.referee
        found = []
        for option in plan["probe"]:
            declared = referee.options[option]
            for value in _values(declared):
                if value == spec.options[option]:
                    continue
                options = {**spec.options, option: value}
                try:
                    parse_setup(
                        {
                            "game": referee.name,
                            "players": seat_names(spec.players),
                            "options": options,
                        }
                    )
                except BadScript:
                    continue
                other = run(
                    Spec(**{**spec.__dict__, "options": options, "games": len(base.records)}),
                    plan["processes"],
                    plan["budget"],
                )
                found.append(
                    holes.inert(
                        option,
                        value,
                        spec.options[option],
                        base.records,
                        other.records,
                        plan["ruleset"]["label"],
                        plan["margin"],
                    )
                )
        return found

    def show(self, report: dict[str, Any]) -> None:
        w = self.stdout.write
        partial = " (PARTIAL: the time budget ran out)" if report["partial"] else ""
        w(
            f"{report['game']}, {report['ruleset']}: {report['games']} games at "
            f"{report['players']} players, bots {', '.join(report['bots'])}, seed "
            f"{report['seed']}{partial}"
        )
        for name, figure in report["figures"].items():
            w(f"  {name:<32} {F.fmt(figure)}")
        for finding in report["findings"]:
            w(self.describe(finding))
        if "compare" in report:
            c = report["compare"]
            w(f"compared with {c['ruleset']} (difference: it minus the first, same seeds):")
            for name, figure in c["figures"].items():
                mark = "  *" if figure.get("differs") else ""
                w(f"  {name:<32} {F.fmt(figure)}{mark}")
            w("  * differs after the false discovery rate correction (5%)")
            for finding in c["findings"]:
                w(self.describe(finding))
        for probe in report.get("probes", []):
            if probe["inert"]:
                w(
                    f"INERT OPTION: {probe['option']}={probe['value']} (default "
                    f"{probe['default']}) changes none of {probe['figures']} figures beyond "
                    f"{probe['margin']} ({probe['ruleset']})"
                )
            else:
                w(
                    f"option {probe['option']}={probe['value']} is not shown equivalent on: "
                    f"{', '.join(probe['not_equivalent'][:8])}"
                )
        t = report["timings"]
        w(f"{t['seconds']} s on {t['processes']} process(es), {t['games_per_second']} games/s")

    @staticmethod
    def describe(finding: dict[str, Any]) -> str:
        kind = finding["kind"]
        if kind == "dominant":
            return (
                f"DOMINANT BOT: {finding['bot']} won {finding['wins']} of {finding['games']} "
                f"games for a fair share of {finding['fair_share']:.0%} "
                f"(adjusted p={finding['p_adjusted']:.2g}; {finding['ruleset']})"
            )
        what = {
            "move_cap": "did not end within the move cap",
            "no_legal_move": "reached a position where nobody has a legal move",
            "everyone_waits": "stalled: every bot waited",
        }[kind]
        return (
            f"RULE HOLE: {finding['games']} of {finding['of']} games {what} "
            f"({finding['ruleset']}); first: game {finding['game_index']}, phase "
            f"{finding['phase']}, last moves {' '.join(finding['last_moves'])}; its script "
            "is in the JSON (replay it with manage.py referee replay)"
        )


def _pvalue(diffs: list[float]) -> float:
    if all(d == 0 for d in diffs) or len(diffs) < F.HANDFUL:
        return 1.0
    if min(diffs) == max(diffs):
        return 0.0
    from scipy.stats import ttest_1samp  # SciPy: only when a comparison needs it

    return float(ttest_1samp(diffs, 0.0).pvalue)


def _values(option) -> list[Any]:
    if isinstance(option.default, bool):
        return [not option.default]
    if option.choices is not None:
        return list(option.choices)
    return [v for v in (option.min, option.max) if v is not None]
