# Custom deck pictures were stored as decks/YYYY/MM/deck<pk>-NNN.webp and served from
# MEDIA_URL: anyone could guess them. New uploads get random names (models.card_picture_path);
# this renames the files already there and updates their rows. The old files are deleted once
# the transaction has committed, so a failed migration leaves every row pointing at a file.

import re
import uuid
from pathlib import PurePath

from django.db import migrations, models, transaction

import games.amnesia_stories.models

RANDOM_NAME = re.compile(r"decks/[0-9a-f]{32}\.[a-z0-9]+")
FIELDS = ("image", "thumb")


def random_name(old: str) -> str:
    return f"decks/{uuid.uuid4().hex}{PurePath(old).suffix.lower() or '.webp'}"


def rename_deck_files(apps, schema_editor):
    CustomCard = apps.get_model("amnesia_stories", "CustomCard")
    replaced = []
    for card in CustomCard.objects.using(schema_editor.connection.alias).order_by("pk"):
        changed = []
        for field in FIELDS:
            stored = getattr(card, field)
            if not stored.name or RANDOM_NAME.fullmatch(stored.name):
                continue
            storage = stored.storage
            if not storage.exists(stored.name):
                continue  # nothing to move: the picture views answer 404 for it
            with storage.open(stored.name, "rb") as old:
                new = storage.save(random_name(stored.name), old)
            replaced.append((storage, stored.name))
            setattr(card, field, new)
            changed.append(field)
        if changed:
            card.save(update_fields=changed)

    def delete_old_files():
        for storage, name in replaced:
            storage.delete(name)

    transaction.on_commit(delete_old_files, using=schema_editor.connection.alias)


class Migration(migrations.Migration):
    dependencies = [
        ("amnesia_stories", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="customcard",
            name="image",
            field=models.ImageField(upload_to=games.amnesia_stories.models.card_picture_path),
        ),
        migrations.AlterField(
            model_name="customcard",
            name="thumb",
            field=models.ImageField(upload_to=games.amnesia_stories.models.card_picture_path),
        ),
        # Going back keeps the random names: they work with the old code too.
        migrations.RunPython(rename_deck_files, migrations.RunPython.noop),
    ]
