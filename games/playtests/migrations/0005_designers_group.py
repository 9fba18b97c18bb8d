"""The "designers" group exists from the first ``migrate`` (``manage.py designer NAME`` puts
people in it): before, it appeared only when an admin made it or ``demo --designer`` ran."""

from django.db import migrations

DESIGNERS_GROUP = "designers"  # games.playtests.models.DESIGNERS_GROUP, as it was when written


def make_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).get_or_create(name=DESIGNERS_GROUP)


def drop_empty_group(apps, schema_editor):
    # Back: the group goes only if nobody is in it (a member would lose the dashboard).
    Group = apps.get_model("auth", "Group")
    groups = Group.objects.using(schema_editor.connection.alias).filter(name=DESIGNERS_GROUP)
    groups.filter(user__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("playtests", "0004_simulation_runs"),
    ]

    operations = [migrations.RunPython(make_group, drop_empty_group)]
