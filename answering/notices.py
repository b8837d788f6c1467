"""The lines both answer modes add around the book's text: per-facet safety lines for a
patient's case, and the names in the question that no loaded monograph answers for."""

from collections.abc import Sequence

from answering.ranking import prints_phrase
from answering.results import AnswerBlock, BlockKind, Citation, did_you_mean
from answering.units import units
from corpus.sections import SectionKey
from corpus.text import words
from retrieval.catalog import get_resolver
from retrieval.evidence import SafetyFinding
from retrieval.frame import QueryFrame, TurnType
from retrieval.pairs import names_printed_for
from retrieval.phrases import routes
from retrieval.retrieve import Retrieved

_FACETS = {
    "interaction": "tương tác với {query}",
    "warning": "chống chỉ định/thận trọng khi {query}",
    "pregnancy": "dùng khi mang thai",
    "breastfeeding": "dùng khi cho con bú",
}
# What a facet searched, for the line saying it found nothing there.
_SEARCHED = {
    "interaction": "mục Tương tác thuốc không có câu nào nêu {query} (theo tên hay theo nhóm)",
    "warning": "mục Chống chỉ định và Thận trọng không có câu nào nêu «{query}»",
    "pregnancy": "chuyên luận không có mục Thời kỳ mang thai",
    "breastfeeding": "chuyên luận không có mục Thời kỳ cho con bú",
}


# The sentences of a passage naming the patient's medicine or condition shown in view.
NAMING_SENTENCES = 2


def _naming_line(
    finding: SafetyFinding, by_chunk: dict[int, Citation]
) -> tuple[str, Citation] | None:
    """The first sentence of the cited passages that names the patient's medicine (by a name
    the book prints for it, or the class word that found it) or condition: what a pharmacist
    reads out, in view, rather than a pointer to the passage."""
    if finding.facet == "interaction":
        named = [*names_printed_for(finding.query), *([finding.via] if finding.via else [])]
    elif finding.facet == "warning":
        named = [finding.query]
    else:
        return None
    phrases = [" ".join(words(n)) for n in named if words(n)]
    for e in finding.evidence:
        c = by_chunk.get(e.chunk_id)
        if c is None or c.quarantined:
            continue
        said = [u.bare for u in units(c.text) if prints_phrase(u.bare, phrases)]
        if said:
            # Two sentences at most: the book's conclusion often follows its finding
            # ("… tăng nhẹ tác dụng chống đông của coumarin … nên paracetamol được ưa dùng hơn").
            return " ".join(said[:NAMING_SENTENCES]), c
    return None


def safety_blocks(retrieved: Retrieved, citations: Sequence[Citation]) -> list[AnswerBlock]:
    """One line per indicated drug and facet the book speaks to: the sentence naming the
    patient's medicine or condition (its passage cited); then, one line per facet, the drugs
    whose searched sections name none (never "safe")."""
    display = get_resolver().display
    index = {c.chunk_id: c.index for c in citations}
    by_chunk = {c.chunk_id: c for c in citations}
    blocks = []
    unnamed: dict[tuple[str, str], list[str]] = {}
    for finding in retrieved.safety:
        query = display.get(finding.query, finding.query)
        facet = _FACETS[finding.facet].format(query=query)
        name = display.get(finding.drug_id, finding.drug_id)
        cited = [index[e.chunk_id] for e in finding.evidence if e.chunk_id in index]
        if not cited:
            unnamed.setdefault((finding.facet, query), []).append(finding.drug_id)
            continue
        line = _naming_line(finding, by_chunk)
        if line is not None:
            via = f" (sách gọi theo nhóm «{finding.via}»)" if finding.via else ""
            text = f"{name} · {facet}{via}: {line[0]}"
            cited = [line[1].index, *(i for i in cited if i != line[1].index)]
        elif finding.via:
            # The monograph names the class, not the medicine: say which words it used.
            text = (
                f"{name}: Dược thư có nêu về {facet}, gọi theo nhóm «{finding.via}» "
                "— xem đoạn trích."
            )
        else:
            text = f"{name}: Dược thư có nêu về {facet} — xem đoạn trích."
        blocks.append(_safety_block(finding.facet, finding.drug_id, name, text, cited))
    for (facet_key, query), drug_ids in unnamed.items():
        # Said of what was searched, never of the whole book (another section may name it).
        names = ", ".join(display.get(d, d) for d in drug_ids)
        text = f"{names}: {_SEARCHED[facet_key].format(query=query)}; " + (
            "chưa đủ bằng chứng, không có nghĩa là an toàn."
        )
        blocks.append(_safety_block(facet_key, drug_ids[0], names, text, []))
    return blocks


