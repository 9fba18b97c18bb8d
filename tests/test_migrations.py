"""The move of models out of the games app keeps every row, relation and permission.

``games`` 0005 and the first migrations of ``amnesia_stories``, ``contest`` and ``playtests``
change only the migration state: the tables keep their names, and the content types are
relabelled so that permissions and admin history follow the models. This test builds a
database at the old schema (games 0004, the new apps not yet migrated), fills it through the
historical models, migrates forward and reads everything back through the current models; then
it migrates back and forward again with the ``migrate`` command, and leaves the database fully
migrated for other tests.

Each round trip renders every migration state many times over (Django re-renders the related
models after each operation), so the checks share two round trips: games 0009's (sharing a
report becomes a choice) is made on the first one's way forward, where the database passes
through games 0008 anyway, and the command's rollback of games alone is the second. The label
migrations (games 0013, the apps' translatable labels) alter their fields in one
``AlterAtOnce`` each, which re-renders once where each ``AlterField`` re-rendered nearly every
model: a round trip went from about 8 s of CPU to 4.5 s.
"""

from __future__ import annotations

import datetime
import importlib
import io

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

# The old schema: games before the move, and the apps the models moved to not yet migrated
# (their 0001 depend on games 0005, so games 0004 alone rolls them back too; named anyway).
OLD_TARGETS = [
    ("games", "0004_state_cache_keeps_key_order"),
    ("amnesia_stories", None),
    ("contest", None),
    ("playtests", None),
]

# Moved model -> (old app label, new app label).
MOVED = {
    "customdeck": ("games", "amnesia_stories"),
    "customcard": ("games", "amnesia_stories"),
    "character": ("games", "contest"),
    "seatcharacter": ("games", "contest"),
    "playtestreport": ("games", "playtests"),
    "externalreport": ("games", "playtests"),
    "impression": ("games", "playtests"),
}

# The current model of each moved model, by its model name.
CURRENT_MODEL_PATHS = {
    "customdeck": ("games.amnesia_stories.models", "CustomDeck"),
    "customcard": ("games.amnesia_stories.models", "CustomCard"),
    "character": ("games.contest.models", "Character"),
    "seatcharacter": ("games.contest.models", "SeatCharacter"),
    "playtestreport": ("games.playtests.models", "PlaytestReport"),
    "externalreport": ("games.playtests.models", "ExternalReport"),
    "impression": ("games.playtests.models", "Impression"),
}


def migrate(targets) -> MigrationExecutor:
    """Migrate to ``targets`` and return a fresh executor (the old one's loader is stale)."""
    MigrationExecutor(connection).migrate(targets)
    ContentType.objects.clear_cache()
    return MigrationExecutor(connection)


def migrate_to_latest() -> MigrationExecutor:
    return migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def applied_state_apps(executor: MigrationExecutor):
    """The historical models of the migrations applied right now."""
    loader = executor.loader
    applied = [key for key in loader.applied_migrations if key in loader.graph.nodes]
    return loader.project_state(applied).apps


def current_model(name: str):
    module_path, class_name = CURRENT_MODEL_PATHS[name]
    return getattr(importlib.import_module(module_path), class_name)


def snapshot(model, ids) -> dict[int, dict]:
    """Every column of the given rows (attnames, so foreign keys are their ids)."""
    return {row["id"]: row for row in model.objects.filter(pk__in=ids).values()}


