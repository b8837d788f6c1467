"""The name tables are validated like the book (issue 19.3): the red team's hijacks refused,
with the reason in Vietnamese, in `check_name` and in the admin's forms; ordinary names and
abbreviations still saved."""

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client

from corpus.models import Abbreviation, Alias, Drug
from corpus.name_rules import check_name

pytestmark = pytest.mark.django_db


def _refusal(name: str, **target: object) -> str:
    with pytest.raises(ValidationError) as error:
        check_name(name, **target)  # type: ignore[arg-type]
    return " ".join(error.value.messages)


@pytest.mark.parametrize(
    ("short", "expansion", "reason"),
    [
        ("LIỀU", "tương tác thuốc", "đã được hiểu là mục «Liều lượng và cách dùng»"),
        ("NL", "trẻ em", "đã được hiểu là đối tượng «người lớn»"),
        ("TTT", "tuong tac thuoc", "Sách không in: «tuong», «tac», «thuoc»"),
        ("VLDD", "viêm loét xyzabc", "Sách không in: «xyzabc»"),
        ("BỆNH", "viêm khớp dạng thấp", "là từ thông dụng của sách"),
        ("PCM", "warfarin", "là tên gọi của PARACETAMOL"),
    ],
)
def test_an_abbreviation_that_rewrites_the_question_is_refused(
    short: str, expansion: str, reason: str
) -> None:
    assert reason in _refusal(short, expansion=expansion)


@pytest.mark.parametrize(
    ("short", "expansion"),
    [
        ("VLDDTT", "viêm loét dạ dày tá tràng"),
        ("VKDT", "viêm khớp dạng thấp"),
        ("NL", "người lớn"),  # what the table already reads: nothing changes
        ("THA", "tăng huyết áp"),
    ],
)
def test_an_abbreviation_in_the_books_words_is_accepted(short: str, expansion: str) -> None:
    check_name(short, expansion=expansion)


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("Kunrolac", "là biệt dược của Ketorolac (mục lục sách, tr. 867)"),  # not loaded
        ("Panadol", "đã là tên gọi của PARACETAMOL"),
        ("Lasix", "đã là tên gọi của FUROSEMID"),  # corpus/data/vn_brands.csv
        ("liều", "là cụm từ chỉ mục «Liều lượng và cách dùng»"),
        ("người lớn", "là cụm từ chỉ đối tượng «người lớn»"),
        ("chảy máu", "là từ thông dụng của sách"),
        ("tiêm bắp", "đường dùng «tiêm bắp»"),
        ("natri", "là từ thông dụng của sách"),  # in WARFARIN NATRI's INN, and every salt's
    ],
)
def test_an_alias_that_would_answer_with_the_wrong_drug_is_refused(name: str, reason: str) -> None:
    assert reason in _refusal(name, drug=Drug.objects.get(drug_id="warfarin"))


@pytest.mark.parametrize(
    ("drug_id", "name"),
    [
        ("warfarin", "Coumadine BV"),
        ("warfarin", "Warfarin natri"),  # its own name, printed in many monographs
        ("paracetamol", "Panadol"),  # its own brand
        ("xanh_methylen", "Methylene blue BV"),
        ("paracetamol", "Panadol Children"),  # a brand holding a population word
    ],
)
def test_a_name_of_that_drug_is_accepted(drug_id: str, name: str) -> None:
    check_name(name, drug=Drug.objects.get(drug_id=drug_id))


def test_a_drug_page_with_the_books_own_names_saves_and_only_typed_names_are_judged(
    reviewer: User,
) -> None:
    """The book's aliases on the drug page are not re-judged (one of them may be a common
    word the rules would refuse today); the one typed now is."""
    client = Client()
    client.force_login(reviewer)
    drug = Drug.objects.get(drug_id="warfarin")
    aliases = list(Alias.objects.filter(drug=drug).order_by("id"))
    data: dict[str, object] = {
        "inn": drug.inn,
        "atc_codes": '["' + '", "'.join(drug.atc_codes) + '"]',
        "drug_class": drug.drug_class,
        "page_start": drug.page_start,
        "page_end": drug.page_end,
        "sections-TOTAL_FORMS": "0",
        "sections-INITIAL_FORMS": "0",
        "aliases-TOTAL_FORMS": str(len(aliases) + 1),
        "aliases-INITIAL_FORMS": str(len(aliases)),
    }
    for n, alias in enumerate(aliases):
        data |= {
            f"aliases-{n}-id": alias.pk,
            f"aliases-{n}-drug": drug.pk,
            f"aliases-{n}-name": alias.name,
            f"aliases-{n}-kind": alias.kind,
            f"aliases-{n}-source_page": alias.source_page or "",
        }
    new = len(aliases)
    data |= {f"aliases-{new}-name": "liều", f"aliases-{new}-kind": "curated"}
    page = client.post(f"/admin/corpus/drug/{drug.pk}/change/", data)
    assert page.status_code == 200 and "«liều» là cụm từ chỉ mục" in page.content.decode()
    data[f"aliases-{new}-name"] = "Wafa BV mới"
    data["aliases-0-name"] = f"{aliases[0].name} BV"  # a book name renamed on the same page
    assert client.post(f"/admin/corpus/drug/{drug.pk}/change/", data).status_code == 302
    assert Alias.objects.filter(drug=drug, name="Wafa BV mới").exists()
    history = LogEntry.objects.get(object_id=str(drug.pk)).get_change_message()
    assert f"{aliases[0].name!r} → {aliases[0].name + ' BV'!r}" in history


def test_the_admin_forms_refuse_in_vietnamese_and_save_nothing(reviewer: User) -> None:
    client = Client()
    client.force_login(reviewer)
    hijack = {"short": "LIỀU", "expansion": "tương tác thuốc", "note": ""}
    page = client.post("/admin/corpus/abbreviation/add/", hijack)
    assert page.status_code == 200
    assert "«LIỀU» đã được hiểu là mục «Liều lượng và cách dùng»" in page.content.decode()
    assert not Abbreviation.objects.filter(short="LIỀU").exists()
    warfarin = Drug.objects.get(drug_id="warfarin")
    brand = {"drug": warfarin.pk, "name": "Kunrolac", "kind": "curated", "source_page": ""}
    page = client.post("/admin/corpus/alias/add/", brand)
    assert page.status_code == 200 and "biệt dược của Ketorolac" in page.content.decode()
    assert not Alias.objects.filter(name="Kunrolac").exists()
    ok = {"short": "VLDDTT", "expansion": "viêm loét dạ dày tá tràng", "note": ""}
    assert client.post("/admin/corpus/abbreviation/add/", ok).status_code == 302
    again = client.post("/admin/corpus/abbreviation/add/", {**ok, "short": "vlddtt"})
    assert "trùng với viết tắt đã có: VLDDTT" in again.content.decode()
    assert Abbreviation.objects.filter(short__iexact="vlddtt").count() == 1