def _safety_block(facet: str, drug_id: str, name: str, text: str, cited: list[int]) -> AnswerBlock:
    return AnswerBlock(
        f"Theo bối cảnh người bệnh · {name}",
        BlockKind.WARNING,
        SectionKey.TUONG_TAC_THUOC if facet == "interaction" else SectionKey.CHONG_CHI_DINH,
        drug_id,
        [(text, cited)],
    )


def not_found_blocks(frame: QueryFrame) -> tuple[AnswerBlock | None, AnswerBlock | None]:
    """Names the question used that no loaded monograph answers for, said even when another
    drug answered ("Warfarin dùng chung với esomeprazol" must not read as "no interaction
    listed"). First: names the book indexes but has not loaded, and names close to a loaded
    one. Last: other words that looked like names (they may be a test or a disease word), so
    they do not push the book's answer down."""
    if not frame.drugs:
        return None, None
    offered = {typed for typed, _ in frame.did_you_mean}
    sure = [*frame.not_loaded, *(n for n in frame.unknown_drugs if n in offered)]
    sure = list(dict.fromkeys(sure))
    other = [n for n in frame.unknown_drugs if n not in sure]
    resolver = get_resolver()
    answered = " và ".join(resolver.display.get(d, d) for d in frame.drugs)
    first = last = None
    if sure:
        offer, _ = did_you_mean(frame)
        text = (
            f"Không tìm thấy {_quoted(sure)} trong các chuyên luận Dược thư đã nạp, nên câu trả "
            f"lời dưới đây chỉ từ chuyên luận {answered}; điều đó không có nghĩa là không có "
            f"tương tác hay lưu ý nào với thuốc không tìm thấy. {offer}"
        ).strip()
        first = AnswerBlock(
            "Có tên thuốc không tìm thấy", BlockKind.NOTICE, "", frame.drugs[0], [(text, [])]
        )
    # A word the book prints ("protein", "creatinin") is its text's, not a drug not found.
    printed = [n for n in other if resolver.mentioned_in_book(n)]
    texts = [
        f"Trong câu hỏi có {_quoted(names)}: {said} câu trả lời trên chỉ từ chuyên luận {answered}."
        for names, said in (
            (
                [n for n in other if n not in printed],
                "không phải tên thuốc nào trong các chuyên luận đã nạp;",
            ),
            (printed, "từ có trong văn bản Dược thư nhưng không là tên chuyên luận nào đã nạp;"),
        )
        if names
    ]
    if texts:
        last = AnswerBlock(
            "Từ không khớp tên thuốc",
            BlockKind.NOTICE,
            "",
            frame.drugs[0],
            [(text, []) for text in texts],
        )
    return first, last


def _quoted(names: Sequence[str]) -> str:
    return ", ".join(f"«{n}»" for n in names)


ROUTE_NAMES = {
    "uong": "uống",
    "tiem_tinh_mach": "tiêm/truyền tĩnh mạch",
    "tiem_bap": "tiêm bắp",
    "tiem_duoi_da": "tiêm dưới da",
    "dat_truc_trang": "đặt trực tràng",
    "xit_hit": "xịt/hít",
    "nho_mat": "nhỏ mắt",
    "boi_ngoai_da": "bôi ngoài da",
}


def routes_in_view(frame: QueryFrame, blocks: Sequence[AnswerBlock]) -> list[str]:
    """The routes of the dose paragraphs in view, in the order shown, when an adult's dose
    was asked without one. Measured (`bench/routes.py`): 16 of 94 such answers show two or
    more routes, and in 13 the first shown is the route the section names first; so the
    answer keeps the book's order and names the routes, rather than asking back."""
    if frame.attribute != SectionKey.LIEU_LUONG_VA_CACH_DUNG or frame.route is not None:
        return []
    if frame.population not in (None, "nguoi_lon") or frame.turn_type == TurnType.INTERACTION:
        return []
    seen: list[str] = []
    for block in blocks:
        if block.collapsed or block.section_key != SectionKey.LIEU_LUONG_VA_CACH_DUNG:
            continue
        opening = block.claims[0][0][:80] if block.claims else ""
        for route in routes(f"{block.title} {opening}"):
            if route in ROUTE_NAMES and route not in seen:
                seen.append(route)
    return seen if len(seen) >= 2 else []


def route_block(frame: QueryFrame, seen: Sequence[str]) -> AnswerBlock:
    names = ", ".join(ROUTE_NAMES[r] for r in seen)
    text = (
        f"Dược thư ghi liều theo nhiều đường dùng ({names}); các đoạn trên theo thứ tự của "
        "sách. Hỏi kèm đường dùng để xem riêng một đường."
    )
    return AnswerBlock("Nhiều đường dùng", BlockKind.NOTICE, "", frame.drugs[0], [(text, [])])


def route_replies(seen: Sequence[str]) -> list[str]:
    return [f"Đường {ROUTE_NAMES[r]}" for r in seen][:4]
