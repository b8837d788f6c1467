from django.contrib.auth import views as auth_views
from django.urls import path

from chat import views

app_name = "chat"

urlpatterns = [
    path("", views.index, name="index"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("ask/", views.ask, name="ask_new"),
    path("c/new/", views.new_conversation, name="new"),
    path("c/<int:pk>/", views.conversation, name="conversation"),
    path("c/<int:pk>/ask/", views.ask, name="ask"),
    path("t/<int:pk>/feedback/", views.feedback, name="feedback"),
]
