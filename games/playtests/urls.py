from django.urls import path

from amnesia_site import converters  # noqa: F401 - registers <token:…>, <secret:…>, <key:…>
from games.playtests import (
    dashboard_views,
    external_views,
    lab_views,
    replay_views,
    report_views,
    ruleset_views,
    study_views,
)

app_name = "playtests"

urlpatterns = [
    path("", report_views.index, name="index"),
    path("tables/<int:pk>/", report_views.table_report, name="table_report"),
    path("tables/<int:pk>/pdf/", report_views.table_report_pdf, name="table_report_pdf"),
    path("tables/<int:pk>/sharing/", report_views.table_sharing, name="table_sharing"),
    path(
        "tables/<int:pk>/impressions/<int:position>/",
        report_views.gm_impression,
        name="gm_impression",
    ),
    path(
        "tables/<int:pk>/impressions/<int:position>/qr.svg",
        report_views.seat_impression_qr,
        name="seat_impression_qr",
    ),
    path("seat/<token:token>/impression/", report_views.seat_impression, name="seat_impression"),
    path("rulesets/<slug:game>/", ruleset_views.rulesets, name="rulesets"),
    path("rulesets/version/<int:pk>/edit/", ruleset_views.ruleset_edit, name="ruleset_edit"),
    path("rulesets/version/<int:pk>/pdf/", dashboard_views.ruleset_pdf, name="ruleset_pdf"),
    path("dashboard/<slug:game>/", dashboard_views.dashboard, name="dashboard"),
    path("dashboard/<slug:game>/export.csv", dashboard_views.export_csv, name="export_csv"),
    path("dashboard/<slug:game>/export.json", dashboard_views.export_json, name="export_json"),
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
    path("external/<int:pk>/review/", external_views.review_external, name="review_external"),
    path("external/<int:pk>/publish/", external_views.publish_external, name="publish_external"),
    path("<slug:game>/published/", external_views.published, name="published"),
    path("report/<slug:game>/", external_views.public_report, name="public_report"),
    path(
        "report/<slug:game>/v/<int:ruleset>/",
        external_views.public_report,
        name="public_report_for",
    ),
]
