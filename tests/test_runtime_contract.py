"""The runtime's dispatch tables cover the contract: every reference class, base class,
condition test and operation code of contract/ has exactly one row where it is run."""

from __future__ import annotations

import typing

from contract import vocabulary as vocab
from contract.tables import REFS, Base
from runtime.zones import REGION_OPS
from runtime.sayou import BASES, OPS, READERS, TESTS


def test_every_reference_class_has_one_reader():
    assert set(READERS) == set(REFS)


def test_every_base_class_has_one_evaluation():
    assert set(BASES) == set(typing.get_args(Base))


def test_every_condition_test_has_one_rule():
    assert set(TESTS) == set(vocab.CONDITION_TESTS)


def test_every_operation_lands_in_exactly_one_place():
    codes = {op.code for op in vocab.OPERATIONS}
    assert set(OPS) | REGION_OPS == codes and not set(OPS) & REGION_OPS
    assert REGION_OPS == {op.code for op in vocab.OPERATIONS if op.family == "region"}
