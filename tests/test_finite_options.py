"""Options refuse non-finite numbers (issue 32, item 17): every float option of the command
line takes a number within its range, never nan or ±inf — a usage error (exit 2) in
Japanese. ``click.FloatRange`` alone lets nan through (each comparison with nan is false):
``--precision nan`` ran the lab and wrote a bare ``NaN`` into its JSON."""

from __future__ import annotations

import click
import pytest

import cli
from commands.common import FiniteFloatRange
from conftest import invoke_cli

NON_FINITE = ["nan", "NaN", "inf", "-inf", "Infinity", "-Infinity"]
FLOATS = click.types.FloatParamType  # click.FLOAT and every FloatRange


def float_options(group: click.Group = cli.main, path: tuple[str, ...] = ()):
    """(command path, option name) of every float option of the command line."""
    for name, command in sorted(group.commands.items()):
        for param in command.params:
            if isinstance(param, click.Option) and isinstance(param.type, FLOATS):
                yield (*path, name), max(param.opts, key=len)
        if isinstance(command, click.Group):
            yield from float_options(command, (*path, name))


def test_the_walk_finds_the_float_options():
    assert (("sim",), "--precision") in list(float_options())


@pytest.mark.parametrize("value", NON_FINITE)
@pytest.mark.parametrize("path, option", list(float_options()))
def test_every_float_option_refuses_non_finite_numbers(path, option, value):
    result = invoke_cli(*path, f"{option}={value}")
    assert result.exit_code == 2, result.output
    assert "有限の数を書いてください" in result.output, result.output


def test_a_finite_number_out_of_range_is_still_refused_and_one_inside_taken():
    assert FiniteFloatRange(0.001, 0.5).convert("0.25", None, None) == 0.25
    with pytest.raises(click.BadParameter):
        FiniteFloatRange(0.001, 0.5).convert("0.6", None, None)


@pytest.mark.parametrize("path, option", list(float_options()))
def test_every_float_option_takes_a_number_typed_full_width(path, option):
    """--max-pairs １９ was read (Python reads full-width digits) and --precision ０．１
    refused: the full-width point and minus are no number's to Python."""
    param = next(p for p in _command(path).params if option in p.opts)
    low, high = param.type.min, param.type.max
    number = f"{low + (high - low) / 4:.3f}"  # with its point: 5.000, 0.126
    typed = number.translate(str.maketrans("0123456789.-", "０１２３４５６７８９．－"))
    assert param.type.convert(typed, None, None) == float(number)


def _command(path: tuple[str, ...]) -> click.Command:
    command = cli.main
    for name in path:
        command = command.commands[name]
    return command


def test_a_seed_typed_full_width_is_the_same_seed():
    """int() reads full-width digits but not the full-width minus: --seed －５ was refused
    as no whole number where --seed ５ was 5."""
    from commands.common import Seed

    assert Seed().convert("－５", None, None) == -5
    assert Seed().convert("１２", None, None) == 12