def fill_old_schema(apps) -> dict:
    """Rows of every moved model (and what they point to), made through the historical models."""
    User = apps.get_model("auth", "User")
    Table = apps.get_model("games", "Table")
    Seat = apps.get_model("games", "Seat")
    Ruleset = apps.get_model("games", "Ruleset")
    PlaytestReport = apps.get_model("games", "PlaytestReport")
    ExternalReport = apps.get_model("games", "ExternalReport")
    Impression = apps.get_model("games", "Impression")
    CustomDeck = apps.get_model("games", "CustomDeck")
    CustomCard = apps.get_model("games", "CustomCard")
    Character = apps.get_model("games", "Character")
    SeatCharacter = apps.get_model("games", "SeatCharacter")
    ContentType_ = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    LogEntry = apps.get_model("admin", "LogEntry")

    user = User.objects.create(username="migrated-designer", password="!")
    ruleset = Ruleset.objects.create(
        game="contest",
        name="Migration draft",
        version=2,
        options={"pretzels": 6, "order": ["b", "a"]},
        changelog="More pretzels.",
        created_by=user,
        owner=user,
    )
    table = Table.objects.create(
        name="Before the move",
        game="contest",
        options={"rounds": 3},
        seed=1234567,
        start_player="Ada",
        owner=user,
        ruleset=ruleset,
        status="finished",
    )
    ada = Seat.objects.create(table=table, position=0, name="Ada", user=user, token="tok-ada")
    bob = Seat.objects.create(table=table, position=1, name="Bob", token="tok-bob")

    report = PlaytestReport.objects.create(
        table=table,
        place="Club room",
        figures={"rounds": 3, "winner": "Ada"},
        computed_seq=17,
        computed_version=2,
        computed_at=datetime.datetime(2026, 11, 1, 20, 30, tzinfo=datetime.UTC),
    )
    external = ExternalReport.objects.create(
        game="contest",
        ruleset=ruleset,
        draft="",
        played_on=datetime.date(2026, 10, 31),
        place="Somewhere else",
        players=4,
        duration_minutes=75,
        outcome="Close finish.",
        approved=True,
        reviewed_at=datetime.datetime(2026, 11, 2, 9, 0, tzinfo=datetime.UTC),
        ip_hash="f" * 64,
    )
    scores = {"fun": 5, "length": 3, "clarity": 4, "downtime": 2, "decisions": 4, "again": 5}
    at_table = Impression.objects.create(
        report=report, seat=ada, player="Ada", best_moment="The last duel.", **scores
    )
    from_outside = Impression.objects.create(
        external=external, player="Cleo", change="Shorter rounds.", **scores
    )

    deck = CustomDeck.objects.create(owner=user, name="Harbour deck")
    cards = [
        CustomCard.objects.create(
            deck=deck,
            card_id=f"H{i}",
            text=f"Area {i}",
            image=f"decks/2026/11/h{i}.png",
            thumb=f"decks/2026/11/h{i}-thumb.png",
            position=i,
        )
        for i in (1, 2)
    ]

    character = Character.objects.create(
        owner=user, name="Grim", brains=4, muscle=2, moves=3, coolness=5, extra_points=1, bfa=True
    )
    link = SeatCharacter.objects.create(seat=ada, character=character, credited=True)

    # A content type and a custom permission for a moved model, as an old database has them:
    # one made afresh, so the test does not depend on what earlier migrations left behind.
    ContentType_.objects.filter(app_label__in=["games", "contest"], model="character").delete()
    character_type = ContentType_.objects.create(app_label="games", model="character")
    permission = Permission.objects.create(
        content_type=character_type, codename="referee_character", name="Can referee characters"
    )
    log_entry = LogEntry.objects.create(
        user=user,
        content_type=character_type,
        object_id=str(character.pk),
        object_repr="Grim",
        action_flag=1,
        change_message="[]",
    )
    # The other moved models' content types (left by the backwards migration or made here).
    for model in MOVED:
        ContentType_.objects.get_or_create(app_label="games", model=model)

    ids = {
        "customdeck": [deck.pk],
        "customcard": [card.pk for card in cards],
        "character": [character.pk],
        "seatcharacter": [link.pk],
        "playtestreport": [report.pk],
        "externalreport": [external.pk],
        "impression": [at_table.pk, from_outside.pk],
    }
    rows = {
        name: snapshot(apps.get_model("games", name), name_ids) for name, name_ids in ids.items()
    }
    return {
        "user": user.pk,
        "ruleset": ruleset.pk,
        "table": table.pk,
        "seats": {"ada": ada.pk, "bob": bob.pk},
        "ids": ids,
        "rows": rows,
        "character_type": character_type.pk,
        "permission": permission.pk,
        "log_entry": log_entry.pk,
        "type_ids": {
            model: ContentType_.objects.get(app_label="games", model=model).pk for model in MOVED
        },
    }


