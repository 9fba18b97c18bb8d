"""The table's version is kept from the log (one per row) plus its ``bumps`` (the changes
outside the log): existing tables get the bumps their version shows beyond their rows, and a
version behind its rows (a batch of moves once added one) is brought up to rows + bumps."""

from django.db import migrations, models
from django.db.models import F
from django.db.models.functions import Greatest


def count_bumps(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Table.objects.update(bumps=Greatest(F("version") - F("last_seq"), 0))
    Table.objects.update(version=F("last_seq") + F("bumps"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_table_language_and_labels"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="bumps",
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(count_bumps, migrations.RunPython.noop),
    ]
