"""Phone and ID numbers in every Vietnamese form are masked before storage (issue 12.5); the
book's doses never are."""

import pytest

from chat.privacy import ID_MASK, PHONE_MASK, mask_personal_numbers


@pytest.mark.parametrize(
    "typed",
    [
        "0912345678",
        "0912 345 678",
        "0912.345.678",
        "0912-345-678",
        "0912  345  678",  # double spaces
        "+84 912 345 678",
        "+84912345678",
        "(+84) 912 345 678",
        "+84 (0) 912 345 678",
        "(028) 3822 1234",
        "028 3822 1234",
        "０９１２３４５６７８",  # fullwidth digits
    ],
)
def test_phone_numbers_are_masked(typed: str) -> None:
    masked = mask_personal_numbers(f"BN liên hệ {typed}, dùng paracetamol được không?")
    assert PHONE_MASK in masked
    assert not any(ch.isdigit() for ch in masked)


@pytest.mark.parametrize(
    "typed",
    [
        "001234567890",
        "001 234 567 890",
        "001.234.567.890",
        "CCCD001234567890",
        "CCCD: 001234567890",
        "CMND 123456789",
        "123 456 789",
        "123-456-789",
        "123.456.789",
    ],
)
def test_id_numbers_are_masked_whole(typed: str) -> None:
    masked = mask_personal_numbers(f"Người bệnh {typed} hỏi liều ibuprofen")
    assert ID_MASK in masked
    assert not any(ch.isdigit() for ch in masked)  # never half-masked


@pytest.mark.parametrize(
    "dose",
    [
        "1 500 mg",
        "10 000 000 đơn vị",
        "100 000 000 đơn vị/ngày",
        "0,5 - 1 g/lần, 4 - 6 giờ một lần",
        "2,4 g/ngày",
        "600 000 đơn vị/kg",
        "trẻ 2 - 4 tuổi: 180 mg",
        "Clcr 10 - 50 ml/phút",
        "7,5 mg/kg cách 8 giờ",
        "250 000 000 IU",
    ],
)
def test_doses_are_never_masked(dose: str) -> None:
    question = f"Liều {dose} có đúng không?"
    assert mask_personal_numbers(question) == question


P, ID = PHONE_MASK, ID_MASK
# Issue 19.5, both ways: the red team's unmasked formats and its false positives, as typed
# and as stored.
MASKING_TABLE = [
    ("gọi 0912345678 ngày mai", f"gọi {P} ngày mai"),
    ("SĐT 0912345678 tuần sau tái khám", f"SĐT {P} tuần sau tái khám"),
    ("0912345678 giờ nào cũng được", f"{P} giờ nào cũng được"),
    ("nhắn 0987654321 lần nữa", f"nhắn {P} lần nữa"),
    ("0912345678% pin", f"{P}% pin"),
    ("Tel.0912345678", f"Tel.{P}"),
    ("Tel. 0912 345 678", f"Tel. {P}"),
    ("BN,0912345678 hỏi liều", f"BN,{P} hỏi liều"),
    ("BN0912345678", f"BN{P}"),
    ("sđt0912345678", f"sđt{P}"),
    ("0084 912 345 678", P),
    ("0084912345678", P),
    ("(0084) 28 3822 1234", P),
    ("gọi 0912345678 12 giờ", f"gọi {P} 12 giờ"),
    ("CCCD 079123456789", ID),
    ("079 123 456 789", ID),
    # Never masked: doses, ranges, dates.
    ("150 000 - 200 000/ngày", "150 000 - 200 000/ngày"),
    ("100 000 - 200 000 đơn vị/kg/ngày", "100 000 - 200 000 đơn vị/kg/ngày"),
    ("300 000 - 600 000 mỗi ngày", "300 000 - 600 000 mỗi ngày"),
    ("500 000 – 1 000 000 đơn vị", "500 000 – 1 000 000 đơn vị"),
    ("1 000 000 000/ngày", "1 000 000 000/ngày"),
    ("0,25 - 0,5 - 0,75 - 1 mg", "0,25 - 0,5 - 0,75 - 1 mg"),
    ("0.5 0.75 1 1.5 2 mg", "0.5 0.75 1 1.5 2 mg"),
    ("uống lúc 05.12.2024 10.30", "uống lúc 05.12.2024 10.30"),
    ("từ 01.02.2023 - 05.02.2023", "từ 01.02.2023 - 05.02.2023"),
    ("2024-05-12 08 30", "2024-05-12 08 30"),
    ("ngày 12/05/2024 lúc 14:30", "ngày 12/05/2024 lúc 14:30"),
    ("1 500 000 000 IU", "1 500 000 000 IU"),
    ("giá 1.250.000.000 đồng", "giá 1.250.000.000 đồng"),
    ("1.250.000.000 VNĐ", "1.250.000.000 VNĐ"),
]


@pytest.mark.parametrize(("typed", "stored"), MASKING_TABLE)
def test_the_masking_table_both_ways(typed: str, stored: str) -> None:
    assert mask_personal_numbers(typed) == stored


def test_a_feedback_comment_is_stored_masked(client, django_user_model) -> None:  # type: ignore[no-untyped-def]
    from chat.conversation import ask_in_conversation
    from chat.models import Conversation, Feedback

    user = django_user_model.objects.create_user("bs_gop_y", password="x")
    client.force_login(user)
    turn = ask_in_conversation(Conversation.objects.create(user=user), "Liều paracetamol?")
    client.post(f"/t/{turn.pk}/feedback/", {"useful": "0", "comment": "gọi tôi 0912 345 678"})
    comment = Feedback.objects.get(turn=turn).comment
    assert "0912" not in comment and PHONE_MASK in comment


pytestmark = pytest.mark.django_db
