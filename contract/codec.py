"""Literal codec — contract classes ↔ plain literals, and their JSON Schema.

One walk over a class's type hints serves three purposes: ``to_literal`` (what the
compiler writes), ``from_literal`` (what the runtime loads, checked as strictly as the
schema: a table is not trusted because it is ours), and ``schema_of`` (the JSON Schema
game clients read, generated so that it can never drift from the classes).

The types a contract class may use: ``int``, ``float`` (an ``int`` is accepted too),
``str``, ``bool``, ``None``, ``X | None``, ``list[X]``, ``dict[K, X]`` (``K``: ``str`` or
codes), another contract class, a union of tagged classes (each with ``TAG`` and
``KIND``), and ``Codes[...]`` — a string that must be one of a vocabulary table's codes.
``Bound`` limits a number, ``Length`` the length of a list or a string.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from functools import cache
from typing import Annotated, Any, Callable, Union, get_args, get_origin, get_type_hints


class ContractError(ValueError):
    """A literal that is not what the contract says (``where`` names the place)."""

    def __init__(self, where: str, problem: str):
        super().__init__(f"{where or '(top)'}: {problem}")
        self.where, self.problem = where, problem

    def inside(self, key) -> "ContractError":
        """The same problem, one level further out: under ``key``."""
        return ContractError(f"{key}.{self.where}" if self.where else str(key), self.problem)


@dataclasses.dataclass(frozen=True)
class Codes:
    """A string restricted to the codes ``values()`` returns (read lazily, from the
    vocabulary)."""

    name: str
    values: Callable[[], tuple]


def codes(name: str, values: Callable[[], tuple]):
    """``Annotated[str, Codes]``: a field holding one code of a vocabulary table."""
    return Annotated[str, Codes(name, values)]


@dataclasses.dataclass(frozen=True)
class Bound:
    """An integer or number with a minimum (and maximum)."""

    low: float | None = None
    high: float | None = None


@dataclasses.dataclass(frozen=True)
class Length:
    """A list or string with at least ``low`` (and at most ``high``) elements."""

    low: int = 0
    high: int | None = None


def _check_length(extras, value, where: str) -> None:
    for extra in extras:
        if isinstance(extra, Length) and not (
                extra.low <= len(value) and (extra.high is None or len(value) <= extra.high)):
            wanted = f"{extra.low}〜{extra.high}" if extra.high is not None else f"{extra.low} 以上"
            raise ContractError(where, f"長さ {len(value)}（{wanted} のはずです）")


# ------------------------------------------------------------------ type walking


@cache
def _hints(cls) -> dict[str, Any]:
    return get_type_hints(cls, include_extras=True)


def fields_of(cls) -> list[tuple[str, Any]]:
    """A dataclass's fields as (name, resolved type hint) pairs in declaration order, the
    ``Annotated`` extras (Bound, Length) kept."""
    hints = _hints(cls)
    return [(f.name, hints[f.name]) for f in dataclasses.fields(cls)]


def _omitted(cls) -> tuple[str, ...]:
    """Fields left out of the literal when None (optional keys of the table format)."""
    return getattr(cls, "OMIT_NONE", ())


def _split_optional(tp):
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) < len(get_args(tp)):
            inner = args[0] if len(args) == 1 else Union[tuple(args)]
            return inner, True
    return tp, False


def _tagged(tp) -> list | None:
    """The classes of a tagged union, or None."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if all(dataclasses.is_dataclass(a) and hasattr(a, "TAG") for a in args):
            return list(args)
    return None


# ----------------------------------------------------------------- to literal


_PLAIN = frozenset((str, int, float, bool, type(None)))


