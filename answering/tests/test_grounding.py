"""Deterministic grounding: per-citation binding, verbatim numbers, real citations."""

from answering.grounding import verify

DOSE = "Người lớn: 0,5 - 1 g/lần, 4 - 6 giờ một lần; tối đa là 4 g/ngày."
CHILD = "Trẻ em 2 - 4 tuổi: 180 mg; Trẻ em 4 - 6 tuổi: 240 mg."
LOADING = "Liều nạp 7,5 mg/kg, sau đó 1 500 mg/ngày."


def test_a_claim_whose_numbers_are_in_its_cited_block_passes() -> None:
    result = verify(
        "Người lớn uống 0,5 - 1 g/lần, tối đa 4 g/ngày [1]. Trẻ 2 - 4 tuổi: 180 mg [2].",
        [DOSE, CHILD],
    )
    assert result.ok, result
    assert [c.citations for c in result.claims] == [(1,), (2,)]


def test_a_number_attributed_to_the_wrong_block_is_rejected() -> None:
    result = verify("Trẻ em 2 - 4 tuổi dùng 180 mg [1].", [DOSE, CHILD])
    assert not result.ok and result.reason == "ungrounded_number"


def test_numbers_are_compared_character_for_character() -> None:
    assert verify("Liều nạp 7,5 mg/kg [1].", [LOADING]).ok
    assert verify("Liều nạp 7.5 mg/kg [1].", [LOADING]).reason == "ungrounded_number"
    assert verify("Liều nạp 75 mg/kg [1].", [LOADING]).reason == "ungrounded_number"
    assert verify("Sau đó 1.500 mg/ngày [1].", [LOADING]).reason == "ungrounded_number"
    assert verify("Sau đó 1500 mg/ngày [1].", [LOADING]).reason == "ungrounded_number"
    assert verify("Sau đó 1 500 mg/ngày [1].", [LOADING]).ok


def test_a_citation_index_outside_the_evidence_is_invalid() -> None:
    assert verify("Tối đa 4 g/ngày [3].", [DOSE, CHILD]).reason == "invalid_citation"
    assert verify("Tối đa 4 g/ngày [0].", [DOSE]).reason == "invalid_citation"


def test_an_uncited_trailing_claim_is_rejected() -> None:
    result = verify("Tối đa 4 g/ngày [1]. Thuốc an toàn cho phụ nữ có thai.", [DOSE])
    assert not result.ok and result.reason == "uncited_claim"


def test_trailing_punctuation_is_not_a_claim_and_groups_bind_several_blocks() -> None:
    result = verify("Người lớn tối đa 4 g/ngày; trẻ 2 - 4 tuổi 180 mg [1][2].", [DOSE, CHILD])
    assert result.ok and result.claims[0].citations == (1, 2)


def test_an_answer_without_any_citation_is_uncited() -> None:
    assert verify("Dùng 4 g/ngày.", [DOSE]).reason == "uncited_claim"
