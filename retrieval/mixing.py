"""A drug mixed with a fluid or another drug ("pha loãng amphotericin B bằng NaCl 0,9% được
không?", "ampicilin với gentamicin rút chung bơm tiêm?", "aciclovir chạy chung đường với truyền
máu?"): asked of the incompatibilities, answered where the book says it — Tương kỵ, the way
of giving in Liều lượng và cách dùng, the in-use stability, and for two drugs each one's lines
naming the other. The paragraphs naming what is mixed come first, Tương kỵ's before the rest."""

from corpus.sections import SectionKey
from corpus.text import folded_phrase, prints_phrase
from retrieval.evidence import Evidence, unique_evidence
from retrieval.frame import QueryFrame
from retrieval.pairs import interaction_evidence
from retrieval.ranked import section_evidence
from retrieval.retrieved import Retrieved, ahead_of
from retrieval.searches import section

MIXING_SECTIONS = (
    SectionKey.TUONG_KY,
    SectionKey.LIEU_LUONG_VA_CACH_DUNG,
    SectionKey.DO_ON_DINH_VA_BAO_QUAN,
    SectionKey.TUONG_TAC_THUOC,
)
# A fluid as wards say it (folded, word-bounded, after the abbreviations are written out:
# "NaCl" is "natri clorid") and as the book prints it.
FLUIDS: dict[str, tuple[str, ...]] = {
    "natri clorid": ("natri clorid",),
    "nuoc muoi": ("natri clorid",),
    "glucose": ("glucose", "dextrose"),
    "dextrose": ("dextrose", "glucose"),
    # The book names Ringer lactat among the calcium solutions ("dung dịch chứa calci (như
    # dung dịch Ringer lactat, dung dịch Hartmann)"): its lines on calcium are about it.
    "ringer": ("ringer", "chua calci", "co chua calci"),
    "truyen mau": ("che pham cua mau", "truyen mau", "mau toan phan"),
    "che pham mau": ("che pham cua mau", "truyen mau", "mau toan phan"),
    "dich dam": ("protein", "acid amin"),
    "acid amin": ("acid amin", "protein"),
    "nuoc cat": ("nuoc cat", "nuoc vo khuan", "nuoc de tiem"),
    "nhu dich lipid": ("lipid",),
    "bicarbonat": ("bicarbonat",),
    "kali clorid": ("kali clorid",),
    "manitol": ("manitol",),
}
# The book's words for making a drug up, looked for when nothing is named to mix it with
# ("truyền TM thì pha loãng thế nào").
MAKING_UP = ("pha loang", "hoa tan", "pha voi", "pha trong", "pha bang", "dung moi")
# Paragraphs naming what is mixed kept ahead of the section.
MIXING_PARAGRAPHS = 4


def fluids_in(question: str) -> list[str]:
    """The book's phrasings of the fluids the question names."""
    padded = f" {folded_phrase(question)} "
    return list(
        dict.fromkeys(
            p for said, printed in FLUIDS.items() if f" {said} " in padded for p in printed
        )
    )


def naming_paragraphs(drug_id: str, phrases: list[str]) -> list[Evidence]:
    """The drug's paragraphs of the mixing sections naming one of the phrases, in the
    sections' order (Tương kỵ first) and the book's."""
    found = [
        e
        for key in MIXING_SECTIONS
        for e in section_evidence(drug_id, key)
        if prints_phrase(e.text, phrases)
    ]
    return found[:MIXING_PARAGRAPHS]


def mixing(frame: QueryFrame, question: str) -> Retrieved:
    asked = section(frame, question)
    fluids = fluids_in(question)
    first: list[Evidence] = []
    alone = not fluids and len(frame.drugs) == 1
    for drug_id in frame.drugs:
        first += naming_paragraphs(drug_id, fluids or list(MAKING_UP)) if fluids or alone else []
        for other in (d for d in frame.drugs if d != drug_id):
            # Each one's lines naming the other, by name or class, in Tương kỵ and Tương tác.
            first += interaction_evidence(
                drug_id, other, [SectionKey.TUONG_KY, SectionKey.TUONG_TAC_THUOC]
            )[0]
    return ahead_of(asked, unique_evidence(first))
