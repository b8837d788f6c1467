"""The number check on the book's own numbers: a sampled version of `manage.py check_numbers`
(which sweeps every number of every chunk; its counts are in the README)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from answering.grounding import numeric_tokens, verify_claims
from answering.management.commands.check_numbers import claim_for, mutations, said_by
from corpus.models import Chunk

pytestmark = pytest.mark.django_db


def test_a_sample_of_the_books_numbers_passes_copied_and_fails_mutated() -> None:
    chunks = [
        (text, numeric_tokens(text))
        for text in Chunk.objects.order_by("id").values_list("text", flat=True)
    ]
    chunks = [(text, tokens) for text, tokens in chunks if tokens]
    # Built once: a strategy drawn inside the test is built again each example, and its label
    # hashes every one of the ~2,000 chunks (~2 s of CPU over the 400 examples).
    some_chunk = st.sampled_from(chunks)

    @settings(
        max_examples=400,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(st.data())
    def check(data: st.DataObject) -> None:
        text, tokens = data.draw(some_chunk, label="chunk")
        token = data.draw(st.sampled_from(tokens), label="number")
        # The claim copies the block's amount around the number: its unit and what it is per.
        claim = claim_for(text, token)
        assert verify_claims([(claim.format(token), [1])], [text]).ok
        mutated = data.draw(st.sampled_from(list(mutations(token)) or [("none", token)]))[1]
        accepted = verify_claims([(claim.format(mutated), [1])], [text]).ok
        assert accepted == said_by(text, claim.format(mutated)), (token, mutated)
        if accepted:  # landed on another amount the block prints, written the same way
            assert mutated in set(tokens)
        other, other_tokens = data.draw(some_chunk, label="another chunk")
        if token not in other_tokens:
            assert not verify_claims([(claim.format(token), [1])], [other]).ok

    check()


def test_every_kind_of_mutation_is_generated() -> None:
    kinds = {
        kind
        for token in ("1 500", "7,5", "12 500,25", "1500", "10")
        for kind, _ in mutations(token)
    }
    assert kinds >= {
        "digit dropped",
        "digit added",
        "digit changed",
        "decimal moved",
        "decimal removed",
        "decimal made a point",
        "thousands merged",
        "thousands split",
        "thousands shifted",
    }
    assert ("thousands merged", "1500") in set(mutations("1 500"))
    assert ("decimal made a point", "7.5") in set(mutations("7,5"))
    assert ("decimal removed", "75") in set(mutations("7,5"))
