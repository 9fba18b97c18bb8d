"""Finished Amnesia games written as game scripts, for the tests, the benchmark and demos.

``amnesia_script(beats)`` turns a list of story beats into a legal script: it asks the referee
(``games.amnesia.rules``) whose go it is in a challenge, so the moves are always ones the rules
accept, and the result can go through ``games.services.new_tables.import_script`` like any upload.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.amnesia.rules import GAME
from games.rules.setup import Setup


@dataclass
class Scene:
    by: str | None  # None: whoever's turn it is
    texts: list[str]
    suggestions: list[tuple[str, str]] = field(default_factory=list)  # (by, text), free
    dispute: Dispute | None = None
    kind: str = "continue"  # or "flashback", "room_flashback"
    abilities: list[str] = field(default_factory=list)


@dataclass
class Dispute:
    insister: str | None  # None: the player after the narrator
    claim: str
    stakes: list[tuple[str, str]] = field(default_factory=list)
    joiners: list[str] = field(default_factory=list)


@dataclass
class Pass:
    by: str
    take: int = 0


def _setup(players: list[str], options: dict[str, Any], deck: list[str] | None) -> Setup:
    full = {name: opt.default for name, opt in GAME.options.items()}
    full.update(options)
    return Setup(
        game="amnesia",
        players=players,
        start=players[0],
        options=full,
        deck_mode="virtual",
        seed=7,
        deck=deck,
        extra={},
    )


def amnesia_script(
    players: list[str],
    beats: list[Scene | Pass],
    *,
    epilogue: str = "",
    options: dict[str, Any] | None = None,
    finish: bool = True,
    refill: bool = False,
) -> dict[str, Any]:
    """A script whose moves tell ``beats`` in order (turns follow the seats, as the rules do).

    Each beat is played by whoever's turn it is: a beat's ``by`` must be that player.
    ``finish`` ends the story (everyone agrees) after the last beat, which must then be the
    memory of the room or follow it. With ``refill``, a player short of tokens passes first,
    taking from the bank (for long games; beats should then leave ``by`` to the turn).
    """
    options = {"start_tokens": 50, "token_cap": 100, "finale_factor": 0, **(options or {})}
    setup = _setup(players, options, None)
    state = GAME.initial_state(setup)
    moves: list[dict[str, Any]] = []

    def play(move: dict[str, Any]) -> None:
        nonlocal state
        state = GAME.apply(state, {k: v for k, v in move.items() if k != "text"})
        moves.append(move)

    for beat in beats:
        if isinstance(beat, Pass):
            play({"by": beat.by, "do": "pass", "take": beat.take})
            continue
        while refill and state["tokens"][state["turn"]] < 6 and state["bank"] > 0:
            who = state["turn"]
            room = state["options"]["token_cap"] - 1 - state["tokens"][who]
            play({"by": who, "do": "pass", "take": max(0, min(state["bank"], room, 20))})
        narrator = beat.by or state["turn"]
        first = {"by": narrator, "do": beat.kind}
        if beat.kind == "flashback":
            first["abilities"] = list(beat.abilities)
        texts = list(beat.texts)
        if texts:
            first["text"] = texts.pop(0)
        play(first)
        for by, text in beat.suggestions:
            play({"by": by, "do": "suggest", "text": text})
        if beat.dispute is not None:
            _dispute(play, lambda: state, narrator, beat.dispute, players)
        end = {"by": narrator, "do": "end_scene"}
        if texts:
            end["text"] = "\n\n".join(texts)
        play(end)
    if finish:
        end_story = {"by": state["turn"], "do": "end_story", "agreed": list(players)}
        if epilogue:
            end_story["text"] = epilogue
        play(end_story)
    return {
        "game": "amnesia",
        "players": players,
        "start": players[0],
        "options": options,
        "deck_mode": "virtual",
        "seed": 7,
        "moves": moves,
    }


def _dispute(play, current, narrator: str, dispute: Dispute, players: list[str]) -> None:
    insister = dispute.insister or players[(players.index(narrator) + 1) % len(players)]
    play({"by": insister, "do": "insist", "text": dispute.claim})
    play({"by": narrator, "do": "refuse"})
    for by, text in dispute.stakes:
        play({"by": by, "do": "stake", "text": text})
    for name in dispute.joiners:
        play({"by": name, "do": "join"})
    play({"by": narrator, "do": "open"})
    for turn in range(200):
        challenge = current()["challenge"]
        if challenge is None:
            return
        who = challenge["to_act"]
        # The insister and the narrator guess; a joiner quits on their second go.
        if who in dispute.joiners and turn > len(dispute.joiners):
            play({"by": who, "do": "quit"})
        else:
            play({"by": who, "do": "higher" if turn % 2 == 0 else "lower"})
    raise RuntimeError("The dispute did not end.")


# -- sample stories ----------------------------------------------------------------------
ENGLISH = {
    "title": "The Room With No Windows",
    "players": ["Ana", "Bruno", "Caio"],
    "scenes": [
        "She wakes on a cold floor with blood drying on her hands. Someone is pounding on the door, slow and patient, as if they had all night.",
        "The door gives way to a corridor lined with photographs. In every one of them she is smiling at someone whose face has been scratched out.",
        "A nurse in a yellow coat hands her a key and says nothing. The key is warm, as if it had been held for a long time.",
    ],
    "memory": "A kitchen that smells of oranges. Her brother teaches her to pick a lock with two hairpins while their mother sings in the next room.",
    "room": "The room, before: a surgery, lamps burning, and her own hands steady inside a stranger’s chest. She had saved him. That was the crime.",
    "claim": "The nurse is her sister.",
    "suggestion": "There is a key in your pocket.",
    "stake": "If I win, the nurse is a stranger.",
    "epilogue": "She leaves the key in the door for whoever wakes next.",
}

PORTUGUESE = {
    "title": "A casa das laranjeiras",
    "players": ["Joana", "Márcio", "Inês"],
    "scenes": [
        "Ela acorda num chão frio, com as mãos sujas de sangue. Alguém bate à porta devagar, com paciência, como quem tem a noite inteira.",
        "No corredor há fotografias penduradas; em todas ela sorri para alguém cujo rosto foi arranhado até sumir.",
        "Uma enfermeira de casaco amarelo entrega-lhe uma chave e não diz nada. A chave está morna, como se alguém a tivesse segurado por muito tempo.",
    ],
    "memory": "Uma cozinha que cheira a laranja. O irmão ensina-a a abrir fechaduras com dois grampos enquanto a mãe canta no quarto ao lado.",
    "room": "O quarto, antes: uma sala de cirurgia, lâmpadas acesas, e as próprias mãos firmes dentro do peito de um desconhecido. Ela o salvou. Esse foi o crime.",
    "claim": "A enfermeira é a irmã dela.",
    "suggestion": "Há uma chave no seu bolso.",
    "stake": "Se eu ganhar, a enfermeira é uma estranha.",
    "epilogue": "Ela deixa a chave na porta para quem acordar em seguida.",
}

JAPANESE = {
    "title": "窓のない部屋",
    "players": ["春香", "健太", "美咲"],
    "scenes": [
        "冷たい床の上で目を覚ますと、両手に乾いた血がついていた。誰かがゆっくりと、まるで一晩中待つつもりのように扉を叩いている。",
        "廊下には写真が並んでいる。どの写真でも彼女は笑っているが、隣にいる人の顔はすべて引っかかれて消されていた。",
        "黄色いコートの看護師が、何も言わずに鍵を渡した。鍵は長い間誰かが握っていたかのように温かかった。",
    ],
    "memory": "オレンジの香りがする台所。母が隣の部屋で歌っている間、兄はヘアピン二本で錠前を開ける方法を教えてくれた。",
    "room": "あの部屋の以前の姿。手術室の明かりの下で、彼女の手は見知らぬ男の胸の中で少しも震えなかった。彼を救ったこと、それが罪だった。",
    "claim": "看護師は彼女の姉だ。",
    "suggestion": "ポケットに鍵が入っている。",
    "stake": "私が勝てば、看護師は見知らぬ人だ。",
    "epilogue": "次に目を覚ます誰かのために、彼女は鍵を扉に残していく。",
}

SAMPLES = {"en": ENGLISH, "pt-br": PORTUGUESE, "ja": JAPANESE}


def sample_script(language: str = "en") -> dict[str, Any]:
    """A short finished game in one of the three languages, every kind of chapter in it."""
    s = SAMPLES[language]
    a, b, c = s["players"]
    beats: list[Scene | Pass] = [
        Scene(a, [s["scenes"][0]], suggestions=[(b, s["suggestion"])]),
        Scene(b, [s["memory"]], kind="flashback", abilities=["lockpicking"]),
        Scene(
            c,
            [s["scenes"][1], s["scenes"][2]],
            dispute=Dispute(a, s["claim"], stakes=[(c, s["stake"]), (a, s["claim"])]),
        ),
        Pass(a),
        Scene(b, [s["room"]], kind="room_flashback"),
    ]
    return amnesia_script(list(s["players"]), beats, epilogue=s["epilogue"])


def long_script(scenes: int = 300, players: tuple[str, ...] = ("Ana", "Bruno", "Caio")) -> dict:
    """A long finished game: ``scenes`` chapters, a memory every fifth, a dispute every tenth."""
    base = ENGLISH["scenes"] + [ENGLISH["memory"], ENGLISH["room"]]
    beats: list[Scene | Pass] = []
    for i in range(scenes - 1):
        text = f"{i + 1}. {base[i % len(base)]} {base[(i + 2) % len(base)]}"
        if i % 5 == 4:
            beats.append(Scene(None, [text], kind="flashback", abilities=[f"skill {i}"]))
        elif i % 10 == 7:
            beats.append(Scene(None, [text], dispute=Dispute(None, base[1][:60])))
        else:
            beats.append(Scene(None, [text, base[(i + 1) % len(base)]]))
    beats.append(Scene(None, [ENGLISH["room"]], kind="room_flashback"))
    return amnesia_script(list(players), beats, epilogue=ENGLISH["epilogue"], refill=True)
