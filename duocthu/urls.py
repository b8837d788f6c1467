from django.contrib import admin
from django.urls import include, path

from answering.views import metrics

urlpatterns = [
    path("admin/", admin.site.urls),
    path("metrics", metrics, name="metrics"),
    path("", include("chat.urls")),
]
