"""A stable UUID on every table, so a table exported from one site is recognised by another.

Three steps, as Django's docs advise for a unique field on existing rows: add it nullable, give
each existing row its own random UUID, then make it unique and required.
"""

import uuid

from django.db import migrations, models


def fill_uuids(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for table in Table.objects.filter(uuid__isnull=True).only("pk").iterator():
        Table.objects.filter(pk=table.pk).update(uuid=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [("games", "0011_story_so_far_kept")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="uuid",
            field=models.UUIDField(editable=False, null=True),
        ),
        migrations.RunPython(fill_uuids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="uuid",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
    ]
