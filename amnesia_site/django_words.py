"""Django's own strings that this site's catalogues word otherwise.

Django translates them itself, but not as the site writes its languages: its Japanese label
colon is the ASCII ':' and its sign-up form's 'パスワード(確認用)' has ASCII brackets. The
catalogues in locale/ translate them again, and Django reads the project's catalogues first.
makemessages extracts only the project's code, so ``--no-obsolete`` dropped these entries
(the forms then said 'パスワード(確認用):'): marked here, they are extracted with the rest.
Nothing imports this module; it is read by xgettext only.
"""

from django.utils.translation import gettext_noop

DJANGO_WORDS = (
    gettext_noop(":"),  # django/forms/forms.py: the label suffix
    gettext_noop("Password confirmation"),  # django/contrib/auth/forms.py
    gettext_noop("New password confirmation"),  # django/contrib/auth/forms.py
)
