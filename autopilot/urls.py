from django.urls import path

from autopilot import views

urlpatterns = [
    path("e/<slug:slug>/register/", views.register, name="autopilot_register"),
    path("e/<slug:slug>/absence/<int:number>/", views.absence, name="autopilot_absence"),
    path("e/<slug:slug>/arbiter/runs-itself/", views.settings_page, name="autopilot_settings"),
    path("e/<slug:slug>/arbiter/runs-itself/<str:what>/", views.action,
         name="autopilot_action"),
]
