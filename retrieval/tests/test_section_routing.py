"""The phrase table: longest phrase wins, lay phrasings count, no match is None."""

import pytest

from retrieval.phrases import populations, route_section, routes


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ("Efferalgan chống chỉ định trong những trường hợp nào?", "chong_chi_dinh"),
        ("Chỉ định của loratadin là gì?", "chi_dinh"),
        ("Xử trí quá liều paracetamol", "qua_lieu_va_xu_tri"),
        ("Liều paracetamol cho người lớn", "lieu_luong_va_cach_dung"),
        ("bà bầu uống aspirin được không", "thoi_ky_mang_thai"),
        ("đang có thai dùng captopril", "thoi_ky_mang_thai"),
        ("mẹ cho con bú dùng cetirizin", "thoi_ky_cho_con_bu"),
        ("uống bao nhiêu viên một ngày", "lieu_luong_va_cach_dung"),
        ("dùng chung với warfarin được không", "tuong_tac_thuoc"),
        ("uống cùng thuốc kháng acid", "tuong_tac_thuoc"),
        ("insulin bảo quản thế nào", "do_on_dinh_va_bao_quan"),
        ("chong chi dinh cua diclofenac", "chong_chi_dinh"),
        ("Ngộ độc morphin dùng naloxon liều bao nhiêu?", "qua_lieu_va_xu_tri"),
        ("CCĐ của aspirin", "chong_chi_dinh"),
        ("TDKMM của metformin", "tac_dung_khong_mong_muon"),
        ("TTT giữa warfarin và aspirin", "tuong_tac_thuoc"),
        ("PNCT dùng amoxicilin được không", "thoi_ky_mang_thai"),
        ("contraindications of ibuprofen", "chong_chi_dinh"),
        ("vancomycin truyền bao lâu", "lieu_luong_va_cach_dung"),
        ("Có thể nghiền viên omeprazol không?", "lieu_luong_va_cach_dung"),
        ("Phenytoin có làm giảm tác dụng thuốc tránh thai không?", "tuong_tac_thuoc"),
    ],
)
def test_routes(question: str, key: str) -> None:
    assert route_section(question) == key


def test_no_phrase_is_no_section() -> None:
    assert route_section("Cách nấu phở bò cho ngon?") is None
    assert route_section("omeprazol") is None


def test_population_and_route_cues() -> None:
    assert populations("Liều cho trẻ em suy thận") == ["tre_em", "suy_than"]
    assert populations("be 20kg") == ["tre_em"]
    assert populations("PCM liều tối đa cho NL") == ["nguoi_lon"]
    assert routes("tiêm tĩnh mạch chậm hoặc uống") == ["tiem_tinh_mach", "uong"]


@pytest.mark.parametrize(
    "question",
    [
        "BN uống dầu parafin cả năm nay, dùng lâu như vậy có hại gì không?",
        "tiêm vitamin K1 xong bé đỏ da, phản ứng này có hay gặp không?",
        "nổi mẩn sau khi uống cefalexin, tỷ lệ gặp khoảng bao nhiêu?",
        "dùng corticoid kéo dài có tác hại gì",
        "tiêm vitamin K1 tĩnh mạch có nguy cơ phản vệ không?",
        "dùng amiodaron lâu dài có nguy cơ gây xơ phổi không",
    ],
)
def test_harm_and_how_often_asked_of_a_drug_taken_is_its_adverse_effects(question: str) -> None:
    assert route_section(question) == "tac_dung_khong_mong_muon"


@pytest.mark.parametrize(
    ("question", "key"),
    [
        (
            "Lọ amoxicilin để ngoài cửa sổ nắng nóng cả ngày còn dùng được không?",
            "do_on_dinh_va_bao_quan",
        ),
        ("Vỉ paracetamol bị ẩm hết rồi, có sao không?", "do_on_dinh_va_bao_quan"),
        ("Ống vitamin B12 hơi ngả màu nhưng còn hạn, có phải hủy không?", "do_on_dinh_va_bao_quan"),
        ("rút ceftriaxon chung xi lanh với lidocain được không?", "tuong_ky"),
        ("bơm chung heparin vào chai glucose đang chạy được không", "tuong_ky"),
        ("ceftriaxon pha xong bơm chung vào chai Ringer lactat được không", "tuong_ky"),
    ],
)
def test_kept_where_it_may_spoil_or_drawn_up_together(question: str, key: str) -> None:
    assert route_section(question) == key


@pytest.mark.parametrize(
    ("question", "key"),
    [
        ("bé 4 tuổi ho, ambroxol cho mấy ml một lần?", "lieu_luong_va_cach_dung"),
        ("Metformin cho bn 60 tuổi bao nhiêu viên một ngày?", "lieu_luong_va_cach_dung"),
        ("Heparin tiêm dưới da mấy đơn vị mỗi lần?", "lieu_luong_va_cach_dung"),
        ("Điều dưỡng lỡ truyền vancomycin gấp đôi liều, phải làm gì?", "qua_lieu_va_xu_tri"),
        ("bé uống lộn thuốc của bà là amlodipin, xử trí sao", "qua_lieu_va_xu_tri"),
        ("tiêm nhầm liều insulin cho bệnh nhân thì theo dõi gì", "qua_lieu_va_xu_tri"),
    ],
)
def test_an_amount_by_its_unit_is_the_dose_and_a_dose_by_mistake_the_overdose(
    question: str, key: str
) -> None:
    assert route_section(question) == key


def test_a_route_the_patient_cannot_take_is_not_the_route_asked() -> None:
    assert routes("Bé nôn nhiều ko uống được, truyền paracetamol TM liều thế nào?") == [
        "tiem_tinh_mach"
    ]
    assert routes("BN không thể uống, tiêm bắp ceftriaxon được không") == ["tiem_bap"]
    assert routes("bé uống được không") == ["uong"]
