"""Card codes, decks and the seeded generator.

The generator's whole state is one integer kept inside the game state, so a replay
of the same script draws the same cards (no bare ``random`` anywhere in the referee).
"""

from __future__ import annotations

import re
from typing import TypeVar

from games.rules.errors import N_

T = TypeVar("T")

SUITS = ("S", "H", "D", "C")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
# Rank order for higher/lower comparisons: 2 lowest, ace highest.
RANK_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}

TAROT_MINOR_RANKS = (
    "A",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "P",
    "N",
    "Q",
    "K",
)
TAROT_MAJOR = tuple(f"M{i}" for i in range(22))
JOKERS = ("X1", "X2")

# Marked: an error message names a suit ("the chain of muscle (spades)"), in the reader's words.
SUIT_NAMES = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}

_PLAYING = re.compile(r"^(10|[2-9AJQK])([SHDC])$")
_TAROT_MINOR = re.compile(r"^(10|[2-9APNQK])([SHDC])$")


def standard_deck() -> list[str]:
    """The 52 playing cards in a fixed order (suit by suit, 2 to ace)."""
    return [rank + suit for suit in SUITS for rank in RANKS]


def tarot_deck() -> list[str]:
    """The 78 tarot cards: 56 minor arcana then the 22 major arcana."""
    return [rank + suit for suit in SUITS for rank in TAROT_MINOR_RANKS] + list(TAROT_MAJOR)


def is_playing_card(code: object) -> bool:
    return isinstance(code, str) and bool(_PLAYING.match(code))


def is_joker(code: object) -> bool:
    return code in JOKERS


def is_tarot_card(code: object) -> bool:
    return isinstance(code, str) and (bool(_TAROT_MINOR.match(code)) or code in TAROT_MAJOR)


def split(code: str) -> tuple[str, str]:
    """(rank, suit) of a playing or minor-arcana card."""
    return code[:-1], code[-1]


def rank(code: str) -> str:
    return code[:-1]


def suit(code: str) -> str:
    return code[-1]


def rank_value(code: str) -> int:
    """2..14 for a playing card (ace high)."""
    return RANK_VALUE[rank(code)]


def label(code: str) -> str:
    """A short human label: '10♥', 'A♠', 'Joker'."""
    if code in JOKERS:
        return "Joker"
    if code in TAROT_MAJOR:
        return f"Major {code[1:]}"
    r, s = split(code)
    return r + SUIT_SYMBOLS.get(s, s)


# -- the seeded generator ---------------------------------------------------------------

_MASK64 = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The generator state for a seed (any integer, negative or huge, is accepted)."""
    return _splitmix(seed & _MASK64)[1]


def _splitmix(state: int) -> tuple[int, int]:
    # SplitMix64: tiny, well distributed, and its state is one plain integer that
    # survives a JSON round trip exactly.
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31), state


class Rng:
    """A generator over an integer state; read ``.state`` back into the game state."""

    def __init__(self, state: int) -> None:
        self.state = state

    def next64(self) -> int:
        value, self.state = _splitmix(self.state)
        return value

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.next64()
            if v < limit:
                return v % n

    def shuffle(self, items: list[T]) -> list[T]:
        """Fisher-Yates in place; returns the list for convenience. Each ``j`` is
        ``self.below(i + 1)`` with ``below``, ``next64`` and ``_splitmix`` written out in the
        loop (the same numbers, without three calls a card: a game reshuffles its discard pile
        whole, again and again in a long simulated one)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = (1 << 64) - ((1 << 64) % n)
            while True:
                state = (state + 0x9E3779B97F4A7C15) & _MASK64
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                v = z ^ (z >> 31)
                if v < limit:
                    break
            j = v % n
            items[i], items[j] = items[j], items[i]
        self.state = state
        return items

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]
