"""The built-in area cards: ids, scenes and adventure texts (pure Python, no Django).

Card ``A01``..``A48``: card number ``i`` (0-based) shows scene ``SCENES[i % 16]`` in variant
``i // 16``; each variant has its own time of day. The adventure text on the back of each card is
a footprint of the hero's journey, loosely matching the scene, in English, Portuguese and
Japanese. The hero has no stated gender in any of them (English says "they"; the Portuguese
avoids gendered adjectives and participles for the hero, "com os pés descalços" rather than
"descalço"), so any player can be the one it happened to. The art itself lives in ``games.amnesia_stories.art`` (it needs Pillow).
"""

from __future__ import annotations

AREA_IDS: tuple[str, ...] = tuple(f"A{i:02d}" for i in range(1, 49))
LANGUAGES = ("en", "pt", "ja")

SCENES = (
    "mountains",
    "sea",
    "forest",
    "desert",
    "snowfield",
    "cave",
    "castle",
    "village",
    "ruins",
    "swamp",
    "volcano",
    "lake",
    "canyon",
    "waterfall",
    "island",
    "tower",
)
TIMES = ("dawn", "day", "dusk", "night")

# (en, pt, ja) for each scene, one line per variant.
_TEXTS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "mountains": (
        (
            "Climbed the jagged pass before sunrise and left the old map behind.",
            "Escalou o desfiladeiro recortado antes do nascer do sol e deixou o velho mapa "
            "para trás.",
            "夜明け前に険しい岩の峠を越え、古い地図はそこに置いてきた。",
        ),
        (
            "Reached the snowy summit and saw, far away, the land they had fled.",
            "Alcançou o cume nevado e viu, ao longe, a terra de onde tinha fugido.",
            "雪をかぶった山頂にたどり着くと、はるか遠くに、逃げ出してきた土地が見えた。",
        ),
        (
            "Lost a companion to a rockslide as the sun sank behind the peaks.",
            "Perdeu um companheiro num deslizamento de pedras enquanto o sol se punha atrás "
            "dos picos.",
            "夕日が峰の向こうに沈むころ、落石で仲間を一人失った。",
        ),
    ),
    "sea": (
        (
            "Sailed out on a borrowed boat with no idea where the wind would lead.",
            "Zarpou num barco emprestado sem saber para onde o vento sopraria.",
            "借りた小舟で、風まかせに海へ漕ぎ出した。",
        ),
        (
            "Watched the harbour vanish at sunset and swore never to return.",
            "Viu o porto desaparecer ao pôr do sol e jurou nunca mais voltar.",
            "夕焼けの中に港が消えていくのを見送り、二度と戻らないと誓った。",
        ),
        (
            "Survived a night storm at sea lashed to the mast.",
            "Sobreviveu a uma tempestade noturna em alto-mar com o corpo amarrado ao mastro.",
            "嵐の夜の海で、帆柱に体を縛りつけて生き延びた。",
        ),
    ),
    "forest": (
        (
            "Followed a white deer deep into the pines until the path disappeared.",
            "Seguiu um cervo branco pelo pinheiral até o caminho desaparecer.",
            "白い鹿を追って松の森の奥へ進み、道を見失った。",
        ),
        (
            "Slept among the roots of a giant tree and dreamed of a stranger's name.",
            "Dormiu entre as raízes de uma árvore gigante e sonhou com o nome de um desconhecido.",
            "大樹の根元で眠り、知らない誰かの名前を夢に見た。",
        ),
        (
            "Met a hunter in the morning mist who pointed the way east.",
            "Encontrou na névoa da manhã um caçador que apontou o caminho para o leste.",
            "朝霧の中で狩人に出会い、東への道を教わった。",
        ),
    ),
    "desert": (
        (
            "Crossed the dunes by starlight to escape the burning day.",
            "Atravessou as dunas sob as estrelas para fugir do dia escaldante.",
            "灼熱の昼を避け、星明かりを頼りに砂丘を越えた。",
        ),
        (
            "Found a buried pyramid and carved their name on its door.",
            "Encontrou uma pirâmide soterrada e gravou o próprio nome na porta.",
            "砂に埋もれたピラミッドを見つけ、扉に自分の名を刻んだ。",
        ),
        (
            "Ran out of water under the noon sun and was saved by a caravan.",
            "Ficou sem água sob o sol do meio-dia e uma caravana lhe salvou a vida.",
            "真昼の太陽の下で水が尽き、隊商に命を救われた。",
        ),
    ),
    "snowfield": (
        (
            "Crossed the frozen plain at first light, following wolf tracks.",
            "Atravessou a planície gelada à primeira luz, seguindo rastros de lobo.",
            "夜明けの光の中、狼の足跡をたどって凍てつく平原を渡った。",
        ),
        (
            "Built a shelter of ice and waited three days for the blizzard to pass.",
            "Construiu um abrigo de gelo e esperou três dias a nevasca passar.",
            "氷のかまくらを作り、三日間吹雪がやむのを待った。",
        ),
        (
            "Buried a broken sword in the snow and walked on unarmed.",
            "Enterrou uma espada quebrada na neve e seguiu caminho sem arma alguma.",
            "折れた剣を雪に埋め、丸腰のまま歩き続けた。",
        ),
    ),
    "cave": (
        (
            "Took shelter in a cave and found their own face painted on the wall.",
            "Abrigou-se numa caverna e encontrou o próprio rosto pintado na parede.",
            "洞窟に身を寄せると、岩壁に自分の顔が描かれていた。",
        ),
        (
            "Crawled through a narrow tunnel and came out on the other side of the world.",
            "Rastejou por um túnel estreito e saiu do outro lado do mundo.",
            "狭いトンネルを這い進み、世界の反対側に抜け出た。",
        ),
        (
            "Woke a sleeping dragon in the dark and ran without looking back.",
            "Acordou um dragão adormecido no escuro e fugiu sem olhar para trás.",
            "暗闇で眠っていた竜を起こしてしまい、振り返らずに逃げた。",
        ),
    ),
    "castle": (
        (
            "Was knighted at the castle gate, though nobody remembered why.",
            "Recebeu no portão do castelo a honra da cavalaria, embora ninguém lembrasse o porquê.",
            "城門で騎士に叙されたが、その理由を覚えている者はいなかった。",
        ),
        (
            "Climbed the castle wall at midnight to free a prisoner.",
            "Escalou a muralha do castelo à meia-noite para libertar um prisioneiro.",
            "真夜中に城壁をよじ登り、囚われ人を救い出した。",
        ),
        (
            "Refused the king's crown and left the castle at daybreak.",
            "Recusou a coroa do rei e deixou o castelo ao raiar do dia.",
            "王冠を断り、夜明けとともに城を去った。",
        ),
    ),
    "village": (
        (
            "Shared supper with villagers who told of a hero who looked just like them.",
            "Jantou com aldeões que contavam as façanhas de alguém com o seu próprio rosto.",
            "村人と食卓を囲むと、自分にそっくりな勇者の話を聞かされた。",
        ),
        (
            "Helped rebuild a burned farmhouse and was given a pair of boots.",
            "Ajudou a reconstruir uma casa queimada e ganhou um par de botas.",
            "焼けた農家の再建を手伝い、一足の靴をもらった。",
        ),
        (
            "Won the wrestling match at the village fair, and a rival for life.",
            "Venceu a luta da feira da aldeia e ganhou um rival para a vida toda.",
            "村祭りの相撲に勝ち、生涯の好敵手を得た。",
        ),
    ),
    "ruins": (
        (
            "Read a forgotten prophecy carved on a fallen column.",
            "Leu uma profecia esquecida gravada numa coluna tombada.",
            "倒れた石柱に刻まれた、忘れられた予言を読んだ。",
        ),
        (
            "Dug up a rusty key among the ruins of an old temple.",
            "Desenterrou uma chave enferrujada entre as ruínas de um templo antigo.",
            "古い神殿の廃墟で、錆びた鍵を掘り出した。",
        ),
        (
            "Heard the ghost of a king beg for help among the broken arches.",
            "Ouviu o fantasma de um rei pedir ajuda entre os arcos quebrados.",
            "崩れたアーチの間で、王の亡霊に助けを求められた。",
        ),
    ),
    "swamp": (
        (
            "Lost both boots in the mud of the marsh and went on barefoot.",
            "Perdeu as duas botas na lama do pântano e seguiu com os pés descalços.",
            "沼地のぬかるみで靴を両方なくし、裸足で進んだ。",
        ),
        (
            "Struck a bargain with the marsh witch and paid with a memory.",
            "Fez um pacto com a bruxa do pântano e pagou com uma lembrança.",
            "沼の魔女と取引をし、記憶をひとつ差し出した。",
        ),
        (
            "Followed will-o'-the-wisps through the fog and nearly drowned.",
            "Seguiu fogos-fátuos pela névoa e quase se afogou.",
            "霧の中で鬼火を追いかけ、あやうく溺れかけた。",
        ),
    ),
    "volcano": (
        (
            "Threw the cursed ring into the fire of the mountain.",
            "Atirou o anel amaldiçoado no fogo da montanha.",
            "呪われた指輪を火の山へ投げ込んだ。",
        ),
        (
            "Fled the eruption by night with a child on their back.",
            "Fugiu da erupção durante a noite com uma criança nas costas.",
            "噴火の夜、子どもを背負って逃げ延びた。",
        ),
        (
            "Forged a new blade in the heat of the lava.",
            "Forjou uma nova lâmina no calor da lava.",
            "溶岩の熱で新しい剣を鍛えた。",
        ),
    ),
    "lake": (
        (
            "Rowed across the moonlit lake and heard a voice calling from below.",
            "Remou pelo lago enluarado e ouviu uma voz chamando lá do fundo.",
            "月夜の湖を舟で渡り、水底から呼ぶ声を聞いた。",
        ),
        (
            "Washed the blood of battle away in a still lake at dawn.",
            "Lavou o sangue da batalha num lago calmo ao amanhecer.",
            "夜明けの静かな湖で、戦いの血を洗い流した。",
        ),
        (
            "Fished all day on the lake and caught a golden fish that could talk.",
            "Pescou o dia inteiro no lago e fisgou um peixe dourado que falava.",
            "湖で一日中釣りをして、言葉を話す金色の魚を釣り上げた。",
        ),
    ),
    "canyon": (
        (
            "Walked the floor of a red canyon where the echo answered questions.",
            "Caminhou pelo fundo de um cânion vermelho onde o eco respondia perguntas.",
            "赤い峡谷の底を歩くと、こだまが問いに答えた。",
        ),
        (
            "Crossed the canyon on a rope bridge just as it began to snap.",
            "Atravessou o cânion por uma ponte de corda bem quando ela começava a arrebentar.",
            "切れかけた吊り橋を渡って峡谷を越えた。",
        ),
        (
            "Was ambushed by bandits in the canyon and lost every coin.",
            "Caiu numa emboscada de bandidos no cânion e perdeu todas as moedas.",
            "峡谷で山賊に襲われ、金貨をすべて奪われた。",
        ),
    ),
    "waterfall": (
        (
            "Trained under a roaring waterfall from morning until dusk.",
            "Treinou sob uma cachoeira estrondosa da manhã até o anoitecer.",
            "轟く滝に打たれ、朝から日暮れまで修行した。",
        ),
        (
            "Found a hidden passage behind the curtain of the falls.",
            "Encontrou uma passagem secreta atrás da cortina da cachoeira.",
            "滝の裏に隠された通路を見つけた。",
        ),
        (
            "Leapt from the top of the falls to escape the pursuers.",
            "Saltou do alto da cachoeira para escapar dos perseguidores.",
            "追っ手から逃れるため、滝の上から飛び降りた。",
        ),
    ),
    "island": (
        (
            "Washed ashore on a small island with nothing but a compass.",
            "Foi parar numa pequena ilha levando apenas uma bússola.",
            "羅針盤ひとつを握りしめ、小さな島に流れ着いた。",
        ),
        (
            "Lit a signal fire on the island and waited for a ship.",
            "Acendeu uma fogueira de sinal na ilha e esperou por um navio.",
            "島で狼煙を上げ、船が来るのを待ち続けた。",
        ),
        (
            "Buried a treasure under a palm tree and forgot to draw the map.",
            "Enterrou um tesouro debaixo de uma palmeira e esqueceu de desenhar o mapa.",
            "椰子の木の下に宝を埋めたが、地図を描き忘れた。",
        ),
    ),
    "tower": (
        (
            "Climbed the wizard's tower and read the stars from its top.",
            "Subiu a torre do mago e leu as estrelas lá do alto.",
            "魔法使いの塔に登り、頂上から星を読んだ。",
        ),
        (
            "Rang the bell of the lonely tower to wake the sleeping town.",
            "Tocou o sino da torre solitária para acordar a cidade adormecida.",
            "ぽつんとそびえる塔の鐘を鳴らし、寝静まった町を目覚めさせた。",
        ),
        (
            "Was locked in a tower for a year and escaped on the back of a bird.",
            "Passou um ano no cárcere de uma torre e fugiu nas costas de um pássaro.",
            "一年間塔に閉じ込められ、鳥の背に乗って脱出した。",
        ),
    ),
}


