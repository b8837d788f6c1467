"""Issue 11 on the real corpus: the situation found wherever the book says it, the answering
sentence first with its label, doses in the book's own bands, reverse lookup with the table
of abbreviations, interactions found by a drug's class, and the pregnancy and breast-feeding
facets of a patient's case."""

import re

import pytest

from answering.delivery import delivery
from answering.turn import answer_turn
from answering.units import units
from corpus.models import Chunk, Drug
from corpus.text import folded_phrase
from retrieval.classes import class_words, classes_of
from retrieval.retrieve import SITUATION_SECTIONS

pytestmark = pytest.mark.django_db


def ask(question: str):  # type: ignore[no-untyped-def]
    return answer_turn(question, provider=None)


def _lead(result) -> list[str]:  # type: ignore[no-untyped-def]
    first = result.blocks[0]
    assert not first.collapsed
    return [text for text, _ in first.claims]


# A situation in a section other than the one routed ---------------------------------------


def test_a_child_asked_about_finds_the_reye_caution_in_than_trong() -> None:
    result = ask("aspirin dùng cho trẻ em được không?")
    assert result.frame.attribute == "chong_chi_dinh"  # the routed section
    lead = _lead(result)
    assert lead[0].startswith("Thận trọng: ") and "hội chứng Reye" in lead[0]
    assert {c.section_key for c in result.citations} >= {"chong_chi_dinh", "than_trong"}
    assert delivery(result, "hội chứng Reye").before_collapsed
    # When no caution names children, the children's dose paragraphs answer (the book gives
    # omeprazol's doses from 1 month), never only "Quá mẫn với …".
    omeprazol = _lead(ask("Omeprazol có dùng cho trẻ 1 tuổi được không?"))
    assert omeprazol and all(line.startswith("Liều lượng và cách dùng") for line in omeprazol)
    # Cautions name children by age too: ciprofloxacin's "người bệnh dưới 18 tuổi".
    cipro = _lead(ask("Ciprofloxacin có dùng cho trẻ em được không?"))
    assert cipro[0].startswith("Thận trọng: ") and "dưới 18 tuổi" in cipro[0]


def test_a_section_word_inside_a_condition_name_is_the_condition() -> None:
    # "chuyển hóa" is a Dược động học phrase; here it is part of "rối loạn chuyển hóa porphyrin".
    for drug in ("nifedipin", "phenytoin"):
        result = ask(f"{drug} dùng cho người rối loạn chuyển hóa porphyrin được không?")
        assert result.frame.turn_type == "condition_relation"
        assert "porphyrin" in _lead(result)[0].lower()


def test_the_most_specific_line_leads_not_one_naming_a_part_of_the_situation() -> None:
    result = ask("alverin citrat dùng cho người tắc ruột do phân được không?")
    lead = _lead(result)
    # "Tắc ruột hoặc liệt ruột." names only "tắc ruột"; the book has the whole phrase too.
    assert lead == ["Chống chỉ định: Tắc ruột do phân."]
    # A phrase of only "whose" words ("có tiền sử") is no situation to lead with.
    amox = _lead(ask("amoxicilin dùng cho người có tiền sử co giật được không?"))
    assert not any("dị ứng với bất kỳ loại penicilin" in line for line in amox)


def test_an_organ_state_is_searched_in_the_books_other_phrasings() -> None:
    result = ask("ciprofloxacin dùng cho người bị suy chức năng gan được không?")
    assert result.reason != "condition_not_named_in_book"
    assert any("gan" in line.lower() for line in _lead(result))


def test_two_drugs_asked_as_an_incompatibility_lead_with_the_line_naming_the_other() -> None:
    result = ask("Gentamicin có pha chung bơm tiêm với furosemid được không?")
    # Two drugs in one syringe: the mixing shape, both drugs answered (issue 18).
    assert result.frame.attribute == "tuong_ky" and result.frame.turn_type == "interaction"
    assert result.frame.drugs == ("gentamicin", "furosemid")
    assert _lead(result)[0].startswith("Tương kỵ: Gentamicin tương kỵ với furosemid")


def test_a_food_no_sentence_names_is_said_not_found_in_the_users_words_only() -> None:
    result = ask("Amlodipin có tương tác với nước bưởi không?")
    # A word of it ("nước") is printed in the monograph: the book is not said to be silent
    # (issue 18), only that no sentence says «nước bưởi» as typed.
    assert result.reason == "condition_not_found_as_typed"
    notice = result.blocks[0].claims[0][0]
    assert "«nước bưởi»" in notice and "Dược thư không nêu" not in result.answer_text
    # One it names stays an interaction question, its line first.
    alcohol = ask("Uống metronidazol có uống rượu bia được không?")
    assert (
        alcohol.frame.turn_type == "drug_attribute" and alcohol.frame.attribute == "tuong_tac_thuoc"
    )


