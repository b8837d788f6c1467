"""Which drug, in the wordings and vignettes wards type (issue 17: a which-drug question in
any wording never abstains while the book's indications cover its words).

Other monographs and wordings than the outside sets' lines; each asserts the drug whose
indication answers leads the list, in view."""

import pytest

from answering.turn import answer_turn

pytestmark = pytest.mark.django_db


def _listed(question: str) -> list[str]:
    result = answer_turn(question)
    assert result.frame.turn_type == "condition_to_drug", result.frame
    lead = next(b for b in result.blocks if b.title == "Các thuốc Dược thư ghi chỉ định")
    assert not lead.collapsed
    return [text for text, _ in lead.claims]


@pytest.mark.parametrize(
    ("question", "first"),
    [
        # A drug the book indexes but has not loaded names whom the indication is for.
        ("bn hoa tri cyclophosphamid lieu cao, dung them thuoc gi bao ve duong tiet nieu", "MESNA"),
        # "MetHb" written out; the medicine taken before ("sau khi dùng") is the context.
        ("MetHb 30% sau khi dùng prilocain, cho thuốc giải nào?", "XANH METHYLEN"),
        # "… có loại … nào" however far from the kind of drug.
        ("chụp X quang đường mật thì trong Dược thư có loại thuốc cản quang nào?", "ACID IOPANOIC"),
        # Asked to treat, inside a story that tells an adverse reaction.
        ("BN bị nổi mẩn ngứa do dị ứng thuốc, thuốc nào điều trị mày đay?", "LORATADIN"),
        # Words the book never prints (a disease, a place) are context, not an unknown drug.
        (
            "BN lymphoma Hodgkin sắp truyền cyclophosphamid liều cao, dùng kèm thuốc gì bảo vệ "
            "đường tiết niệu?",
            "MESNA",
        ),
        ("khách du lịch Kilimanjaro hỏi thuốc gì phòng say độ cao?", "ACETAZOLAMID"),
        ("bé 6 tuổi ở Tây Nguyên bị giun đũa, tẩy giun bằng thuốc gì?", "ALBENDAZOL"),
        # "Đặc trị" (folded "dac tri") asks; "dac" is no condition ("đặc biệt" of any line).
        ("Bệnh nhân nhiễm giun lươn, thuốc nào đặc trị?", "ALBENDAZOL"),
        ("bn nhiem giun luon, trong duoc thu co thuoc nao dac tri?", "ALBENDAZOL"),
        # A long story: its rare words are looked for beyond the best 8 paragraphs of BM25.
        (
            "BN nam 45t làm ở vùng trồng cao su, ngứa, đau bụng, tiêu chảy kéo dài, bạch cầu ái "
            "toan cao, xét nghiệm phân thấy ấu trùng Strongyloides stercoralis. Trong sách có "
            "thuốc nào điều trị?",
            "ALBENDAZOL",
        ),
        (
            "Bé 5 tuổi sốt cao kéo dài 6 ngày, môi đỏ nứt, lưỡi dâu tây, bong da đầu ngón, hạch "
            "cổ to, siêu âm tim giãn động mạch vành nhẹ, nghĩ hội chứng Kawasaki. Thuốc nào được "
            "chỉ định?",
            "ACID ACETYLSALICYLIC",
        ),
        # Phaeochromocytoma as the book names it.
        ("bn nghi u tế bào ưa crôm, thuốc nào dùng để chẩn đoán?", "CLONIDIN"),
    ],
)
def test_the_drug_whose_indication_answers_leads(question: str, first: str) -> None:
    assert _listed(question)[0].startswith(first)


def test_a_listed_drugs_line_is_its_indication_not_a_safety_passage() -> None:
    lines = _listed("BN đang dùng warfarin bị đau răng, dùng thuốc giảm đau gì?")
    assert lines and all("warfarin" not in line.lower() for line in lines)