def area_scene(card_id: str) -> tuple[str, int, str]:
    """(scene, variant, time of day) of a built-in card; KeyError for any other id."""
    if card_id not in AREA_IDS:
        raise KeyError(card_id)
    i = AREA_IDS.index(card_id)
    scene_index, variant = i % len(SCENES), i // len(SCENES)
    return SCENES[scene_index], variant, TIMES[(scene_index + variant) % len(TIMES)]


def _build() -> dict[str, dict[str, str]]:
    texts = {}
    for card_id in AREA_IDS:
        scene, variant, _ = area_scene(card_id)
        texts[card_id] = dict(zip(LANGUAGES, _TEXTS[scene][variant], strict=True))
    return texts


AREA_TEXTS: dict[str, dict[str, str]] = _build()


def area_texts(card_id: str) -> dict[str, str]:
    """The card's adventure text in every language ({} for a card that is not built in)."""
    return dict(AREA_TEXTS.get(card_id, {}))


def area_text(card_id: str, lang: str = "en") -> str:
    """The card's adventure text in ``lang`` (English if that language is missing)."""
    texts = AREA_TEXTS.get(card_id, {})
    return texts.get(lang) or texts.get("en", "")


def printed_texts() -> list[str]:
    """Every adventure text in every language: the story books print them (the bundled fonts
    must draw each of their characters)."""
    return [text for card_id in AREA_IDS for text in AREA_TEXTS[card_id].values()]
