"""Model fields the games need beyond Django's own."""

from __future__ import annotations

import json
from typing import Any

from django.db import models


class ExactJSONField(models.TextField):
    """JSON stored as text, so it comes back exactly as written.

    PostgreSQL's jsonb re-orders object keys (shortest first), so a state read back from
    it lists players in another order than SQLite or a fresh replay: pages that show
    ``gains`` or ``vp`` would differ by database. The state cache needs no JSON queries,
    only an exact round trip.
    """

    # For django-stubs: what is read and written is JSON's values, not the column's text.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value, expression, connection):
        return None if value is None else json.loads(value)

    def to_python(self, value):
        if isinstance(value, str):
            return json.loads(value)
        return value

    def get_prep_value(self, value):
        if value is None:
            return None
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def value_to_string(self, obj):
        return self.get_prep_value(self.value_from_object(obj)) or ""
