"""Migration operations of the project's own.

``AlterAtOnce`` applies a list of ``AlterField`` and ``AlterModelOptions`` operations that the
database does not see (labels, help texts, choices, ordering) as one. Each of Django's
operations re-renders the migration state after changing it: the model, and every model
related to it (for a foreign key, every model reachable through relations, which here is
nearly all of them, through the user model). The migrations that made the labels translatable
alter dozens of fields' ``verbose_name`` and ``help_text`` in a row, and rendering after each
one was most of the time a database took to migrate (and to migrate back, which re-renders
them twice). Applied as one, the state changes the same way, operation by operation, and is
re-rendered once, for the union of the models each operation would have re-rendered.

Only for what the database does not see: each operation's ``database_forwards`` is given the
state before the whole list and the state after it, and SQLite alters a field by rebuilding the
table from the model before, so a second real alteration of one table would undo the first.
``AlterAtOnce`` refuses a field alteration that the schema editor would carry out.
"""

from __future__ import annotations

from django.db import migrations


class AlterAtOnce(migrations.operations.base.Operation):
    """``AlterField`` and ``AlterModelOptions`` operations that the database does not see, each
    on its own target (a field or a model's options), applied together: the migration state is
    re-rendered once."""

    reversible = True
    reduces_to_sql = True
    KINDS = (migrations.AlterField, migrations.AlterModelOptions)

    def __init__(self, operations):
        targets: list[tuple[str, str | None]] = []
        for operation in operations:
            if not isinstance(operation, self.KINDS):
                raise TypeError(f"AlterAtOnce takes AlterField and AlterModelOptions: {operation}")
            if isinstance(operation, migrations.AlterField):
                targets.append((operation.model_name_lower, operation.name_lower))
            else:
                targets.append((operation.name_lower, None))
        if len(set(targets)) != len(targets):
            raise ValueError("AlterAtOnce: two operations alter the same target")
        self.operations = list(operations)

    def deconstruct(self):
        return self.__class__.__qualname__, [], {"operations": self.operations}

    def state_forwards(self, app_label, state):
        asked: list[tuple[tuple[str, str], bool]] = []

        def record(app, model, delay=False):
            asked.append(((app, model), delay))

        # ProjectState re-renders through self.reload_model: asked for here, done once below.
        state.reload_model = record
        try:
            for operation in self.operations:
                operation.state_forwards(app_label, state)
        finally:
            del state.reload_model
        state.reload_models(
            {key for key, _delay in asked}, delay=all(delay for _key, delay in asked)
        )

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        self._check_unseen(app_label, schema_editor, from_state, to_state)
        for operation in self.operations:
            operation.database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        self._check_unseen(app_label, schema_editor, to_state, from_state)
        for operation in reversed(self.operations):
            operation.database_backwards(app_label, schema_editor, from_state, to_state)

    def _check_unseen(self, app_label, schema_editor, before, after) -> None:
        """Every field alteration is one the schema editor skips (see the module's docstring)."""
        for operation in self.operations:
            if not isinstance(operation, migrations.AlterField):
                continue
            old, new = (
                state.apps.get_model(app_label, operation.model_name)._meta.get_field(
                    operation.name
                )
                for state in (before, after)
            )
            if schema_editor._field_should_be_altered(old, new):
                raise ValueError(
                    f"AlterAtOnce: {operation.describe()} changes the database; "
                    "only alterations it does not see may be applied at once"
                )

    def references_model(self, name, app_label):
        return any(op.references_model(name, app_label) for op in self.operations)

    def references_field(self, model_name, name, app_label):
        return any(op.references_field(model_name, name, app_label) for op in self.operations)

    def describe(self):
        return "; ".join(operation.describe() for operation in self.operations)

    @property
    def migration_name_fragment(self):
        return "alter_at_once"
