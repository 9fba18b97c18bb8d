from django.urls import path

from amnesia_site import converters  # noqa: F401 - registers <token:…>, <secret:…>, <key:…>
from games.playtests import lab_views, replay_views, study_views, views

app_name = "playtests"

urlpatterns = [
    path("", views.index, name="index"),
    path("tables/<int:pk>/", views.table_report, name="table_report"),
    path("tables/<int:pk>/pdf/", views.table_report_pdf, name="table_report_pdf"),
    path("tables/<int:pk>/sharing/", views.table_sharing, name="table_sharing"),
    path(
        "tables/<int:pk>/impressions/<int:position>/",
        views.gm_impression,
        name="gm_impression",
    ),
    path(
        "tables/<int:pk>/impressions/<int:position>/qr.svg",
        views.seat_impression_qr,
        name="seat_impression_qr",
    ),
    path("seat/<token:token>/impression/", views.seat_impression, name="seat_impression"),
    path("rulesets/<slug:game>/", views.rulesets, name="rulesets"),
    path("rulesets/version/<int:pk>/edit/", views.ruleset_edit, name="ruleset_edit"),
    path("rulesets/version/<int:pk>/pdf/", views.ruleset_pdf, name="ruleset_pdf"),
    path("dashboard/<slug:game>/", views.dashboard, name="dashboard"),
    path("dashboard/<slug:game>/export.csv", views.export_csv, name="export_csv"),
    path("dashboard/<slug:game>/export.json", views.export_json, name="export_json"),
    path("lab/<slug:game>/", lab_views.lab_page, name="lab"),
    path("lab/<slug:game>/study/", study_views.study_new, name="study_new"),
    path("studies/<int:pk>/", study_views.study_detail, name="study"),
    path("runs/<int:pk>/", lab_views.run_detail, name="run_detail"),
    path("runs/<int:pk>/games/", replay_views.game_open, name="run_game_open"),
    path("runs/<int:pk>/games/<int:number>/", replay_views.game_page, name="run_game"),
    path("runs/<int:pk>/cancel/", lab_views.run_cancel, name="run_cancel"),
    path("runs/<int:pk>/delete/", lab_views.run_delete, name="run_delete"),
    path("runs/<int:pk>/share/", lab_views.run_share, name="run_share"),
    path("runs/<int:pk>/compare/", lab_views.run_compare, name="run_compare"),
    path("runs/<int:pk>/save-ruleset/", lab_views.run_save_ruleset, name="run_save_ruleset"),
    path("runs/<int:pk>/export.<key:fmt>", lab_views.run_export, name="run_export"),
    path("external/<int:pk>/review/", views.review_external, name="review_external"),
    path("external/<int:pk>/publish/", views.publish_external, name="publish_external"),
    path("<slug:game>/published/", views.published, name="published"),
    path("report/<slug:game>/", views.public_report, name="public_report"),
    path("report/<slug:game>/v/<int:ruleset>/", views.public_report, name="public_report_for"),
]
