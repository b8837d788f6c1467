"""The lines both answer modes add around the book's text: per-facet safety lines for a
patient's case, and the names in the question that no loaded monograph answers for."""

from collections.abc import Sequence

from answering.results import AnswerBlock, BlockKind, Citation, did_you_mean
from corpus.sections import SectionKey
from retrieval.catalog import get_resolver
from retrieval.frame import QueryFrame, TurnType
from retrieval.phrases import routes
from retrieval.retrieve import Retrieved

_FACETS = {
    "interaction": "tương tác với {query}",
    "warning": "chống chỉ định/thận trọng khi {query}",
    "pregnancy": "dùng khi mang thai",
    "breastfeeding": "dùng khi cho con bú",
}


def safety_blocks(retrieved: Retrieved, citations: Sequence[Citation]) -> list[AnswerBlock]:
    """One line per indicated drug and facet: the cited passages, or that the book names none."""
    display = get_resolver().display
    index = {c.chunk_id: c.index for c in citations}
    blocks = []
    for finding in retrieved.safety:
        facet = _FACETS[finding.facet].format(query=display.get(finding.query, finding.query))
        name = display.get(finding.drug_id, finding.drug_id)
        cited = [index[e.chunk_id] for e in finding.evidence if e.chunk_id in index]
        if cited and finding.via:
            # The monograph names the class, not the medicine: say which words it used.
            text = (
                f"{name}: Dược thư có nêu về {facet}, gọi theo nhóm «{finding.via}» "
                "— xem đoạn trích."
            )
        elif cited:
            text = f"{name}: Dược thư có nêu về {facet} — xem đoạn trích."
        else:
            text = (
                f"{name}: Dược thư không nêu về {facet}; chưa đủ bằng chứng, "
                "không có nghĩa là an toàn."
            )
        blocks.append(
            AnswerBlock(
                f"Theo bối cảnh người bệnh · {name}",
                BlockKind.WARNING,
                SectionKey.TUONG_TAC_THUOC
                if finding.facet == "interaction"
                else SectionKey.CHONG_CHI_DINH,
                finding.drug_id,
                [(text, cited)],
            )
        )
    return blocks


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
    display = get_resolver().display
    answered = " và ".join(display.get(d, d) for d in frame.drugs)
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
    if other:
        text = (
            f"Trong câu hỏi có {_quoted(other)}: không phải tên thuốc nào trong các chuyên luận "
            f"đã nạp; câu trả lời trên chỉ từ chuyên luận {answered}."
        )
        last = AnswerBlock(
            "Từ không khớp tên thuốc", BlockKind.NOTICE, "", frame.drugs[0], [(text, [])]
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
