"""The site over ASGI: its pages (Django's handler) and the push's websockets (games/push.py).

``make run`` serves this through Daphne's runserver (ASGI_APPLICATION); ``make serve`` serves
amnesia_site/served.py, which routes the websockets here too and the pages through its lanes.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "amnesia_site.settings")

django_application = get_asgi_application()  # sets Django up before the push is imported

from channels.routing import ProtocolTypeRouter  # noqa: E402

from games import followers  # noqa: E402

websockets = followers.application()
application = ProtocolTypeRouter({"http": django_application, "websocket": websockets})