def test_an_effect_asked_about_leads_with_the_line_that_names_it() -> None:
    result = ask("Metformin có gây nhiễm toan lactic không?")
    assert result.frame.turn_type == "drug_attribute"
    assert result.frame.attribute == "tac_dung_khong_mong_muon"
    assert "nhiễm toan lactic" in _lead(result)[0].lower()
    assert not result.frame.unknown_drugs  # "lactic" is part of the effect, not a drug name
    # An effect the phrase search does not find is never said to be absent: the book may print
    # a shorter word ("Hô hấp: Ho." for "ho khan"); the section is quoted as asked.
    cough = ask("Captopril có gây ho khan không?")
    assert cough.reason != "condition_not_named_in_book"
    assert any("Ho." in t for b in cough.blocks if not b.collapsed for t, _ in b.claims)


def test_a_drug_without_a_monograph_here_is_searched_by_name_in_the_one_asked_about() -> None:
    from answering.turn import answer_in_conversation

    # Ceftriaxon's monograph says "Mẫn cảm với lidocain": never "không nêu «pha lidocain»".
    single = ask("Ceftriaxon pha với lidocain được không?")
    assert single.reason != "condition_not_named_in_book"
    assert any("lidocain" in line for line in _lead_after_notices(single))
    # The same as a follow-up: the other drug has no monograph, the question is ceftriaxon's.
    follow = answer_in_conversation(
        ["Ceftriaxon tiêm bắp liều người lớn", "pha với lidocain được không?"]
    )
    assert follow.frame.drugs == ("ceftriaxon",) and follow.decision == "answer"
    assert "lidocain" in follow.frame.not_loaded or "lidocain" in follow.frame.unknown_drugs


def _lead_after_notices(result) -> list[str]:  # type: ignore[no-untyped-def]
    lead = next(b for b in result.blocks if b.kind != "notice" and not b.collapsed)
    return [text for text, _ in lead.claims]


def test_not_named_is_said_only_after_every_situation_section_was_searched() -> None:
    result = ask("paracetamol dùng cho người bị bệnh zyxomatosis được không?")
    assert result.reason == "condition_not_named_in_book"
    # The phrase is in none of the monograph's clinical sections: the absence is real.
    texts = Chunk.objects.filter(
        section__drug__drug_id="paracetamol", section__section_key__in=SITUATION_SECTIONS
    ).values_list("text", flat=True)
    assert texts and not any("zyxomatosis" in folded_phrase(t) for t in texts)
    notice = result.blocks[0].claims[0][0]
    assert "«bệnh zyxomatosis»" in notice or "zyxomatosis" in notice
    assert "Thận trọng" in notice and "Tương tác" in notice and "Liều lượng" in notice


# The answering sentence, label kept, never a band or a table cut -------------------------


_BAND_START = re.compile(r"(?:Trẻ em|Trẻ|Sơ sinh)\s+\d[^:;]{0,30}(?:tuổi|tháng|kg)\s*:")


def test_units_never_cut_a_dose_band_or_a_table() -> None:
    chunks = Chunk.objects.filter(section__section_key="lieu_luong_va_cach_dung")
    checked = 0
    for chunk in chunks.iterator():
        found = units(chunk.text)
        flat = " ".join(chunk.text.split())
        for unit in found:
            assert not unit.bare.lstrip().startswith("|")  # tables are shown whole, not cut
            # Verbatim: the unit's own text is the book's (its paragraph break only undone).
            assert " ".join(unit.bare.split()) in flat
        for band in _BAND_START.finditer(chunk.text):
            # A band's label and its dose sit in one unit.
            after = chunk.text[band.end() : band.end() + 12].strip()
            if not after or after.startswith("|"):
                continue
            label = " ".join(band.group(0).split())
            assert any(
                label in " ".join(u.bare.split()) and " ".join(after.split()[:1]) in u.bare
                for u in found
            ), (chunk.pk, label)
            checked += 1
    assert checked > 30


def test_a_later_sentence_keeps_its_paragraphs_route_label() -> None:
    text = (
        "*Uống:* Trẻ em 1 tháng - 6 tuổi: 20 - 30 mg/kg một liều duy nhất; tối đa 90 mg/kg/24 "
        "giờ. Trẻ em 6 - 12 tuổi: 20 - 30 mg/kg.\n\nNgười lớn: 1 g. Trẻ em: 15 mg/kg."
    )
    shown = [u.text for u in units(text)]
    assert shown[0].startswith("*Uống:* Trẻ em 1 tháng - 6 tuổi") and "tối đa 90" in shown[0]
    assert shown[1] == "*Uống:* … Trẻ em 6 - 12 tuổi: 20 - 30 mg/kg."
    assert shown[3] == "Trẻ em: 15 mg/kg."  # an adult's label does not head a child's band


