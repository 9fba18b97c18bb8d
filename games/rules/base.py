"""The referee framework's base: the game interface (``Game``, with the options and fields it
declares and the narrator that tells its story) and the move pipeline.

Nothing below ``games/rules`` imports Django or touches I/O or the clock: a game is a
pure function of its script. The framework's other rooms: ``errors`` (IllegalMove,
BadScript, ``N_``), ``setup`` (Setup), ``plain`` (copy_plain), ``hiding`` (what a view
hides) and ``arguments`` (reading a move's values in a handler).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.rules.errors import N_, BadScript, IllegalMove
from games.rules.hiding import FRAMEWORK_SECRETS, Blanked, hide
from games.rules.plain import copy_plain
from games.rules.setup import Setup


@dataclass(frozen=True)
class Option:
    """One rule option: its default and what values it accepts."""

    default: Any
    min: int | None = None
    max: int | None = None
    choices: tuple[Any, ...] | None = None
    help: str = ""

    def check(self, name: str, value: Any) -> None:
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise BadScript(N_("Option {name} must be true or false."), name=name)
            return
        if self.choices is not None:
            if value not in self.choices:
                allowed = ", ".join(str(c) for c in self.choices)
                raise BadScript(
                    N_("Option {name} must be one of: {allowed}."), name=name, allowed=allowed
                )
            return
        if isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadScript(N_("Option {name} must be a whole number."), name=name)
            if self.min is not None and value < self.min:
                raise BadScript(
                    N_("Option {name} must be at least {min}."), name=name, min=self.min
                )
            if self.max is not None and value > self.max:
                raise BadScript(N_("Option {name} must be at most {max}."), name=name, max=self.max)


# The kinds of value a move field holds. A card is a card code (a string the game's
# ``is_card`` knows); the list kinds hold strings, whole numbers or card codes.
FIELD_KINDS = ("int", "str", "bool", "card", "str_list", "int_list", "card_list")
# What an empty value typed in a form becomes: kept as "", left out of the move, or null.
BLANKS = ("keep", "omit", "null")
# The limits of a field that declares none: no count in any game comes near them, and the
# database's integer columns (a kept character's points) stop at INT_LIMIT.
INT_LIMIT = 2**31 - 1
STR_LIMIT = 1_000


@dataclass(frozen=True)
class Field:
    """One field a verb reads (besides the common ``by``, ``do``, ``text`` and ``at``): the
    kind of its value and its natural limits. The referee still checks every value itself
    and says what is wrong; the declaration is what a form parser, a page or a script
    checker can know about a move without reading the handler."""

    kind: str
    min: int | None = None  # an int, or each int of a list (at least -INT_LIMIT)
    max: int | None = None  # (at most INT_LIMIT)
    max_length: int | None = None  # a str, or each str of a list (at most STR_LIMIT)
    max_items: int | None = None  # a list
    choices: tuple[str, ...] | None = None  # a str, or each str of a list
    nullable: bool = False  # null is a value of its own ("no reward")
    separator: str | None = None  # a list a form may type in one box, split on this
    blank: str = "keep"
    # How a reader names it, marked with N_ ("The tokens to take"): a refusal of its value
    # says this, never the field's key.
    label: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"unknown field kind {self.kind!r}")
        if self.blank not in BLANKS:
            raise ValueError(f"unknown blank rule {self.blank!r}")

    @property
    def is_list(self) -> bool:
        return self.kind.endswith("_list")

    @property
    def item_kind(self) -> str:
        """The kind of each item of a list (the kind itself for a single value)."""
        return self.kind.removesuffix("_list")

    def fits(self, value: Any) -> bool:
        """Whether ``value`` has this field's kind and keeps within its limits (card codes
        are only known to be strings here: which codes exist depends on the table)."""
        if value is None:
            return self.nullable
        if not self.is_list:
            return self._item_fits(value)
        if not isinstance(value, list):
            return False
        if self.max_items is not None and len(value) > self.max_items:
            return False
        return all(self._item_fits(item) for item in value)

    def _item_fits(self, value: Any) -> bool:
        kind = self.item_kind
        if kind == "bool":
            return isinstance(value, bool)
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return False
            lo = -INT_LIMIT if self.min is None else self.min
            hi = INT_LIMIT if self.max is None else self.max
            return lo <= value <= hi
        if not isinstance(value, str):
            return False
        if len(value) > (STR_LIMIT if self.max_length is None else self.max_length):
            return False
        return self.choices is None or value in self.choices


class Story:
    """A readable story's entries: all of them, or only those a narrator may still change.

    A narrator (below) reads and writes entries by position. Told whole (a full replay) the
    story holds every entry; told one move at a time (``games.story`` keeps the entries in the
    database) it holds only the ones the narrator names as still open, and ``length`` counts
    the rest. ``touched`` is every position read or written since it was last cleared: what a
    keeper of the entries must write back."""

    def __init__(self, entries: dict[int, dict[str, Any]] | None = None, length: int = 0) -> None:
        self.entries: dict[int, dict[str, Any]] = dict(entries or {})
        self.length = max(length, len(self.entries))
        self.touched: set[int] = set()

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, position: int) -> dict[str, Any]:
        self.touched.add(position)
        return self.entries[position]

    def append(self, entry: dict[str, Any]) -> int:
        position = self.length
        self.entries[position] = entry
        self.length += 1
        self.touched.add(position)
        return position

    def as_list(self) -> list[dict[str, Any]]:
        return [self.entries[i] for i in range(self.length)]


class Narrator:
    """Tells a game's readable story one move at a time.

    ``cursor`` is everything the narrator must remember between two moves (which entries a
    later move may still change, counters), as JSON: a keeper stores it beside the entries and
    carries on from it at the next move, so a move costs the same at any length of the log.
    Telling the whole log (``tell``) runs the same ``step`` over every move, so the story told
    move by move and the story of a full replay are one code path."""

    def __init__(self, game: Game, setup: Setup, cursor: dict[str, Any] | None = None) -> None:
        self.game = game
        self.setup = setup
        self.cursor: dict[str, Any] = copy_plain(cursor) if cursor is not None else {}

    def open_entries(self) -> list[int]:
        """The positions of the entries a later move may still change."""
        return []

    def step(
        self,
        story: Story,
        index: int,
        move: dict[str, Any],
        before: dict[str, Any],
        after: dict[str, Any],
    ) -> None:
        """Tell ``move`` (the ``index``-th live move, ``before`` and ``after`` the states
        around it) into ``story``."""
        raise NotImplementedError

    def refused(self, story: Story, index: int, move: dict[str, Any], exc: IllegalMove) -> None:
        """An illegal move ends the story (a script being checked); default: nothing told."""

    def tell(self, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The whole story of ``moves`` (replayed with the referee; stops at an illegal one)."""
        story = Story()
        state = self.game.initial_state(self.setup)
        for index, move in enumerate(moves):
            try:
                after = self.game.apply(state, move)
            except IllegalMove as exc:
                self.refused(story, index, move, exc)
                break
            self.step(story, index, move, state, after)
            state = after
        return story.as_list()


