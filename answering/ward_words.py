"""The ward's words for what the book prints otherwise: clinical abbreviations and lay
terms, data read by `answering.cues.book_words` (with the admin's added abbreviations)."""

# Organs wards write after a capital "K" for a cancer of them ("K phổi", "BN K thận tế bào
# sáng"), as the book names the organ; a small "k" is the wards' "không" ("k than phiền"),
# "K máu" the potassium, "K+" a lab.
CANCER_SITES: tuple[str, ...] = (
    "phổi",
    "gan",
    "vú",
    "thận",
    "dạ dày",
    "đại tràng",
    "trực tràng",
    "tụy",
    "buồng trứng",
    "cổ tử cung",
    "tuyến tiền liệt",
    "bàng quang",
    "thực quản",
    "tuyến giáp",
    "vòm họng",
    "xương",
)

# Clinical abbreviations as wards type them, with the words the book prints. Two-letter ones
# count only in capitals ("HA", "TM"); longer ones in any case, with or without diacritics.
CLINICAL_ABBREVIATIONS: dict[str, str] = {
    "THA": "tăng huyết áp",
    "ĐTĐ": "đái tháo đường",
    "NMCT": "nhồi máu cơ tim",
    "XHTH": "xuất huyết tiêu hóa",
    "BPTNMT": "bệnh phổi tắc nghẽn mạn tính",
    "COPD": "bệnh phổi tắc nghẽn mạn tính",
    "TBMMN": "tai biến mạch máu não",
    "BMV": "bệnh mạch vành",
    "RLLM": "rối loạn lipid máu",
    "NKTN": "nhiễm khuẩn tiết niệu",
    "VMN": "viêm màng não",
    "HA": "huyết áp",
    "ĐH": "đường huyết",
    "TM": "tĩnh mạch",
    "TB": "tiêm bắp",
    "TDD": "tiêm dưới da",
    "GERD": "trào ngược dạ dày thực quản",
    "HP": "Helicobacter pylori",
    "VKDT": "viêm khớp dạng thấp",
    "ĐTN": "đau thắt ngực",
    "NKHH": "nhiễm khuẩn hô hấp",
    "VPCĐ": "viêm phổi mắc phải tại cộng đồng",
    "TLT": "tuyến tiền liệt",
    "BQ": "bàng quang",
    "XN": "xét nghiệm",
    "TMTT": "tĩnh mạch trung tâm",
    "HKTMS": "huyết khối tĩnh mạch sâu",
    "VNTMNK": "viêm nội tâm mạc nhiễm khuẩn",
    "NTTN": "nhiễm khuẩn tiết niệu",
    "NKQ": "nội khí quản",
    "HCTH": "hội chứng thận hư",
    "MetHb": "methemoglobin",
    "G6PD": "glucose-6 phosphat dehydrogenase",
    # Solutions a drug is diluted in or mixed with, as the book names them.
    "NaCl": "natri clorid",
    "KCl": "kali clorid",
    "NaHCO3": "natri bicarbonat",
}


# Ward and lay words for what the book calls otherwise (counted in the shared corpus: "đái
# tháo đường" 136 times, "tiểu đường" never). Read as the book's words, like the abbreviations.
LAY_TERMS: dict[str, str] = {
    "tiểu đường": "đái tháo đường",
    "cao huyết áp": "tăng huyết áp",
    "hạ đường huyết": "hạ glucose huyết",
    "tăng đường huyết": "tăng glucose huyết",
    "đường huyết": "glucose huyết",
    "nhiễm trùng": "nhiễm khuẩn",
    "mỡ máu": "lipid máu",
    "bao tử": "dạ dày",
    "gout": "gút",
    "hen suyễn": "hen phế quản",
    "tiêu chảy": "ỉa chảy",
    "migraine": "đau nửa đầu",
    "type": "typ",  # "ĐTĐ type 2": the book prints "typ 2"
    "đc": "được",  # "dùng đc không": how wards type "được"
    "dc": "được",
    "tuýp": "typ",
    "tiền liệt tuyến": "tuyến tiền liệt",
    # Counted in the shared corpus: "ngừng" 296 times, "ngưng" 12; "phẫu thuật" 118, "mổ" 19.
    "ngưng": "ngừng",
    # Stopping a drug as the ward says it (the shared corpus: "ngừng thuốc" 126 times, "cắt
    # thuốc" never).
    "cắt thuốc": "ngừng thuốc",
    "mổ": "phẫu thuật",
    "u xơ tuyến tiền liệt": "phì đại tuyến tiền liệt",
    "týp": "typ",
    # An ion by its symbol before "máu" ("Na máu 125"); never "K" alone (wards' "không").
    "na máu": "natri máu",
    "k máu": "kali máu",
    # Alcohol as the ward says it (the shared corpus: "rượu" 76 times, "bia" once).
    "uống bia": "uống rượu",
    "rượu bia": "rượu",
    "bia rượu": "rượu",
    "nhậu": "uống rượu",
    "đi nhậu": "uống rượu",
}
