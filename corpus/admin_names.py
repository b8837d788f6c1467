"""The name tables in the admin: aliases and abbreviations decide which monograph answers,
so only the reviewer group edits them, a name of another drug is refused, and every edit
moves the catalog stamp."""

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from corpus.access import is_reviewer
from corpus.admin_labels import CHOICES, UPDATED_AT, column, labels_for, titled
from corpus.models import Abbreviation, Alias
from corpus.name_rules import check_name
from corpus.text import fold


class AliasForm(forms.ModelForm):
    """A name that would take questions to the wrong drug is refused, saying why
    (corpus/name_rules.py): "Panadol" added to WARFARIN made a paracetamol dose question
    cite warfarin too."""

    class Meta:
        model = Alias
        fields = ("drug", "name", "kind", "source_page")
        labels = labels_for(Alias, name="tên gọi", kind="loại tên")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        drug = data.get("drug") or getattr(self.instance, "drug", None)
        # Only what was typed now: the book's own names on the same page are not re-judged.
        if {"name", "drug"} & set(self.changed_data) and data.get("name") and drug is not None:
            check_name(data["name"], drug=drug)
        return data


class AbbreviationForm(forms.ModelForm):
    """An abbreviation that rewrites a common word, a section, population or route phrase or
    a drug name, or one not written in the book's words, is refused, saying why."""

    class Meta:
        model = Abbreviation
        fields = ("short", "expansion", "note")
        labels = labels_for(Abbreviation)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        typed = {"short", "expansion"} & set(self.changed_data)
        if typed and data.get("short") and data.get("expansion"):
            check_name(data["short"], expansion=data["expansion"])
            # Questions are read folded and in capitals: "vlddtt" is the same key as "VLDDTT".
            key = fold(data["short"]).upper()
            others = Abbreviation.objects.exclude(pk=self.instance.pk)
            same = [a for a in others if fold(a.short).upper() == key]
            if same:
                raise forms.ValidationError(
                    {"short": f"«{data['short']}» trùng với viết tắt đã có: {same[0]}."}
                )
        return data


class ReviewersEdit:
    """Names, abbreviations, drug and book-index rows decide which monograph answers: only
    the reviewer group edits them, and each change is a row of the admin's history that
    keeps every changed field's value before and after."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_reviewer(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_reviewer(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_reviewer(request.user)

    def construct_change_message(
        self, request: HttpRequest, form: Any, formsets: Any, add: bool = False
    ) -> list[dict[str, Any]]:
        """Django's message with each changed field as «label: before → after», for the row
        and its inline rows (Django's own names only the fields, losing what the row said)."""
        message: list[dict[str, Any]] = super().construct_change_message(  # type: ignore[misc]
            request, form, formsets, add
        )
        inline = {str(f.instance): f for fs in formsets or [] for f in fs.initial_forms}
        for part in message:
            changed = part.get("changed")
            if changed is None:
                continue
            source = inline.get(changed.get("object", "")) if "name" in changed else form
            if source is not None and source.changed_data:
                changed["fields"] = [
                    f"{source.fields[name].label or name}: {source.initial.get(name)!r} → "
                    f"{source.cleaned_data.get(name)!r}"
                    for name in source.changed_data
                    if name in source.fields
                ]
        return message


class AliasInline(ReviewersEdit, admin.TabularInline):
    model = Alias
    form = AliasForm
    fields = ("name", "kind", "source_page")
    extra = 1


@admin.register(Alias)
class AliasAdmin(ReviewersEdit, admin.ModelAdmin):
    form = AliasForm

    def save_model(self, request: HttpRequest, obj: Alias, form: Any, change: bool) -> None:
        from corpus.text import folded_phrase

        obj.folded = folded_phrase(obj.name)  # the form it is matched by
        super().save_model(request, obj, form, change)

    list_display = (
        column("name", "tên gọi"),
        column("drug"),
        column("kind", "loại tên"),
        column("source_page"),
    )
    list_filter = (("kind", titled("loại tên", CHOICES)),)
    list_select_related = ("drug",)
    search_fields = ("name", "folded", "drug__drug_id")


@admin.register(Abbreviation)
class AbbreviationAdmin(ReviewersEdit, admin.ModelAdmin):
    form = AbbreviationForm
    list_display = ("short", "expansion", "note", UPDATED_AT)
    search_fields = ("short", "expansion")