class Game:
    """The interface every game implements. Subclasses fill in the class attributes and
    ``setup_state`` and ``handle``; the pipeline in ``apply`` does the checks that are the
    same for every game, in the contract's order of precedence."""

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 8
    options: dict[str, Option] = {}
    # verb -> the phases in which it is allowed
    moves: dict[str, frozenset[str]] = {}
    # move fields that hold card codes (a string or a list of strings)
    card_fields: tuple[str, ...] = ("card",)
    # verb -> {field name: Field}: every field each verb reads besides by, do, text and at
    # (a verb with no fields of its own may be left out)
    fields: dict[str, dict[str, Field]] = {}
    # Verbs whose moves do not depend on one another within a turn (every player's answer to
    # one story, the suggestions of one scene): a client judges them against ``turn_marker``,
    # the turn they belong to, not against the position of the whole log (the web's write
    # path, ``games.services``, explains why).
    independent_moves: frozenset[str] = frozenset()
    # What ``view`` hides (boardgame.io's STRIP_SECRETS, by default): the framework's secrets
    # (FRAMEWORK_SECRETS: ``deck``, ``rng``) and the game's own ``secret_keys`` are left out of
    # every view; each of the ``private`` paths ("players.*.hand": each player's hand;
    # "_picks.*": a mapping of seats to their unjudged answers) is shown to its own player
    # only. A game whose deck is public says so in ``public_keys`` (the explicit opt-out);
    # ``games/checks/secrets.py`` plays the demo tables and refuses a view that shows any of them.
    secret_keys: tuple[str, ...] = ()
    private: tuple[str, ...] = ()
    public_keys: tuple[str, ...] = ()

    def turn_marker(self, state: dict[str, Any]) -> str:
        """Names the turn (or phase) the ``independent_moves`` made now belong to: it changes
        when the turn is over, and not when one of those moves is made."""
        return str(state.get("phase", ""))

    def is_independent(self, state: dict[str, Any], move: dict[str, Any]) -> bool:
        """Whether ``move``, made on ``state``, is judged against ``turn_marker``: by default,
        a move of the ``independent_moves``. A verb that is independent at one moment of the
        game only (a contestant's forfeit before a card, not the same verb as the answer to
        a challenge) says so here; anywhere else its move is judged against the log."""
        return move.get("do") in self.independent_moves

    def field(self, verb: Any, name: str) -> Field | None:
        """How ``verb`` declares its field ``name``; for a field the verb does not read, how
        another verb of the game declares it (one form may carry the fields of several
        buttons); None for a name no verb declares."""
        own = self.fields.get(verb, {}) if isinstance(verb, str) else {}
        if name in own:
            return own[name]
        for declared in self.fields.values():
            if name in declared:
                return declared[name]
        return None

    # -- set-up ------------------------------------------------------------------------
    def is_card(self, code: str, setup: Setup) -> bool:
        """Whether ``code`` is a card code this game (with these options) knows."""
        raise NotImplementedError

    def check_setup(self, setup: Setup) -> None:
        """Raise BadScript for a set-up the game cannot be played with."""
        n = len(setup.players)
        if not self.min_players <= n <= self.max_players:
            raise BadScript(
                N_("{game} needs {min_players} to {max_players} players, not {n}."),
                game=self.title or self.name,
                min_players=self.min_players,
                max_players=self.max_players,
                n=n,
            )

    def setup_state(self, setup: Setup) -> dict[str, Any]:
        raise NotImplementedError

    def initial_state(self, setup: Setup) -> dict[str, Any]:
        state = {
            "game": self.name,
            "phase": "",
            "seats": list(setup.players),
            "finished": False,
            "winners": [],
            "options": dict(setup.options),
            "deck_mode": setup.deck_mode,
        }
        state.update(self.setup_state(setup))
        return state

    # -- play --------------------------------------------------------------------------
    def active_players(self, state: dict[str, Any]) -> list[str]:
        """Players who may still make moves (default: everyone seated)."""
        return list(state["seats"])

    def is_active(self, state: dict[str, Any], player: str) -> bool:
        """Whether ``player``, one of the seats, may still make moves: ``player in
        active_players(state)``, which a game may answer without building the list (the
        checks ask it at every move)."""
        return player in self.active_players(state)

    def handle(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        """Apply ``move`` to ``state`` in place or raise IllegalMove. Called after the
        common checks. Every game handles verb ``v`` in a method ``_do_v(state, move)``,
        which starts with ``not_your_turn`` then checks the move's fields; a game wraps this
        (``super().handle``) for what it does around every move."""
        getattr(self, f"_do_{move['do']}")(state, move)

    def legal_moves(self, state: dict[str, Any], player: str) -> list[dict[str, Any]]:
        """The moves ``player`` may make now, as templates: ``{"do": verb, ...}``."""
        return []

    # The game's Narrator, when its story can be told one move at a time (``narrative``
    # then tells it, and the web keeps the entries as the moves come: ``games.story``).
    narrator_class: type[Narrator] | None = None

    def narrator(self, setup: Setup, cursor: dict[str, Any] | None = None) -> Narrator | None:
        return self.narrator_class(self, setup, cursor) if self.narrator_class else None

    def narrative(self, setup: Setup, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The game's readable story (scenes, stories, contests...), built by replaying
        ``moves`` with this referee: data a page, an export or a book can show."""
        narrator = self.narrator(setup)
        return narrator.tell(moves) if narrator is not None else []

    def hidden_keys(self) -> tuple[str, ...]:
        """The state keys nobody sees: the framework's secrets and the game's own."""
        keys = (*FRAMEWORK_SECRETS, *self.secret_keys)
        return tuple(k for k in dict.fromkeys(keys) if k not in self.public_keys)

    def view(self, state: dict[str, Any], player: str | None) -> dict[str, Any]:
        """The state as ``player`` may see it (None: a spectator / the game master): without
        the deck, the generator's state and the game's ``secret_keys``, and with the other
        players' ``private`` parts hidden; a copy the caller may change. A game that
        overrides it starts from this one."""
        return self.copy_state(self.shared_view(state, player))

    def shared_view(self, state: dict[str, Any], player: str | None) -> dict[str, Any]:
        """What ``view`` shows, without the copy: the parts it does not hide are ``state``'s
        own, so the caller only reads it, and only until the state changes (a simulation's
        bots deciding one move)."""
        hidden, paths, _under = self._hiding()
        seen: dict[str, Any] = {k: v for k, v in state.items() if k not in hidden}
        for path in paths:
            seen = hide(seen, path, player)
        return seen

    def view_part(
        self, state: dict[str, Any], player: str | None, key: str, lazy: bool = False
    ) -> Any:
        """``shared_view(state, player)[key]`` alone (KeyError for a key the view leaves
        out): the ``private`` paths under ``key`` hidden the same way, nothing else built.
        ``lazy``: a mapping of seats whose one private field is the only path under ``key``
        ("players.*.hand") comes as a read-only mapping that blanks a seat's record when it
        is read (a simulation's bot mostly reads its own record, which nothing hides)."""
        hidden, _paths, under = self._hiding()
        if lazy:
            field = self.view_blanked_keys().get(key)
            if field is not None and isinstance(state[key], dict):
                return Blanked(state[key], player, field)
        if key in hidden or "*" in under:
            return self.shared_view(state, player)[key]
        value = state[key]
        rests = under.get(key, ())
        for rest in rests:
            value = hide(value, rest, player) if rest else None
        return value

    def view_special_keys(self) -> frozenset[str] | None:
        """The keys whose ``view_part`` is more than the state's own value: the hidden ones
        and those a ``private`` path starts with (None when a path starts with ``*``: then
        every key is). A reader of many parts (a simulation's bot) reads the others
        straight from the state."""
        hidden, _paths, under = self._hiding()
        if "*" in under:
            return None
        return hidden | frozenset(under)

    def view_blanked_keys(self) -> dict[str, str]:
        """The keys whose ``view_part(..., lazy=True)`` is ``Blanked(state[key], player,
        field)`` when ``state[key]`` is a mapping: those whose one ``private`` path is
        "key.*.field" (not hidden, no path starting with ``*``), each with its field. A
        reader of many parts (a simulation's bot) makes them without the call."""
        hidden, _paths, under = self._hiding()
        known = self.__dict__.get("_blanked_cache")
        if known is None or known[0] is not under:
            found: dict[str, str] = {}
            if "*" not in under:
                for key, rests in under.items():
                    if (
                        key not in hidden
                        and len(rests) == 1
                        and len(rests[0]) == 2
                        and rests[0][0] == "*"
                        and rests[0][1] != "*"
                    ):
                        found[key] = rests[0][1]
            known = (under, found)
            self.__dict__["_blanked_cache"] = known
        return known[1]

    def _hiding(self) -> tuple[frozenset[str], list[list[str]], dict[str, list[list[str]]]]:
        """``hidden_keys`` as a set, the ``private`` paths split, and the same paths by their
        first key (the rest of each), worked out once per referee."""
        known = self.__dict__.get("_hiding_cache")
        if known is None or known[0] is not self.private or known[1] is not self.secret_keys:
            paths = [p.split(".") for p in self.private]
            under: dict[str, list[list[str]]] = {}
            for path in paths:
                under.setdefault(path[0], []).append(path[1:])
            hidden = frozenset(self.hidden_keys())
            known = (self.private, self.secret_keys, (hidden, paths, under))
            self.__dict__["_hiding_cache"] = known
        return known[2]

    def pending_secrets(self, state: dict[str, Any], moves: list[dict[str, Any]]) -> list[int]:
        """The indexes in ``moves`` (the moves that led to ``state``, without narration and
        time) of the moves that are secret for now: what nobody may read yet, not even in an
        export (answers given to a turn not judged yet). An export leaves them out, so the
        moves without them must still replay. Default: none; a game with secret moves says
        which, since only it knows when they are revealed."""
        return []

    def apply(self, state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
        """The new state after ``move``; ``state`` is left untouched: the checks every game
        shares, then ``handle`` on a copy (``apply_in_place`` without the copy)."""
        self.check_move(state, move)
        new_state = self.copy_state(state)
        self.handle(new_state, move)
        return new_state

    def apply_in_place(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        """``apply`` on ``state`` itself, for a simulation that owns its state and keeps no
        earlier one: the same checks and the same ``handle``, without the copy. A move it
        refuses may leave ``state`` half changed (the simulation stops there); ``apply``'s
        copy is what keeps a refused move from touching the table's state."""
        self.check_move(state, move)
        self.handle(state, move)

    def check_move(self, state: dict[str, Any], move: dict[str, Any]) -> None:
        """The checks every game makes before its ``handle``, in the contract's order of
        precedence: a move at all, the game not over, a seated and active player, a verb of
        the game, a phase that allows it."""
        if not isinstance(move, dict):
            raise IllegalMove("bad_argument", N_("A move must be an object."))
        if state.get("finished"):
            raise IllegalMove("game_over", N_("The game is over; no more moves can be made."))
        by = move.get("by")
        if not isinstance(by, str) or by not in state["seats"]:
            raise IllegalMove(
                "unknown_player", N_("There is no player called “{by}” at this table."), by=by
            )
        if not self.is_active(state, by):
            raise IllegalMove("unknown_player", N_("{by} is out of the game."), by=by)
        verb = move.get("do")
        if not isinstance(verb, str) or verb not in self.moves:
            raise IllegalMove(
                "unknown_move",
                N_("{game} has no move {verb!r}."),
                game=self.title or self.name,
                verb=verb,
            )
        if state["phase"] not in self.moves[verb]:
            raise IllegalMove(
                "wrong_phase", N_("That move cannot be made at this point of the game.")
            )

    def copy_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """A copy of ``state`` that ``handle`` may change without touching ``state``. A game
        whose state keeps parts no move ever changes again may share them (cheaper on a long
        game); by default everything is copied."""
        result: dict[str, Any] = copy_plain(state)
        return result

    # -- helpers for subclasses ------------------------------------------------------------
    @staticmethod
    def next_in(order: list[str], current: str, among: list[str] | None = None) -> str:
        """The next name clockwise after ``current`` in ``order`` that is in ``among``."""
        among = order if among is None else among
        i = order.index(current)
        for step in range(1, len(order) + 1):
            name = order[(i + step) % len(order)]
            if name in among:
                return name
        raise ValueError("nobody left to act")