# Doses in the book's own bands ------------------------------------------------------------


def test_an_age_leads_with_the_narrowest_band_that_holds_it() -> None:
    result = ask("Paracetamol cho trẻ 3 tuổi uống liều bao nhiêu?")
    assert result.frame.age_band == "Trẻ em 2 - 4 tuổi"
    assert _lead(result)[0].endswith(": Trẻ em 2 - 4 tuổi: 180 mg")
    # The band's paragraph, with its repeat interval and maximum, stays in view.
    assert (
        not result.blocks[1].collapsed and "tối đa 4 liều/24 giờ" in result.blocks[1].claims[0][0]
    )


def test_a_childs_weight_and_indication_lead_with_the_per_kg_fever_dose() -> None:
    result = ask("Bé 15 kg sốt, ibuprofen mỗi lần cho bao nhiêu mg?")
    lead = " ".join(_lead(result))
    assert "Đối với sốt, 5 - 10 mg/kg" in lead
    assert "Trẻ 3 - 6 tháng" not in lead  # an age band's weight qualifier is not a weight band


def test_an_adult_with_a_route_gets_the_adult_paragraph_of_that_route() -> None:
    result = ask("người lớn 60 kg dùng paracetamol truyền tĩnh mạch liều")
    first = next(b for b in result.blocks if not b.collapsed)
    assert "Người lớn" in first.title and "Truyền tĩnh mạch" in first.title


def test_a_paragraph_without_a_label_is_ranked_under_the_one_before() -> None:
    from answering.ranking import inherited_labels
    from retrieval.queries import find_by_section

    evidence = find_by_section("ibuprofen", "lieu_luong_va_cach_dung")
    labels = inherited_labels(evidence)
    unlabelled = [e for e in evidence if not e.label]
    assert unlabelled and all(labels[e.chunk_id] for e in unlabelled[1:])
    child = next(e for e in evidence if "dưới 7 kg" in e.text)
    assert labels[child.chunk_id] == "Trẻ em"


# Reverse lookup ---------------------------------------------------------------------------


def test_which_drug_with_an_abbreviation_lists_each_drug_with_its_line() -> None:
    result = ask("THA dùng thuốc gì?")
    assert result.frame.turn_type == "condition_to_drug"
    lines = _lead(result)
    assert len(lines) >= 4
    drugs = {c.drug_id for c in result.citations}
    assert {"captopril", "enalapril", "amlodipin", "losartan"} <= drugs
    assert all("tăng huyết áp" in line.lower() for line in lines)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # An abbreviation the table writes out, and the book's two spellings of the bacterium.
        ("nhiễm HP dùng thuốc gì", {"amoxicilin", "metronidazol"}),
        # A part of the phrase: omeprazol's line says "loét dạ dày tá tràng".
        ("Thuốc nào trị viêm loét dạ dày tá tràng?", {"omeprazol", "metronidazol"}),
        # "type 2" read as the book's "typ 2", the type's number kept.
        ("ĐTĐ type 2 dùng thuốc gì?", {"metformin", "acarbose"}),
    ],
)
def test_reverse_lookup_ranks_synonyms_and_parts_of_the_phrase(question, expected) -> None:  # type: ignore[no-untyped-def]
    result = ask(question)
    assert result.frame.turn_type == "condition_to_drug"
    assert expected <= {c.drug_id for c in result.citations}


def test_the_phrases_searched_for_a_condition() -> None:
    from retrieval.queries import indication_phrases
    from retrieval.situations import condition_synonyms

    assert "h pylori" in condition_synonyms("nhiem helicobacter pylori".replace("nhiem ", ""))
    phrases = dict(indication_phrases("viêm loét dạ dày tá tràng"))
    assert phrases["viem loet da day ta trang"] == 1.0
    assert phrases["loet da day ta trang"] == pytest.approx(5 / 6)
    assert "da day" not in phrases  # a part shorter than two thirds is not searched


def test_a_made_up_condition_still_finds_no_drug() -> None:
    result = ask("Thuốc nào điều trị bệnh zyxomatosis mạn?")
    assert result.decision == "abstain"


# Interactions by class --------------------------------------------------------------------


def test_class_membership_comes_from_the_books_atc_code_or_class_line() -> None:
    assert "coumarin" in {w for _, w in class_words("warfarin")}
    amlodipin = Drug.objects.get(drug_id="amlodipin")
    assert amlodipin.atc_codes == []  # no ATC code printed: the class line decides
    assert "thuốc chẹn kênh calci" in {c.name for c in classes_of([], amlodipin.drug_class)}
    assert classes_of(["J01CA04"], "") and not classes_of(["V08AB03"], "")