def test_a_long_story_asks_for_the_antidote_in_its_last_sentence() -> None:
    # "thuốc giải" is the asking, not the condition (it matched "giai đoạn"); the story before
    # it is the condition, and the indication saying its rare word leads, alone.
    lines = _listed(
        "BN tím tái, SpO2 86%, máu màu nâu sô cô la, MetHb 35% sau khi dùng prilocain. "
        "Dùng thuốc giải gì?"
    )
    assert lines[0].startswith("XANH METHYLEN") and "methemoglobin" in lines[0]


@pytest.mark.parametrize(
    "question",
    [
        # The story's words meet an indication only in pairs the asking words make ("phổi,
        # trong dược thư …" is acenocoumarol's "… phổi trong …"): no list, no negative claim.
        "bn ung thư tụy đã lan lên phổi, trong dược thư có thuốc nào dùng được?",
        "BN K thận tế bào sáng đã lan lên phổi, trong dược thư có thuốc miễn dịch nào dùng được?",
    ],
)
def test_an_indication_sharing_only_common_pairs_is_never_listed(question: str) -> None:
    result = answer_turn(question)
    assert result.frame.drugs in ((), ("aldesleukin",))
    if result.decision == "abstain":
        assert "không có nghĩa là không có thuốc nào" in result.answer_text
        assert "Không có chuyên luận nào" not in result.answer_text


@pytest.mark.parametrize(
    ("question", "first"),
    [
        # Ward abbreviations written out as the book prints them.
        ("catheter TMTT tắc, thuốc nào thông lại?", "ALTEPLASE"),
        (
            "BN K vú di căn xương, đau nhiều, có thuốc nào trong dược thư chỉ định?",
            "ACID ZOLEDRONIC",
        ),
    ],
)
def test_a_ward_abbreviation_of_the_condition_is_read_as_the_book_writes_it(
    question: str, first: str
) -> None:
    assert _listed(question)[0].startswith(first)


@pytest.mark.parametrize(
    ("question", "drugs"),
    [
        (
            "BN 70t đang uống warfarin vì rung nhĩ, nay đau khớp được kê aspirin. Dùng chung 2 "
            "thuốc này có nguy cơ gì?",
            {"warfarin", "acid_acetylsalicylic"},
        ),
        (
            "bn dang dung lithi, bs ke them ibuprofen, hai thuoc do dung cung co van de gi",
            {"ibuprofen"},
        ),
        (
            "Đang uống carbamazepin mà kê thêm clarithromycin, thuốc ấy ảnh hưởng gì?",
            {"carbamazepin"},
        ),
    ],
)
def test_a_drug_referred_back_to_is_asked_about_not_asked_for(
    question: str, drugs: set[str]
) -> None:
    # "thuốc này / đó / ấy … gì" points at the drugs the story named: no list of drugs for the
    # story's condition ("đau khớp", "rung nhĩ"), each named drug answered.
    result = answer_turn(question)
    assert result.frame.turn_type != "condition_to_drug", result.frame
    assert drugs <= set(result.frame.drugs)


@pytest.mark.parametrize(
    ("question", "drug"),
    [
        # A class or a kind of preparation before "nào" asks for a drug of it.
        ("Kháng histamin nào dùng cho mày đay mạn tính?", "cetirizin_hydroclorid"),
        ("Bisphosphonat nào uống cho loãng xương sau mãn kinh?", "alendronat_natri"),
        # "dùng gì" with no drug named.
        ("bn bi giun luon thi dung gi", "albendazol"),
    ],
)
def test_a_class_or_kind_before_nao_or_dung_gi_asks_for_a_drug(question: str, drug: str) -> None:
    result = answer_turn(question)
    assert result.frame.turn_type == "condition_to_drug", result.frame
    assert drug in result.frame.drugs


