"""The seeded generator: ``Rng.shuffle`` writes ``below`` out in its loop for speed; it must
give the same order and leave the same state as Fisher-Yates drawn with ``below``."""

from __future__ import annotations

from games.rules import cards


def _shuffled_with_below(rng: cards.Rng, items: list[int]) -> list[int]:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def test_shuffle_is_fisher_yates_drawn_with_below() -> None:
    for seed in (0, 1, 7, 2026, -5, 2**70 + 3):
        for size in (0, 1, 2, 3, 52, 54, 78, 200):
            fast, slow = cards.Rng(cards.seed_state(seed)), cards.Rng(cards.seed_state(seed))
            items = list(range(size))
            assert fast.shuffle(list(items)) == _shuffled_with_below(slow, list(items))
            assert fast.state == slow.state
            assert fast.next64() == slow.next64()  # and goes on the same
