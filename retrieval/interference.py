"""A drug's effect on a lab test, asked ("Lab báo ceton niệu dương tính …, có thể do thuốc làm
sai kết quả không?"): the drug's lines where the book says a test reads falsely with it
("Captopril cũng gây phản ứng dương tính giả khi xét nghiệm aceton trong nước tiểu", "Vitamin
C có thể làm sai lệch … kết quả xét nghiệm glucose"), in view whatever section the question
reads as. They sit in Thận trọng, Tương tác thuốc or Tác dụng không mong muốn, which no cue
of a test's result points at."""

from collections.abc import Sequence

from corpus.sections import SectionKey
from retrieval.floor import FloorLine, book_lines, says_any
from retrieval.ranked import section_evidence

# How a ward asks whether the drug falsified a result (as typed; matched folded).
ASKED = (
    "dương tính giả",
    "âm tính giả",
    "sai kết quả",
    "làm sai",
    "sai lệch",
    "kết quả giả",
    "tăng giả",
    "giảm giả",
    "nhiễu kết quả",
    "gây nhiễu",
    "làm nhiễu",
    "ảnh hưởng kết quả",
    "ảnh hưởng đến kết quả",
    "ảnh hưởng tới kết quả",
    "ảnh hưởng xét nghiệm",
    "ảnh hưởng đến xét nghiệm",
    "ảnh hưởng tới xét nghiệm",
)
# How the book prints it.
PRINTED = (
    "dương tính giả",
    "âm tính giả",
    "sai lệch",
    "làm nhiễu",
    "gây nhiễu",
    "kết quả xét nghiệm",
    "phản ứng coombs",
)
# Lines shown for a drug.
INTERFERENCE_LINES = 3


def asks_interference(question: str) -> bool:
    return says_any(question, ASKED)


def interference_floor(drug_ids: Sequence[str]) -> list[FloorLine]:
    """Each drug's lines (in book order) saying a test reads falsely with it."""
    floor: list[FloorLine] = []
    for drug_id in drug_ids:
        found = [
            FloorLine(e, (line,), False, True, key, says=PRINTED)
            for key in SectionKey
            for e in section_evidence(drug_id, key)
            for line in book_lines(e.text)
            if says_any(line, PRINTED)
        ]
        floor += found[:INTERFERENCE_LINES]
    return floor
