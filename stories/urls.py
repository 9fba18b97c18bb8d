from django.urls import path

from amnesia_site import converters  # noqa: F401 - registers <token:…>, <secret:…>, <key:…>
from stories import bundle_views, download_views, plays_views, views

app_name = "stories"

urlpatterns = [
    path("", views.archive, name="archive"),
    path("tables/<int:table_pk>/", views.for_table, name="for_table"),
    path("tables/<int:table_pk>/play.json", plays_views.table_play, name="table_play"),
    path("bundles/import/", bundle_views.bundle_import, name="bundle_import"),
    path("plays.json", plays_views.my_plays, {"fmt": "json"}, name="my_plays_json"),
    path("plays.csv", plays_views.my_plays, {"fmt": "csv"}, name="my_plays_csv"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/pdf/", views.pdf, name="pdf"),
    path("<int:pk>/pdf/status/", views.pdf_status, name="pdf_status"),
    path("<int:pk>/cover/", views.cover, name="cover"),
    path("<int:pk>/epub/", download_views.epub, name="epub"),
    path("<int:pk>/html/", download_views.single_html, name="single_html"),
    path("<int:pk>/pictures/<int:picture>/<key:size>/", views.picture, name="picture"),
    path("<int:pk>/edit/", views.edit, name="edit"),
    path("<int:pk>/publish/", views.publish, name="publish"),
    path("<int:pk>/new-link/", views.new_link, name="new_link"),
    path("<int:pk>/narration/<int:seq>/", views.narration, name="narration"),
    path("<int:pk>/narration/<int:seq>/revert/", views.revert, name="revert"),
    path("s/<secret:secret>/", views.shared, name="shared"),
    path("s/<secret:secret>/pdf/", views.shared_pdf, name="shared_pdf"),
    path("s/<secret:secret>/pdf/status/", views.shared_pdf_status, name="shared_pdf_status"),
    path("s/<secret:secret>/cover/", views.shared_cover, name="shared_cover"),
    path("s/<secret:secret>/epub/", download_views.shared_epub, name="shared_epub"),
    path("s/<secret:secret>/html/", download_views.shared_single_html, name="shared_single_html"),
    path(
        "s/<secret:secret>/pictures/<int:picture>/<key:size>/",
        views.shared_picture,
        name="shared_picture",
    ),
]
