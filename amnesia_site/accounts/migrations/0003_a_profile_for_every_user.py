"""Every user has a profile, made with the user from now on (accounts.models.make_profile):
the users from before without one get an empty one here (shown by their username, as before)."""

from django.conf import settings
from django.db import migrations


def make_profiles(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Profile = apps.get_model("accounts", "Profile")
    missing = User.objects.filter(profile__isnull=True).values_list("pk", flat=True)
    Profile.objects.bulk_create(Profile(user_id=pk) for pk in missing)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_profile_language_and_labels"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(make_profiles, migrations.RunPython.noop)]
