"""What ``manage.py serve`` runs under Granian (its ``asgi`` interface): the site's WSGI
application (amnesia_site/wsgi.py) in two pools of threads, so that a poll never waits behind
pages and moves (amnesia_site/lanes.py): THREADS for pages and moves, POLL_THREADS for polls."""

from amnesia_site.wsgi import application as wsgi_application  # isort: skip (sets Django up)

import sys

from django.conf import settings

from amnesia_site.lanes import Lanes

# A poll's turns at the interpreter come quickly beside threads rendering pages (settings).
sys.setswitchinterval(settings.SWITCH_INTERVAL_US / 1_000_000)

application = Lanes(wsgi_application, settings.THREADS, settings.POLL_THREADS)