def test_kem_folded_is_also_kem_weak_and_never_hides_the_thuoc_nao() -> None:
    # "kém hấp thu mỡ, thuốc nào …": folded "kem" is no cream asked for; "thuốc nào" asks.
    result = answer_turn(
        "Bé 2 tuổi xơ nang tụy, kém hấp thu mỡ, thuốc nào dùng phòng thiếu hụt vitamin?"
    )
    assert result.frame.turn_type == "condition_to_drug", result.frame
    assert "alpha_tocopherol" in result.frame.drugs


@pytest.mark.parametrize(
    "question",
    [
        "Hoạt chất nào bôi da để phòng cháy nắng (loại dùng trong kem chống nắng)?",
        "chat nao trong kem chong nang giup phong chay nang",
    ],
)
def test_a_short_indication_saying_the_rare_words_is_listed_beside_a_longer_one(
    question: str,
) -> None:
    # "Ngăn ngừa cháy nắng." says "cháy nắng" as specifically as acid boric's long line that
    # also shares "bôi", "da", "chất": both are listed, never the long one alone.
    assert "acid_para_aminobenzoic" in _listed_drugs(question)


def _listed_drugs(question: str) -> tuple[str, ...]:
    result = answer_turn(question)
    assert result.frame.turn_type == "condition_to_drug", result.frame
    return result.frame.drugs


@pytest.mark.parametrize(
    ("question", "listed"),
    [
        ("BN từng dị ứng với furosemid, cần lợi tiểu quai nào thay thế?", "ACID ETHACRYNIC"),
        (
            "bn da uong metronidazol ko dap ung, tieu chay do C. difficile, con thuoc uong nao khac?",
            "VANCOMYCIN",
        ),
        (
            "BN động kinh cục bộ đã dùng carbamazepin không đáp ứng, còn thuốc nào khác?",
            "PHENYTOIN",
        ),
        ("Bé sốt cao đã uống paracetamol không hạ, còn thuốc hạ sốt nào khác?", "IBUPROFEN"),
    ],
)
def test_a_drug_tried_or_reacted_to_is_the_patients_and_another_is_listed(
    question: str, listed: str
) -> None:
    # "đã uống X không đỡ", "từng dị ứng với X", then "còn … nào khác": the named drug is what
    # the patient had, the question asks for another from the book's indications.
    assert any(text.startswith(listed) for text in _listed(question))


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("BN nữ 30t nấm candida âm đạo tái phát. Thuốc uống nào là lựa chọn?", "FLUCONAZOL"),
        ("bn gut man, acid uric mau 600, thuoc nao la lua chon dieu tri lau dai?", "ALOPURINOL"),
        (
            "bé 5 tuổi bị giun đũa, xét nghiệm phân có trứng giun. Thuốc nào là lựa chọn?",
            "ALBENDAZOL",
        ),
        # "tình trạng này", "trường hợp này", "bệnh này" point back at the story; a route
        # ("thuốc bôi nào") left alone is no condition either.
        (
            "BN nam 40t sốt, đau hạ sườn phải, siêu âm ổ áp xe gan, huyết thanh amip dương tính. "
            "Thuốc nào điều trị trường hợp này?",
            "METRONIDAZOL",
        ),
        (
            "Cụ bà 70t sau zona 3 tháng vẫn đau rát dai dẳng vùng ngực. Trong sách có thuốc bôi "
            "nào cho tình trạng này không?",
            "CAPSAICIN",
        ),
        (
            "Bé 3t sốt cao 5 ngày, môi đỏ, mắt đỏ, bong da đầu ngón, chẩn đoán Kawasaki. Thuốc "
            "nào dùng cho bệnh này?",
            "ACID ACETYLSALICYLIC",
        ),
    ],
)
def test_an_ask_that_points_back_at_the_story_takes_the_condition_from_the_story(
    question: str, first: str
) -> None:
    # "là lựa chọn": the asking sentence names nothing; the story does.
    assert _listed(question)[0].startswith(first)
