"""A drug of a named class (answering/shapes/class_drug.py), and the line a which-drug list
shows for each drug (the one saying the condition, not its first indication).

The shape is one module, one registry line and these tests (issue 17). Wordings of the kind
"ngộ độc X … thuốc <class> nào có chỉ định …", written for the tests (not the outside sets'
lines); the class's drugs come from the book's ATC codes and "Loại thuốc" lines."""

import pytest

from answering.floors import in_view
from answering.reading import read
from answering.shapes import candidates, class_drug
from answering.turn import answer_turn
from retrieval.classes import class_members, classes_said

pytestmark = pytest.mark.django_db

LISTED = "Các thuốc Dược thư ghi chỉ định"


def _text(blocks) -> str:  # type: ignore[no-untyped-def]
    return " ".join(text for b in blocks for text, _ in b.claims)


def test_a_class_is_read_with_the_diacritics_typed_and_the_longest_phrasing() -> None:
    anticonvulsants = [c.name for c in classes_said("thuốc chống động kinh nào")]
    assert anticonvulsants == ["thuốc chống động kinh"]  # not "thuốc chống đông"
    assert [c.name for c in classes_said("thuoc chong dong kinh nao")] == anticonvulsants
    assert "thuốc chống đông kháng vitamin K" in [
        c.name for c in classes_said("thuốc chống đông nào")
    ]
    members = class_members(classes_said("thuốc chống động kinh")[0])
    assert {"phenytoin", "carbamazepin", "acid_valproic"} <= set(members)
    assert "digoxin" not in members


@pytest.mark.parametrize(
    "question",
    [
        "Ngộ độc digoxin, ECG nhịp nhanh thất, lidocain không cắt được. Có thuốc chống động "
        "kinh nào dùng được cho loạn nhịp này không?",
        "bn ngo doc digoxin, nhip nhanh that ko dap ung. thuoc chong dong kinh nao co chi dinh?",
    ],
)
def test_a_poisoning_story_asking_for_a_drug_of_another_class_lists_it_and_keeps_the_poison(
    question: str,
) -> None:
    result = answer_turn(question)
    assert result.decision == "answer", result.reason
    shown = in_view(result.blocks)
    listed = next(b for b in shown if b.title == LISTED)
    assert listed.claims[0][0].startswith("PHENYTOIN: ")
    assert "nhiễm độc digitalis" in listed.claims[0][0]
    # The story's drug is not dropped: its overdose section is in view.
    assert any(b.drug_id == "digoxin" and b.section_key == "qua_lieu_va_xu_tri" for b in shown), [
        b.title for b in shown
    ]


def test_a_class_asked_without_a_drug_named_lists_only_its_drugs() -> None:
    result = answer_turn(
        "Chảy máu nặng sau khi dùng quá liều thuốc tiêu huyết khối: thuốc cầm máu nào có chỉ định?"
    )
    listed = next(b for b in in_view(result.blocks) if b.title == LISTED)
    assert listed.claims[0][0].startswith("ACID TRANEXAMIC: ")
    assert "quá liều thuốc làm tiêu huyết khối" in listed.claims[0][0]


def test_the_patients_medicine_is_the_context_of_a_class_listing() -> None:
    result = answer_turn(
        "BN đang dùng warfarin bị đau khớp, thuốc chống viêm không steroid nào dùng được?"
    )
    listed = next(b for b in in_view(result.blocks) if b.title == LISTED)
    nsaids = set(class_members(classes_said("thuốc chống viêm không steroid")[0]))
    assert set(result.frame.drugs) <= nsaids and result.frame.drugs
    assert all(text.split(":")[0] != "WARFARIN" for text, _ in listed.claims)
    # Each one's interaction with warfarin is in view under the list.
    assert "warfarin" in _text(b for b in in_view(result.blocks) if b.title != LISTED).lower()


@pytest.mark.parametrize(
    "question",
    [
        # The named drug is of the class asked: no other drug is asked for.
        "Acid valproic và thuốc chống động kinh nào khác dùng được cho phụ nữ có thai?",
        # A class asked with the named drug, as an interaction: the drug's own lines answer.
        "Warfarin dùng chung với thuốc chống viêm không steroid nào thì ít nguy cơ chảy máu?",
        "Omeprazol có tương tác với thuốc chống đông nào không?",
        "Phenytoin tương tác với thuốc chống nấm azol nào?",
        # "bất cứ … nào" is any drug of the class: a contraindication told of the named drug.
        "Diclofenac dùng cho BN đang dùng bất cứ thuốc chống đông máu nào được không?",
        # A class said as what a germ resists, then "não" (brain), is asked for by no one.
        "Kháng sinh nào dùng cho nhiễm tụ cầu kháng penicilin như áp xe não?",
    ],
)
def test_no_class_reading_where_none_is_asked_for(question: str) -> None:
    assert class_drug.recognise(read(question)) == []
    assert all(c.shape != "class_drug" for c in candidates(read(question)))


@pytest.mark.parametrize(
    ("question", "drug", "line"),
    [
        # Each drug's listed line is the unit saying the condition, not its first indication.
        (
            "Co thuoc nao dung tai cho duoc cho hoi chung kho mat, Sjogren kem tiet chat nhay "
            "bat thuong khong?",
            "ACETYLCYSTEIN",
            "khô mắt",
        ),
        (
            "Nghi u tuy thuong than (pheochromocytoma), thuoc nao dung lam test chan doan THA do "
            "u te bao ua crom?",
            "CLONIDIN",
            "u tế bào ưa crôm",
        ),
        (
            "Bé được chẩn đoán bệnh Kawasaki, thuốc nào được chỉ định?",
            "ACID ACETYLSALICYLIC",
            "Kawasaki",
        ),
        ("Thuốc nào dùng điều trị đái tháo đường typ 2?", "INSULIN", "typ 2"),
    ],
)
def test_a_listed_drugs_line_says_the_condition(question: str, drug: str, line: str) -> None:
    result = answer_turn(question)
    listed = next(b for b in in_view(result.blocks) if b.title == LISTED)
    said = [text for text, _ in listed.claims if text.startswith(drug)]
    assert said and line.lower() in said[0].lower(), listed.claims


@pytest.mark.parametrize(
    ("question", "drug", "lines"),
    [
        # Two uses asked of one drug: its line for each, the first drug listed twice.
        (
            "Thuốc nào vừa dùng trong hội chứng Kawasaki, vừa có chỉ định dự phòng nhồi máu cơ tim?",
            "ACID ACETYLSALICYLIC",
            ["Kawasaki", "nhồi máu cơ"],
        ),
        (
            "Có thuốc nào vừa làm tan sỏi mật cholesterol, vừa dùng trong hội chứng "
            "Smith-Lemli-Opitz không?",
            "ACID CHENODEOXYCHOLIC",
            ["Smith-Lemli-Opitz", "làm tan sỏi mật cholesterol"],
        ),
    ],
)
def test_the_first_drugs_other_line_comes_for_what_its_first_leaves_out(
    question: str, drug: str, lines: list[str]
) -> None:
    listed = next(b for b in in_view(answer_turn(question).blocks) if b.title == LISTED)
    own = [text for text, _ in listed.claims if text.startswith(drug)]
    assert all(any(line in text for text in own) for line in lines), listed.claims
