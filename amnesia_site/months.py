"""The month names the site's dates print, in this project's catalogues.

Django's own Brazilian Portuguese catalogue capitalises the months ("1 de Dezembro de 2026"),
where Portuguese writes them in lower case ("1 de dezembro de 2026"). The project's catalogues
come first (``LOCALE_PATHS``), so these entries, the same English words Django's
``django.utils.dates.MONTHS`` looks up, decide how a date reads on every page, chart, PDF and
EPUB. Marked here so that ``makemessages`` keeps them (the Japanese entries are Django's own).
"""

from django.utils.translation import gettext_noop

MONTHS = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)