def to_literal(value):
    """The plain literal of a contract object (dicts with str keys, lists, scalars)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple or kind is list:
        return [to_literal(item) for item in value]
    if kind is dict:
        return {key: to_literal(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value):
        return _encoder(kind)(value)
    if isinstance(value, dict):
        return {key: to_literal(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_literal(item) for item in value]
    return value


@cache
def _encoder(cls):
    """The literal of one contract class: its tag, then its fields (None left out where
    the format omits it)."""
    names = [name for name, _ in fields_of(cls)]
    omitted = frozenset(_omitted(cls))
    head = {cls.TAG: cls.KIND} if hasattr(cls, "TAG") else {}

    def encode(value):
        out = dict(head)
        for name in names:
            item = getattr(value, name)
            if item is None and name in omitted:
                continue
            out[name] = to_literal(item)
        return out
    return encode


# --------------------------------------------------------------- from literal
# One decoder per type, built once (``_decoder``): a table of 10,000 pages is read in
# one walk of plain function calls, not by looking at the type hints at every value.
# The place of a problem is added on the way out (``ContractError.inside``): building
# it for every value would cost more than the checks.


def from_literal(tp, value, where: str = ""):
    """The contract object of type ``tp`` for a literal, checked all the way down (lists
    become tuples). A problem is a ContractError naming its place under ``where``."""
    try:
        return _decoder(tp)(value)
    except ContractError as exc:
        raise exc.inside(where) if where else exc


def _wrong(value, problem: str) -> ContractError:
    return ContractError("", "値がありません（null）" if value is None else problem)


@cache
def _decoder(tp) -> Callable[[Any], Any]:
    inner, optional = _split_optional(tp)
    if optional:
        decode = _decoder(inner)
        return lambda value: None if value is None else decode(value)
    extras = ()
    if get_origin(inner) is Annotated:
        inner, *extras = get_args(inner)
    tagged = _tagged(inner)
    if tagged is not None:
        return _tagged_decoder(tagged)
    if dataclasses.is_dataclass(inner):
        return _class_decoder(inner)
    origin = get_origin(inner)
    if origin is list:
        return _list_decoder(_decoder(get_args(inner)[0]), extras)
    if origin is dict:
        return _dict_decoder(*get_args(inner))
    return _scalar_decoder(inner, extras)


def _class_decoder(cls):
    fields = [(name, _decoder(tp)) for name, tp in fields_of(cls)]
    tag = getattr(cls, "TAG", None)
    known = frozenset(name for name, _ in fields) | ({tag} if tag else frozenset())
    omitted = frozenset(_omitted(cls))

    def decode(value):
        if type(value) is not dict:
            raise _wrong(value, "オブジェクトではありません")
        if not known.issuperset(value):
            extra = ", ".join(sorted(map(str, set(value) - known)))
            raise ContractError("", f"知らない項目: {extra}")
        args = []
        for name, field_decoder in fields:
            if name in value:
                try:
                    args.append(field_decoder(value[name]))
                except ContractError as exc:
                    raise exc.inside(name) from None
            elif name in omitted:
                args.append(None)
            else:
                raise ContractError("", f"項目 {name} がありません")
        return cls(*args)
    return decode


def _tagged_decoder(classes: list):
    tag = classes[0].TAG
    by_kind = {cls.KIND: _class_decoder(cls) for cls in classes}
    kinds = ", ".join(by_kind)

    def decode(value):
        if type(value) is not dict:
            raise _wrong(value, "オブジェクトではありません")
        kind = value.get(tag)
        class_decoder = by_kind.get(kind) if isinstance(kind, str) else None
        if class_decoder is None:
            raise ContractError("", f"{tag} {kind!r:.40} は {kinds} のどれでもありません")
        return class_decoder(value)
    return decode


def _list_decoder(item, extras):
    def decode(value):
        if type(value) is not list:
            raise _wrong(value, "リストではありません")
        _check_length(extras, value, "")
        out = []
        for index, element in enumerate(value):
            try:
                out.append(item(element))
            except ContractError as exc:
                raise exc.inside(index) from None
        return tuple(out)
    return decode


def _dict_decoder(key_tp, item_tp):
    key = _scalar_decoder(str, get_args(key_tp)[1:] if get_origin(key_tp) is Annotated else ())
    item = _decoder(item_tp)

    def decode(value):
        if type(value) is not dict:
            raise _wrong(value, "オブジェクトではありません")
        out = {}
        for name, element in value.items():
            if not isinstance(name, str):
                raise ContractError("", f"キー {name!r} が文字列ではありません")
            try:
                key(name)
                out[name] = item(element)
            except ContractError as exc:
                raise exc.inside(name) from None
        return out
    return decode


def _scalar_decoder(tp, extras):
    # Exact types: a literal is written with repr and read back with ast.literal_eval or
    # json, where a subclass (an IntEnum, a str subclass) would not come back as itself.
    if tp is bool:
        def typed(value):
            if type(value) is not bool:
                raise _wrong(value, f"真偽値ではありません（{value!r:.40}）")
    elif tp is int:
        def typed(value):
            if type(value) is not int:
                raise _wrong(value, f"整数ではありません（{value!r:.40}）")
    elif tp is float:
        def typed(value):
            if type(value) not in (int, float) or not math.isfinite(value):
                raise _wrong(value, f"有限の数ではありません（{value!r:.40}）")
    elif tp is str:
        def typed(value):
            if type(value) is not str:
                raise _wrong(value, f"文字列ではありません（{value!r:.40}）")
    else:
        raise TypeError(f"contract type {tp!r}")
    codes_ = [extra for extra in extras if isinstance(extra, Codes)]
    bounds = [extra for extra in extras if isinstance(extra, Bound)]
    lengths = [extra for extra in extras if isinstance(extra, Length)]
    if not (codes_ or bounds or lengths):
        def plain(value):
            typed(value)
            return value
        return plain
    allowed = [(extra.name, frozenset(extra.values())) for extra in codes_]

    def checked(value):
        typed(value)
        for name, values in allowed:
            if value not in values:
                raise ContractError("", f"{value!r:.40} は {name} にありません")
        for bound in bounds:
            if (bound.low is not None and value < bound.low
                    or bound.high is not None and value > bound.high):
                raise ContractError("", f"{value} は範囲 {bound.low}〜{bound.high} の外です")
        _check_length(lengths, value, "")
        return value
    return checked


# --------------------------------------------------------------------- schema


def schema_of(tp, defs: dict) -> dict:
    """The JSON Schema of ``tp``; contract classes go into ``defs`` by name."""
    inner, optional = _split_optional(tp)
    if optional:
        return {"anyOf": [schema_of(inner, defs), {"type": "null"}]}
    tp = inner
    extras = ()
    if get_origin(tp) is Annotated:
        tp, *extras = get_args(tp)
    tagged = _tagged(tp)
    if tagged is not None:
        return {"oneOf": [schema_of(cls, defs) for cls in tagged]}
    if dataclasses.is_dataclass(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placeholder: recursive references
            defs[name] = _class_schema(tp, defs)
        return {"$ref": f"#/$defs/{name}"}
    origin = get_origin(tp)
    if origin is list:
        return {"type": "array", "items": schema_of(get_args(tp)[0], defs),
                **_length_schema(extras, "Items")}
    if origin is dict:
        key_tp, item = get_args(tp)
        out = {"type": "object", "additionalProperties": schema_of(item, defs)}
        if get_origin(key_tp) is Annotated:
            out["propertyNames"] = schema_of(key_tp, defs)
        return out
    out: dict = {bool: {"type": "boolean"}, int: {"type": "integer"}, float: {"type": "number"},
                 str: {"type": "string"}}[tp].copy()
    if tp is str:
        out.update(_length_schema(extras, "Length"))
    for extra in extras:
        if isinstance(extra, Codes):
            out["enum"] = list(extra.values())
        if isinstance(extra, Bound):
            if extra.low is not None:
                out["minimum"] = extra.low
            if extra.high is not None:
                out["maximum"] = extra.high
    return out


def _length_schema(extras, what: str) -> dict:
    """minItems/maxItems (``what`` = "Items") or minLength/maxLength of a Length."""
    out = {}
    for extra in extras:
        if isinstance(extra, Length):
            if extra.low:
                out[f"min{what}"] = extra.low
            if extra.high is not None:
                out[f"max{what}"] = extra.high
    return out


def _class_schema(cls, defs: dict) -> dict:
    properties, required = {}, []
    tag = getattr(cls, "TAG", None)
    if tag:
        properties[tag] = {"const": cls.KIND}
        required.append(tag)
    for name, tp in fields_of(cls):
        properties[name] = schema_of(tp, defs)
        if name not in _omitted(cls):
            required.append(name)
    out = {"type": "object", "properties": properties, "required": required,
           "additionalProperties": False}
    doc = (cls.__doc__ or "").strip().split("\n")[0]
    if doc:
        out["description"] = doc
    return out


__all__ = ["Bound", "Codes", "ContractError", "Length", "codes", "fields_of", "from_literal",
           "schema_of", "to_literal"]

_ = typing  # typing.get_type_hints resolves the annotations of contract modules