def check_current_models(made: dict) -> None:
    """Everything made at the old schema, read through the models as they are now."""
    from django.contrib.admin.models import LogEntry
    from django.contrib.auth.models import Permission, User

    from games.amnesia_stories.models import CustomDeck
    from games.contest.models import Character, SeatCharacter
    from games.models import Ruleset, Seat, Table
    from games.playtests.models import ExternalReport, Impression, PlaytestReport

    # Every column of every row, unchanged (columns added since, such as playtests 0002's
    # consent to publication, are not the move's business: their defaults are checked below).
    for name, name_ids in made["ids"].items():
        now = snapshot(current_model(name), name_ids)
        old_columns = {
            pk: {k: now[pk].get(k) for k in row} for pk, row in made["rows"][name].items()
        }
        assert old_columns == made["rows"][name], name

    # Relations, both ways, across the apps.
    user = User.objects.get(pk=made["user"])
    table = Table.objects.get(pk=made["table"])
    ada = Seat.objects.get(pk=made["seats"]["ada"])
    ruleset = Ruleset.objects.get(pk=made["ruleset"])

    report = table.playtest_report
    assert isinstance(report, PlaytestReport)
    assert report.figures == {"rounds": 3, "winner": "Ada"}
    at_table = report.impressions.get()
    assert (at_table.player, at_table.seat, at_table.best_moment) == ("Ada", ada, "The last duel.")
    assert (at_table.fun, at_table.again, at_table.external) == (5, 5, None)

    external = ruleset.external_reports.get()
    assert isinstance(external, ExternalReport)
    assert (external.players, external.duration_minutes, external.approved) == (4, 75, True)
    # sent before the form asked: nobody agreed to its publication
    assert (external.publish_consent, external.published) == (ExternalReport.Consent.NO, False)
    from_outside = external.impressions.get()
    assert (from_outside.player, from_outside.report, from_outside.seat) == ("Cleo", None, None)
    assert Impression.objects.filter(pk__in=made["ids"]["impression"]).count() == 2

    deck = user.custom_decks.get()
    assert isinstance(deck, CustomDeck)
    assert deck.status == CustomDeck.Status.READY  # made before decks were cleaned by workers
    assert [card.card_id for card in deck.cards.all()] == ["H1", "H2"]
    assert deck.cards.get(card_id="H2").image.name == "decks/2026/11/h2.png"

    character = user.characters.get()
    assert isinstance(character, Character)
    assert (character.name, character.coolness, character.bfa) == ("Grim", 5, True)
    link = ada.character_link
    assert isinstance(link, SeatCharacter)
    assert (link.character, link.credited) == (character, True)
    assert list(character.seats.all()) == [link]

    # The content types moved app, kept their ids, and kept what points at them.
    ContentType.objects.clear_cache()
    for model, (old, new) in MOVED.items():
        assert not ContentType.objects.filter(app_label=old, model=model).exists(), model
        moved_type = ContentType.objects.get(app_label=new, model=model)
        assert moved_type.pk == made["type_ids"][model], model
        assert moved_type.model_class() is current_model(model), model
    character_type = ContentType.objects.get_for_model(Character)
    assert character_type.pk == made["character_type"]
    permission = Permission.objects.get(pk=made["permission"])
    assert permission.content_type == character_type
    user.user_permissions.add(permission)
    assert user.has_perm("contest.referee_character")
    entry = LogEntry.objects.get(pk=made["log_entry"])
    assert entry.content_type == character_type
    assert entry.get_edited_object() == character

    # The constraints the moved models and their migration state declare exist in the database
    # under those names (so a later migration that alters or removes one finds it).
    state_apps = MigrationExecutor(connection).loader.project_state().apps
    with connection.cursor() as cursor:
        for name, (_old, new) in MOVED.items():
            model = current_model(name)
            in_database = connection.introspection.get_constraints(cursor, model._meta.db_table)
            for declared in (model, state_apps.get_model(new, name)):
                assert declared._meta.db_table == model._meta.db_table, name
                for constraint in [*declared._meta.constraints, *declared._meta.indexes]:
                    assert constraint.name in in_database, (name, constraint.name)
    # And the database enforces them.
    with pytest.raises(IntegrityError), transaction.atomic():
        Character.objects.create(owner=user, name="Grim")
    with pytest.raises(IntegrityError), transaction.atomic():
        deck.cards.create(card_id="H1", image="x.png", thumb="x.png")
    with pytest.raises(IntegrityError), transaction.atomic():
        Impression.objects.create(
            report=report, external=external, player="Both", **_scores(at_table)
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Impression.objects.create(report=report, player="Ada", **_scores(at_table))


def _scores(impression) -> dict:
    names = ("fun", "length", "clarity", "downtime", "decisions", "again")
    return {name: getattr(impression, name) for name in names}


def check_old_models(apps, made: dict) -> None:
    """After migrating back: the rows read through the old historical models, types back home."""
    for name, name_ids in made["ids"].items():
        assert snapshot(apps.get_model("games", name), name_ids) == made["rows"][name], name
    Seat = apps.get_model("games", "Seat")
    ada = Seat.objects.get(pk=made["seats"]["ada"])
    assert ada.character_link.character.name == "Grim"
    assert ada.impression_set.get().player == "Ada"
    Table = apps.get_model("games", "Table")
    assert Table.objects.get(pk=made["table"]).playtest_report.impressions.count() == 1

    ContentType_ = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    for model, (old, new) in MOVED.items():
        assert not ContentType_.objects.filter(app_label=new, model=model).exists(), model
        assert ContentType_.objects.get(app_label=old, model=model).pk == made["type_ids"][model]
    permission = Permission.objects.get(pk=made["permission"])
    assert permission.content_type.app_label == "games"
    assert permission.content_type.pk == made["character_type"]


# games 0009: sharing a report becomes a choice, and nobody made it for the tables before.
REPORT_SHARING_BEFORE = [("games", "0008_moves_hold_only_declared_fields")]
REPORT_SHARING_AFTER = [("games", "0009_report_sharing_is_opt_in")]


def check_report_sharing_is_opt_in() -> None:
    """games 0009, from games 0008 and back: every table made before is not shared; the six
    tables the demo command made for the demo account are shared by name; anything else on that
    account is not. Tables written at games 0008 through the historical models, read back
    through the current model after the migration; back at 0008, the column goes, the tables
    stay. Only games moves (0008 -> 0009 -> 0008): no other migration depends on 0009 yet."""
    from games.models import Table

    old = applied_state_apps(migrate(REPORT_SHARING_BEFORE))
    OldTable = old.get_model("games", "Table")
    assert "report_sharing" not in {f.name for f in OldTable._meta.get_fields()}
    User = old.get_model("auth", "User")
    Ruleset = old.get_model("games", "Ruleset")
    designer = User.objects.create(username="designer-before", password="!")
    gm = User.objects.create(username="gm-before", password="!")
    demo = User.objects.create(username="demo", password="!")
    draft = Ruleset.objects.create(game="contest", name="Old draft", owner=designer)

    def table(owner, name, **fields):
        return OldTable.objects.create(
            name=name, game="contest", owner=owner, start_player="Ada", **fields
        ).pk

    on_a_ruleset = table(gm, "Played on a designer's draft", ruleset=draft, status="finished")
    own_options = table(gm, "Own options", status="finished")
    demo_tables = [table(demo, "The stranger's ring"), table(demo, "Escape from station Nine")]
    visitor = table(demo, "A visitor's game on the demo account")
    someone_elses = table(gm, "The hero who forgot")  # a demo's name, not the demo's table
    made = [on_a_ruleset, own_options, *demo_tables, visitor, someone_elses]

    migrate(REPORT_SHARING_AFTER)

    sharing = dict(Table.objects.values_list("pk", "report_sharing"))
    not_shared = [on_a_ruleset, own_options, visitor, someone_elses]
    assert {sharing[pk] for pk in not_shared} == {Table.ReportSharing.PRIVATE}
    assert {sharing[pk] for pk in demo_tables} == {Table.ReportSharing.NAMES}
    # and back: the column goes, the tables stay
    old = applied_state_apps(migrate(REPORT_SHARING_BEFORE))
    OldTable = old.get_model("games", "Table")
    assert "report_sharing" not in {f.name for f in OldTable._meta.get_fields()}
    assert OldTable.objects.filter(pk__in=made).count() == 6


@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_moved_models_keep_their_rows_forward_and_back():
    """Two round trips between the old schema and the latest, which check what three did.

    The first through the executor: rows made at the old schema, then forward (stopping at games
    0008 and 0009 on the way, for ``check_report_sharing_is_opt_in``), read through the current
    models. The second through the ``migrate`` command, with its pre_ and post_migrate signals,
    as a person rolls back: ``migrate games 0004`` takes the new apps back too (their 0001 depend
    on games 0005) and the rows read through the old models, one content type per moved model,
    the same one, back under games; ``migrate`` forward again leaves one content type per moved
    model, the same one, under its new app (no duplicate under games that a later rollback of
    the new apps would collide with), and the rows read again through the current models. The
    database is left fully migrated for other tests, whatever fails."""
    new_labels = {"amnesia_stories", "contest", "playtests"}
    try:
        executor = migrate(OLD_TARGETS)
        old_apps = applied_state_apps(executor)
        # The old schema really is the old one: the models live in games only.
        assert old_apps.get_model("games", "Character")._meta.db_table == "games_character"
        assert not [m for m in old_apps.get_models() if m._meta.app_label in new_labels]
        made = fill_old_schema(old_apps)

        check_report_sharing_is_opt_in()
        migrate_to_latest()
        check_current_models(made)

        call_command("migrate", "games", OLD_TARGETS[0][1], verbosity=0)
        ContentType.objects.clear_cache()
        executor = MigrationExecutor(connection)
        assert not new_labels & {app for app, _name in executor.loader.applied_migrations}
        check_old_models(applied_state_apps(executor), made)
        for model, (old, _new) in MOVED.items():
            assert ContentType.objects.get(app_label=old, model=model).pk == made["type_ids"][model]
    finally:
        # Whatever failed above, other tests need the latest schema.
        call_command("migrate", verbosity=0)
        ContentType.objects.clear_cache()
    check_current_models(made)
    for model, (old, new) in MOVED.items():
        assert not ContentType.objects.filter(app_label=old, model=model).exists(), model
        assert ContentType.objects.get(app_label=new, model=model).pk == made["type_ids"][model]
    executor = MigrationExecutor(connection)
    assert not executor.migration_plan(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db
def test_models_and_migrations_agree():
    """No model change is waiting for a migration (the moved models' state matches them)."""
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit:
        pytest.fail(f"Models changed without a migration:\n{out.getvalue()}")


def rendered(apps) -> list:
    """Every rendered model as the migrations see it: its fields (serialized as a migration
    writes them, with their labels), options, and whether each relation points at the model
    registered now (a stale class left behind by a partial re-render would not)."""
    from django.db.migrations.writer import MigrationWriter

    def written(value) -> str:
        return MigrationWriter.serialize(value)[0]

    out = []
    for model in apps.get_models(include_auto_created=True):
        fields = [
            (
                f.name,
                written(f),
                str(f.verbose_name),
                f.related_model is None
                or f.related_model is apps.get_model(f.related_model._meta.label),
            )
            for f in model._meta.get_fields(include_hidden=True)
            if hasattr(f, "deconstruct")
        ]
        options = {k: v for k, v in model._meta.original_attrs.items() if k != "apps"}
        out.append((model._meta.label, fields, written(options), str(model._meta.verbose_name)))
    return sorted(out)


def test_operations_altered_at_once_leave_the_state_one_by_one_would():
    """AlterAtOnce (games 0013 and the apps' translatable labels) re-renders the state once: the
    models it leaves are those its operations leave one by one, labels and relations included;
    and it takes only operations on distinct targets that it knows how to apply together."""
    from django.db import migrations, models
    from django.db.migrations.loader import MigrationLoader

    from amnesia_site.migration_operations import AlterAtOnce

    loader = MigrationLoader(None, ignore_no_migrations=True)
    key = ("games", "0013_table_language_and_labels")
    before = loader.graph.make_state([parent.key for parent in loader.graph.node_map[key].parents])
    for operation in loader.graph.nodes[key].operations:
        if not isinstance(operation, AlterAtOnce):
            operation.state_forwards("games", before)
    (at_once,) = [op for op in loader.graph.nodes[key].operations if isinstance(op, AlterAtOnce)]
    assert len(at_once.operations) > 20
    assert before.apps.get_model("games", "Move")  # rendered, as the executor has it
    together, one_by_one = before.clone(), before.clone()
    at_once.state_forwards("games", together)
    for operation in at_once.operations:
        operation.state_forwards("games", one_by_one)
    assert together.models == one_by_one.models
    assert rendered(together.apps) == rendered(one_by_one.apps)
    assert rendered(together.apps) != rendered(before.apps)  # the labels did change

    label = migrations.AlterField("move", "at", models.DateTimeField(verbose_name="at"))
    with pytest.raises(ValueError, match="same target"):
        AlterAtOnce([label, label])
    with pytest.raises(TypeError):
        AlterAtOnce([migrations.AddField("move", "x", models.IntegerField(default=0))])


def test_operations_altered_at_once_refuse_what_the_database_sees():
    """AlterAtOnce hands each operation the states before and after the whole list, which is
    right only for alterations the database skips: one it would carry out is refused."""
    from django.db import migrations, models
    from django.db.migrations.loader import MigrationLoader

    from amnesia_site.migration_operations import AlterAtOnce

    state = MigrationLoader(None, ignore_no_migrations=True).project_state()
    after = state.clone()
    longer = migrations.AlterField(
        "move", "kind", models.CharField(default="move", max_length=200, verbose_name="kind")
    )
    at_once = AlterAtOnce([longer])
    at_once.state_forwards("games", after)
    editor = connection.SchemaEditorClass(connection, collect_sql=True)  # never entered
    with pytest.raises(ValueError, match="changes the database"):
        at_once.database_forwards("games", editor, state, after)
    with pytest.raises(ValueError, match="changes the database"):
        at_once.database_backwards("games", editor, after, state)
