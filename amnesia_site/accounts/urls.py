"""The accounts' own pages (no namespace: ``signup`` is the name Django's templates expect)."""

from django.urls import path

from amnesia_site.accounts import views

urlpatterns = [
    path("signup/", views.SignupView.as_view(), name="signup"),
    path("profile/", views.profile, name="profile"),
    path("demo/", views.demo_login, name="demo_login"),
]