def test_a_patient_on_warfarin_finds_paracetamols_coumarin_line_and_its_preference() -> None:
    result = ask("Bệnh nhân đang dùng warfarin bị sốt dùng thuốc gì?")
    finding = next(
        f for f in result_safety(result) if f.drug_id == "paracetamol" and f.facet == "interaction"
    )
    assert finding.via == "coumarin" and finding.evidence
    assert "được ưa dùng hơn salicylat" in finding.evidence[0].text
    line = next(
        t
        for b in result.blocks
        for t, _ in b.claims
        if t.startswith("PARACETAMOL") and "WARFARIN" in t
    )
    assert "gọi theo nhóm «coumarin»" in line


def result_safety(result):  # type: ignore[no-untyped-def]
    from retrieval.retrieve import retrieve_for_frame

    return retrieve_for_frame(result.frame, result.frame.standalone_query or "").safety


def test_a_combination_named_only_by_class_is_found_and_not_called_absent() -> None:
    result = ask("ibuprofen dùng chung với acid zoledronic được không?")
    assert result.reason != "interaction_not_named_in_book"
    assert any("chống viêm không steroid" in t for t in _lead(result))


# Pregnancy and breast-feeding facets ------------------------------------------------------


def test_a_pregnant_patients_which_drug_question_carries_the_pregnancy_facet() -> None:
    result = ask("Phụ nữ có thai bị nhiễm nấm Candida dùng thuốc gì?")
    facets = {(f.drug_id, f.facet) for f in result_safety(result) if f.evidence}
    assert ("fluconazol", "pregnancy") in facets
    assert any(c.section_key == "thoi_ky_mang_thai" for c in result.citations)


def test_a_breastfeeding_patients_which_drug_question_carries_the_breastfeeding_facet() -> None:
    result = ask("Bà mẹ cho con bú bị tăng huyết áp dùng thuốc gì?")
    found = [f for f in result_safety(result) if f.facet == "breastfeeding"]
    assert len(found) >= 4 and all(f.evidence for f in found)
    assert any(c.section_key == "thoi_ky_cho_con_bu" for c in result.citations)


# Model mode reads the same ranked, labelled passages --------------------------------------


def test_the_model_reads_the_focused_passage_first_with_its_labels(scripted) -> None:  # type: ignore[no-untyped-def]
    from answering.tests.conftest import answer, block_index, understood

    question = "Paracetamol cho trẻ 3 tuổi uống liều bao nhiêu?"
    band = block_index(question, "Trẻ em 2 - 4 tuổi: 180 mg")
    provider = scripted(
        understood(question), answer("Trẻ em 2 - 4 tuổi: 180 mg.", [band]), {"verdicts": []}
    )
    answer_turn(question, provider=provider)
    _, user = provider.prompts[1]
    first = user.split("[1] ", 1)[1].split("\n[2] ", 1)[0]
    # The first passage is the one the no-model answer shows first, under its labels.
    assert "mục=Liều lượng và cách dùng" in first and "đoạn=Liều lượng › Trẻ em" in first
    assert band == 1 and "Trẻ em 2 - 4 tuổi: 180 mg" in first


def test_an_adults_dose_with_several_routes_names_them_and_a_route_narrows_it() -> None:
    from answering.turn import answer_in_conversation

    result = ask("Liều paracetamol cho người lớn?")
    notice = next(b for b in result.blocks if b.title == "Nhiều đường dùng")
    assert "uống" in notice.claims[0][0] and "tĩnh mạch" in notice.claims[0][0]
    assert result.quick_replies == ["Đường uống", "Đường tiêm/truyền tĩnh mạch"]
    shown = [b for b in result.blocks if not b.collapsed and b.section_key]
    assert shown[0].title.endswith("Liều lượng › Người lớn")  # the book's order: oral first
    narrowed = answer_in_conversation(
        ["Liều paracetamol cho người lớn?", "Đường tiêm/truyền tĩnh mạch"]
    )
    first = next(b for b in narrowed.blocks if not b.collapsed)
    assert narrowed.frame.route == "tiem_tinh_mach" and "Truyền tĩnh mạch" in first.title
    assert not any(b.title == "Nhiều đường dùng" for b in narrowed.blocks)
    # One route in view: nothing to name.
    single = ask("Liều ceftriaxon cho người lớn tiêm bắp?")
    assert not any(b.title == "Nhiều đường dùng" for b in single.blocks)


def test_a_drug_named_by_its_class_in_the_others_text_is_never_not_named() -> None:
    """Acarbose's interactions name metformin by its class ("… nhóm sulfonylurê hoặc
    biguanid"): the line is in view and no "không nêu đích danh" notice is said."""
    assert ("biguanid", "biguanid") in class_words("metformin")
    result = answer_turn("BN đang uống metformin, bác sĩ thêm acarbose, có tương tác gì không?")
    assert "không nêu đích danh" not in result.answer_text
    assert delivery(result, "sulfonylurê hoặc biguanid").before_collapsed
