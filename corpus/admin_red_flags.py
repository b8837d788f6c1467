"""The red-flag table in the admin: reviewers add phrasings or switch defaults off."""

from django.contrib import admin

from corpus.admin_labels import UPDATED_AT, labelled
from corpus.admin_names import ReviewersEdit
from corpus.red_flag_models import RedFlag


@admin.register(RedFlag)
class RedFlagAdmin(ReviewersEdit, admin.ModelAdmin):
    list_display = ("phrase", "kind", "active", "note", UPDATED_AT)
    list_filter = ("kind", "active")
    search_fields = ("phrase", "note")
    form = labelled(RedFlag)
