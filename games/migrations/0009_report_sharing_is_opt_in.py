"""Sharing a table's playtest report with the designers becomes the owner's choice.

Until now every table's report went to the designers group (and, on a ruleset, to its owner)
without anyone being asked. From here ``Table.report_sharing`` says whether it does, and every
table made before is marked not shared: nobody chose to share those. The demo tables are the
exception (their players are made up, and the demo exists to show the designer's side): the
tables the ``demo`` command made for the ``demo`` account are marked shared with names, as the
command makes them from now on. Only those six tables, by their names: anything else someone
played on the shared demo account stays private.
"""

from django.db import migrations, models

DEMO_USER = "demo"
# The demo tables as the ``demo`` command named them when this migration was written.
DEMO_TABLES = (
    "The night of room 714",
    "The stranger's ring",
    "The hero who forgot",
    "Footprints in the sand",
    "The pie-eating championship",
    "Escape from station Nine",
)


def mark_existing(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    Table.objects.update(report_sharing="private")
    Table.objects.filter(owner__username=DEMO_USER, name__in=DEMO_TABLES).update(
        report_sharing="names"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_moves_hold_only_declared_fields"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="report_sharing",
            field=models.CharField(
                choices=[
                    ("private", "Don’t share it: only you and the players see the report"),
                    ("labels", "Share it, with the players shown as “Player 1”, “Player 2”…"),
                    ("names", "Share it, with the players’ names"),
                ],
                default="private",
                max_length=8,
                help_text=(
                    "When the game ends, the app writes a playtest report: who played, for how "
                    "long, the game’s figures and the players’ impressions (never the "
                    "narration). Shared, it goes to the owner of the table’s ruleset and to the "
                    "site’s designers group; not shared, only you and the players seated with "
                    "an account see it. You can change this later from the table’s page."
                ),
                verbose_name="Share the playtest report with the game’s designers?",
            ),
        ),
        migrations.RunPython(mark_existing, migrations.RunPython.noop),
    ]
