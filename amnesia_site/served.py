"""What ``manage.py serve`` runs under Granian (its ``asgi`` interface): the site's WSGI
application (amnesia_site/wsgi.py) in two pools of threads, so that a poll never waits behind
pages and moves (amnesia_site/lanes.py): THREADS for pages and moves, POLL_THREADS for polls."""

from amnesia_site.wsgi import application as wsgi_application  # isort: skip (sets Django up)

from django.conf import settings

from amnesia_site.lanes import Lanes

application = Lanes(wsgi_application, settings.THREADS, settings.POLL_THREADS)
