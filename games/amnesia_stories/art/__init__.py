"""Generated landscape art for the 48 built-in area cards.

``render_area(card_id, size)`` draws the same picture for the same id every time: the layout
comes from a ``random.Random`` seeded with a hash of the id (this is card art, not the referee,
whose randomness lives in the game state). Card ``i`` shows one of 16 scenes in one of three
variants (see ``games.amnesia_stories.area_texts``); each variant has its own time of day, palette and
composition, and half of them are mirrored, so cards of one scene still look different.

Everything is drawn in fractions of the card's size at twice the resolution and scaled down
(each pixel the mean of its 2x2 block), so the thumbnail and the large card are the same
picture.

Its rooms: ``canvas`` (the card being drawn: times of day, colours, shapes and building
blocks), ``landscapes`` and ``buildings`` (the 16 scenes, one painter each: the wild ones and
those with something built in them) and ``render`` (the painters by scene, ``render_area`` and
``contact_sheet``). Callers import the room they need (``art.render``).
"""
