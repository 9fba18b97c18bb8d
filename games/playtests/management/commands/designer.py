"""``designer NAME...``: make people designers, that is members of the "designers" group (the
dashboard of every game, every shared playtest report, the lab); ``--remove`` takes them out
again, ``--list`` says who is in it. The group itself is made by a migration (playtests 0005);
it is made here too when a test's or an admin's flush emptied the database of it.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.playtests.models import DESIGNERS_GROUP


class Command(BaseCommand):
    help = (
        "Make the named users designers (the designers group): each game's dashboard, the "
        "playtest reports shared with the designers, the lab."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("names", nargs="*", metavar="NAME", help="user names (log-in names)")
        parser.add_argument(
            "--remove", action="store_true", help="take the named users out of the group"
        )
        parser.add_argument("--list", action="store_true", help="list the group's members")

    def handle(self, *args, **opts) -> None:
        names: list[str] = opts["names"]
        if opts["list"]:
            if names or opts["remove"]:
                raise CommandError("--list takes no name and no --remove.")
            self._list()
            return
        if not names:
            raise CommandError("Name at least one user: manage.py designer NAME [NAME ...].")
        users = self._users(names)
        with transaction.atomic():
            group, _made = Group.objects.get_or_create(name=DESIGNERS_GROUP)
            for user in users:
                if opts["remove"]:
                    user.groups.remove(group)
                    self.stdout.write(f"{user.get_username()} is no longer a designer.")
                else:
                    user.groups.add(group)
                    switched_off = "" if user.is_active else " (the account is switched off)"
                    self.stdout.write(f"{user.get_username()} is a designer{switched_off}.")

    def _users(self, names: list[str]) -> list:
        """The users named, all of them or an error that names each one not found (and
        nothing changed)."""
        model = get_user_model()
        field = model.USERNAME_FIELD
        found = {u.get_username(): u for u in model.objects.filter(**{f"{field}__in": names})}
        missing = [name for name in names if name not in found]
        if missing:
            lines = []
            for name in missing:
                near = model.objects.filter(**{f"{field}__iexact": name}).first()
                hint = f" (did you mean {near.get_username()!r}?)" if near else ""
                lines.append(f"No user is named {name!r}{hint}.")
            lines.append(
                "A designer needs an account first: they sign up on the site (Create an "
                "account), or an admin makes one in the admin pages (ADMIN_URL) or with manage.py "
                "createsuperuser. "
                "Nobody was changed."
            )
            raise CommandError("\n".join(lines))
        return [found[name] for name in dict.fromkeys(names)]

    def _list(self) -> None:
        members = get_user_model().objects.filter(groups__name=DESIGNERS_GROUP)
        names = sorted(u.get_username() for u in members)
        if not names:
            self.stdout.write("Nobody is in the designers group.")
            return
        for name in names:
            self.stdout.write(name)
