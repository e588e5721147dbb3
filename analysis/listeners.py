"""何も起こさないタイミング (W009) — a continuing 作用 waiting for an event that nothing in
the content, nor the rules, ever produces: ``毎 ページが除外された時`` when no 作用 moves a
page to 除外 and no page is exiled after its play. It stays on the board and never fires.

常時 waits for nothing (a modifier is read), a one-shot fires with its own play or tear:
neither is a listener. A timing W004 already reports where it is written (compiler/
effects.py: ラン開始時 anywhere; an enemy trait waiting for what comes after the enemy
fell) is not reported again here.
"""

from __future__ import annotations

from contract import vocabulary as vocab
from contract.vocabulary import W

from . import events as ev
from .content import Content
from .findings import Finding
from .graph import TIMING_JA, TriggerGraph, build, event_node

#: Timings W004 reports wherever they are written (they come before any 作用 is placed).
W004_ANYWHERE = frozenset(t.code for t in vocab.TIMINGS if not t.reachable)
#: Timings W004 reports on an enemy trait (they come once the enemy fell), by item kind.
W004_BY_KIND = {"enemy": frozenset({"on_enemy_hp_zero", "stage_end"})}


def findings(content: Content, graph: TriggerGraph | None = None) -> list[Finding]:
    """W009 for each continuing 作用 whose timing's event nothing produces."""
    tg = graph if graph is not None else build(content)
    produced = tg.produced()
    found = []
    for node in tg.effects():
        a = tg.graph.nodes[node]
        event = ev.BY_TIMING.get(a["timing"])
        if not a["continuing"] or event is None or _w004(a):
            continue
        waited = event_node(event.code)
        if waited in tg.started:
            continue
        timing = TIMING_JA.get(a["timing"], a["timing"])
        if waited in produced:  # only by 作用 that nothing sets going: a loop never started
            loop = "、".join(dict.fromkeys(
                tg.graph.nodes[m]["item"] for _, producers in tg.set_off_by(node)
                for m in producers if tg.graph.nodes[m]["kind"] == "effect"))
            why = (f"「{timing}」（{event.ja}）を起こすのは、それ自体が起こされて初めて動く作用"
                   f"（{loop}）だけで、その連鎖を外から始めるものがコンテンツにもルールにもない")
            hint = f"連鎖の外から{event.ja}を起こす作用（例: {_example(event.code)}）を書くか、"
        else:
            why = f"「{timing}」を起こすもの（{event.ja}）がコンテンツにもルールにもない"
            hint = f"{event.ja}を起こす作用（例: {_example(event.code)}）を書くか、"
        found.append(Finding(
            "W009", a["item_kind"], a["item"], a["line"],
            f"{why}ので、この作用は場に残っても一度も発動しません: {tg.label(node)}",
            hint + "ほかのタイミングにしてください",
            {"effect": node, "timing": a["timing"], "event": event.code}))
    return found


#: A 作用 that produces each event a listener may wait for in vain (for the hint).
EXAMPLES = {"exile": f"{W.operation.move} 1枚 {W.region.hand} -> {W.region.exile} {W.pick.choice}",
            "reward": f"ペンや破却で{W.variable.fray}を増やす",
            "enemy_hp_zero": f"{W.variable.enemy_hp} -= 10"}


def _example(code: str) -> str:
    return EXAMPLES.get(code, ev.BY_CODE[code].ja)


def _w004(attrs: dict) -> bool:
    """Whether W004 already reports this 作用's timing where it is written."""
    return (attrs["timing"] in W004_ANYWHERE
            or attrs["timing"] in W004_BY_KIND.get(attrs["item_kind"], ()))
