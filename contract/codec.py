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


def to_literal(value):
    """The plain literal of a contract object (dicts with str keys, lists, scalars)."""
    if dataclasses.is_dataclass(value):
        cls = type(value)
        out = {}
        if hasattr(cls, "TAG"):
            out[cls.TAG] = cls.KIND
        for name, _ in fields_of(cls):
            item = getattr(value, name)
            if item is None and name in _omitted(cls):
                continue
            out[name] = to_literal(item)
        return out
    if isinstance(value, dict):
        return {key: to_literal(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_literal(item) for item in value]
    return value


# --------------------------------------------------------------- from literal


def from_literal(tp, value, where: str = ""):
    """The contract object of type ``tp`` for a literal, checked all the way down."""
    inner, optional = _split_optional(tp)
    if value is None:
        if optional:
            return None
        raise ContractError(where, "値がありません（null）")
    tp = inner
    extras = ()
    if get_origin(tp) is Annotated:
        tp, *extras = get_args(tp)
    tagged = _tagged(tp)
    if tagged is not None:
        return _from_tagged(tagged, value, where)
    if dataclasses.is_dataclass(tp):
        return _from_class(tp, value, where)
    origin = get_origin(tp)
    if origin is list:
        if not isinstance(value, list):
            raise ContractError(where, "リストではありません")
        _check_length(extras, value, where)
        (item,) = get_args(tp)
        return tuple(from_literal(item, v, f"{where}.{i}") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise ContractError(where, "オブジェクトではありません")
        key_tp, item = get_args(tp)
        key_extras = get_args(key_tp)[1:] if get_origin(key_tp) is Annotated else ()
        out = {}
        for key, v in value.items():
            if not isinstance(key, str):
                raise ContractError(where, f"キー {key!r} が文字列ではありません")
            _scalar(str, key_extras, key, f"{where}.{key}")
            out[key] = from_literal(item, v, f"{where}.{key}")
        return out
    return _scalar(tp, extras, value, where)


def _scalar(tp, extras, value, where: str):
    if tp is bool:
        if not isinstance(value, bool):
            raise ContractError(where, f"真偽値ではありません（{value!r:.40}）")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ContractError(where, f"整数ではありません（{value!r:.40}）")
    elif tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ContractError(where, f"有限の数ではありません（{value!r:.40}）")
    elif tp is str:
        if not isinstance(value, str):
            raise ContractError(where, f"文字列ではありません（{value!r:.40}）")
        _check_length(extras, value, where)
    else:
        raise TypeError(f"contract type {tp!r} at {where}")
    for extra in extras:
        if isinstance(extra, Codes) and value not in extra.values():
            raise ContractError(where, f"{value!r:.40} は {extra.name} にありません")
        if isinstance(extra, Bound) and (
                extra.low is not None and value < extra.low
                or extra.high is not None and value > extra.high):
            raise ContractError(where, f"{value} は範囲 {extra.low}〜{extra.high} の外です")
    return value


def _from_class(cls, value, where: str):
    if not isinstance(value, dict):
        raise ContractError(where, "オブジェクトではありません")
    names = [name for name, _ in fields_of(cls)]
    tag = getattr(cls, "TAG", None)
    known = set(names) | ({tag} if tag else set())
    extra = set(value) - known
    if extra:
        raise ContractError(where, f"知らない項目: {', '.join(sorted(map(str, extra)))}")
    kwargs = {}
    for name, tp in fields_of(cls):
        if name not in value:
            if name in _omitted(cls):
                kwargs[name] = None
                continue
            raise ContractError(where, f"項目 {name} がありません")
        kwargs[name] = from_literal(tp, value[name], f"{where}.{name}" if where else name)
    return cls(**kwargs)


def _from_tagged(classes: list, value, where: str):
    if not isinstance(value, dict):
        raise ContractError(where, "オブジェクトではありません")
    tag = classes[0].TAG
    for cls in classes:
        if value.get(tag) == cls.KIND:
            return _from_class(cls, value, where)
    kinds = ", ".join(c.KIND for c in classes)
    raise ContractError(where, f"{tag} {value.get(tag)!r:.40} は {kinds} のどれでもありません")


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
