"""旅の進行 — the rules of draft 17 as two pure functions over ``State``:
``legal_actions(state)`` and ``apply(state, action) -> (state', events)`` (``advance``:
the state alone, a search's step).

A turn is the draft's phases in order: 手札補充 (refill: draw one, lose on an empty deck),
移動 (play a card: the white pawn walks its number — a white pawn that passes 【７日目】
loops to 【１日目】 and mills the top card — then one black pawn 7 − it), 行動 (the card
is placed at the white pawn's location, newest nearest, the farthest falling off; none
on the last day), イベント (the effects of the cards there, nearest first, each suit
once, resolved suits never), 解決 (one story whose suit lies under every pawn, as many
cards as pawns stand there) and 終了 (won when every story is resolved and every pawn is
on the last day; else the next turn, from the refill). The phases that need no choice
run by themselves (``_run``).

Letters and items may be used 「いつでも」: at every moment between two steps of a turn
(DESIGN §6.2) — ``FREE_USE`` lists the phases that are such moments: before the play,
the resolution point, and the ``moment`` phase, which ``_pause`` opens between placing
the card and the event phase, between two event effects, after a resolution (before the
end check) and before the refill's draw. Never inside a step (a mill, a return, a suit
effect's choice). A moment at which nothing can be used is no choice: it passes.

An action is a tuple (``legal_actions`` lists them all, in a fixed order):

    ("play", card, ((black_day, steps), …))   the card, and the black pawn(s) that walk
    ("mill", "discard") / ("mill", "bottom")  a loop's card: discard it, or テント
    ("next",)                                  go on from a moment to the next step
    ("effect", …) / ("skip",)                  the pending suit effect's choice (or none)
    ("return", card)                           a hand card under the deck (黄, ラジオ)
    ("resolve", suit) / ("end",)               resolve a story, or end the turn
    ("letter", effect, …)                      ロケーションメモリー (black_day, ±1) or
                                               アドベンチャーメモリー (card[, camera's card])
    ("item", index, …)                         a carried item (index into deal.carried)
"""

from __future__ import annotations

import random

from contract.vocabulary import W

from .effects import ITEM_EFFECTS, SUIT_EFFECTS
from .rules import JourneyError, Rules
from .state import Deal, State, standing
from .steps import (draw, lose, mill, move_black, ready_item, replaced, walk_white, with_card,
                    without)

#: The phases that wait for a choice; every other phase runs by itself.
DECISIONS = ("play", "mill", "moment", "effect", "return", "resolve")
#: The moments between two steps, where letters and items may be used (「いつでも」).
FREE_USE = ("play", "moment", "resolve")


# ------------------------------------------------------------------ the deal


def new_game(rules: Rules, seed: object = 0, items=None, cards=None) -> State:
    """A game dealt for ``seed`` (the state after the first refill; ``deal_game`` also
    gives the events of the deal)."""
    return deal_game(rules, seed, items, cards)[0]


def deal_game(rules: Rules, seed: object = 0, items=None, cards=None) -> tuple[State, list]:
    """(state, events) of a new game: the locations laid (the last day last, the others
    shuffled), the deck shuffled, the hand drawn, then turn 1's refill. ``items``: the
    carried item ids (None: the set-up's 携帯); ``cards``: the card indices of a reduced
    deck (None: every event). The same seed deals the same game. ``seed`` is checked here
    (an int, never a bool: a script's or the command line's), so it is not typed ``int``,
    which the compiled twin would enforce with a TypeError of its own."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise JourneyError(f"シードは整数です（{seed!r}）")
    rng = random.Random(seed)
    others = [loc for loc in rules.locations if loc != rules.last_day]
    rng.shuffle(others)
    days = (*others, rules.last_day)
    carried = _carried(rules, items)
    passive = frozenset(it.effect for it in carried if it.passive)
    capacity = tuple(0 if day == len(days) - 1 else
                     rules.slots[loc] - (rules.red[loc] if rules.hard and "red_slots" not in passive else 0)
                     for day, loc in enumerate(days))
    deal = Deal(rules, days, capacity, carried, passive)
    deck = list(range(len(rules.card_ids)) if cards is None else cards)
    rng.shuffle(deck)
    hand_size = rules.hand + sum(it.value for it in carried if it.effect == "extra_hand")
    if len(deck) <= hand_size:
        raise JourneyError(f"山（{len(deck)} 枚）が{W.region.hand}（{hand_size} 枚）に足りません")
    state = State(deal, tuple(deck[hand_size:]), tuple(sorted(deck[:hand_size])), (),
                  tuple(() for _ in days), 0, (0, 0), 0, 0, 0, 0, "refill", (), (), 1)
    events = [{"event": "deal", "seed": seed, "setup": rules.setup,
               "days": [rules.location_names[d] for d in days],
               "capacity": list(capacity), "items": [it.id for it in carried],
               "hand": _ids(state, state.hand)}]
    _run(state, events)
    return state, events


def _carried(rules: Rules, items) -> tuple:
    chosen = list(rules.carried if items is None else items)
    by_name = {it.name: it.id for it in rules.items.values()}
    ids = [name if name in rules.items else by_name.get(name, name) for name in chosen]
    unknown = [name for name in ids if name not in rules.items]
    if unknown:
        raise JourneyError(f"アイテム「{'、'.join(unknown)}」はこの準備の一覧にありません"
                           f"（一覧: {'、'.join(rules.items[i].name for i in rules.item_pool)}）")
    if len(set(ids)) != len(ids):
        raise JourneyError("同じアイテムを2回選んでいます")
    if len(ids) != rules.items_chosen:
        raise JourneyError(f"アイテムは {rules.items_chosen} 個選びます（{len(ids)} 個でした）")
    return tuple(rules.items[i] for i in ids)


# ------------------------------------------------------------------ legal actions


def legal_actions(state: State) -> list[tuple]:
    """Every action the player may take now, in a fixed order (empty when the game is over)."""
    phase = state.phase
    if phase not in DECISIONS:
        return []
    actions = _PHASE_ACTIONS[phase](state)
    if phase in FREE_USE:
        actions += _letter_actions(state) + _item_actions(state)
    return actions


def _play_actions(s: State) -> list[tuple]:
    out = []
    days = len(s.deal.days)
    split = s.deal.has("split_black")
    number_of = s.deal.rules.number_of
    blacks = sorted(set(s.blacks))
    for card in sorted(set(s.hand)):
        steps = days - number_of[card]
        for b in blacks:
            out.append(("play", card, ((b, steps),)))
        if split:  # 地図（問題点）: the steps shared between both black pawns
            low, high = s.blacks
            for a in range(1, steps):
                if low != high or a <= steps - a:
                    out.append(("play", card, ((low, a), (high, steps - a))))
    return out


def _mill_actions(s: State) -> list[tuple]:
    return [("mill", "discard"), ("mill", "bottom")]


def _moment_actions(s: State) -> list[tuple]:
    return [("next",)]


def _effect_actions(s: State) -> list[tuple]:
    options = _effect_options(s, s.pending[0])
    if s.rules.optional_effects or not options:
        options.append(("skip",))
    return options


def _return_actions(s: State) -> list[tuple]:
    return [("return", card) for card in sorted(set(s.hand))]


def _resolve_actions(s: State) -> list[tuple]:
    return [("resolve", suit) for suit in resolvable(s)] + [("end",)]


_PHASE_ACTIONS = {"play": _play_actions, "mill": _mill_actions, "moment": _moment_actions,
                  "effect": _effect_actions, "return": _return_actions,
                  "resolve": _resolve_actions}


def _letter_actions(s: State) -> list[tuple]:
    if not s.letters:
        return []
    out = [("letter", "location_memory", b, d) for b in sorted(set(s.blacks)) for d in (1, -1)]
    camera = ready_item(s, "recall_extra")
    for card in s.discard:
        out.append(("letter", "adventure_memory", card))
    if camera is not None:
        out += [("letter", "adventure_memory", a, b) for a in s.discard for b in s.discard if a != b]
    return out


def _item_actions(s: State) -> list[tuple]:
    return [("item", index, *args) for index, item in enumerate(s.deal.carried)
            if not item.passive and s.ready(index)
            for args in ITEM_EFFECTS[item.effect].options(s)]


def _can_use_item(s: State) -> bool:
    """Has some carried item an option now (``_item_actions`` not empty), asked item by
    item without building the list (every moment asks: written for speed)."""
    carried, tapped = s.deal.carried, s.tapped
    for index in s.deal.tappable:
        if not tapped >> index & 1 and ITEM_EFFECTS[carried[index].effect].options(s):
            return True
    return False


def _effect_options(s: State, suit: int) -> list[tuple]:
    """The choices of a suit's effect now (empty: it does nothing)."""
    return [("effect", *args) for args in SUIT_EFFECTS[s.rules.suit_effects[suit]].options(s)]


def resolvable(s: State) -> list[int]:
    """The unresolved suits that lie under every pawn: at each pawn's location, at least as
    many cards of the suit as pawns stand there (解決フェイズ)."""
    suit_of = s.deal.rules.suit_of
    stacks = s.stacks
    # A suit qualifies when every pawn's day holds enough of it: intersect day by day
    # (a search asks this at every resolution point, so it is written for speed).
    candidates = None
    for day, count in standing(s.white, s.blacks):
        stack = stacks[day]
        if len(stack) < count:
            return []
        if count == 1:  # one pawn there (the most common case): any card of the suit
            here = {suit_of[card] for card in stack}
        else:
            held: dict = {}
            for card in stack:
                suit = suit_of[card]
                held[suit] = held.get(suit, 0) + 1
            here = {suit for suit, n in held.items() if n >= count}
        candidates = here if candidates is None else candidates & here
        if not candidates:
            return []
    resolved = s.resolved
    return sorted([suit for suit in candidates if not resolved >> suit & 1])


# ------------------------------------------------------------------ apply


def apply(state: State, action: tuple, check: bool = True) -> tuple[State, list[dict]]:
    """(the state after ``action``, the events it caused). ``state`` is not changed.
    ``check``: refuse an action that ``legal_actions`` does not list (JourneyError); a
    caller that took the action from that list may pass False."""
    if check and action not in legal_actions(state):
        raise JourneyError(f"いまはできない行動です: {action!r}")
    events: list[dict] = []
    return _step(state, action, events), events


def advance(state: State, action: tuple) -> State:
    """The state after ``action``, one ``legal_actions`` listed (not checked), its events
    not written: a search's step, which keeps only the state (building the events would
    cost it a sixteenth of its time)."""
    return _step(state, action, None)


def _step(state: State, action: tuple, ev) -> State:
    """A copy of ``state`` with ``action`` applied, its events added to ``ev`` (None:
    none written)."""
    s = state.copy()
    _ACTIONS[action[0]](s, action, ev)
    _run(s, ev)
    return s


def _do_play(s: State, action, ev) -> None:
    _, card, moves = action
    number = s.deal.rules.number_of[card]
    s.hand = without(s.hand, card)
    start = s.white
    looped = walk_white(s, number)
    if ev is not None:
        ev.append({"event": "play", "card": s.rules.card_ids[card], "number": number,
                   "white": [start + 1, s.white + 1], "loop": looped})
    # The white pawn's loop mills before the black pawn moves (DESIGN §6.2).
    s.phase, s.pending = "blacks", (card, moves)
    if looped:
        mill(s, ev, ("blacks", (card, moves)))


def _do_mill(s: State, action, ev) -> None:
    card = s.pending[0]
    if action[1] == "bottom":
        index = ready_item(s, "loop_to_bottom")
        s.tapped |= 1 << index
        s.deck += (card,)
        if ev is not None:
            ev.append({"event": "mill", "card": s.rules.card_ids[card], "to": "bottom",
                       "item": s.deal.carried[index].id})
    else:
        s.discard = with_card(s.discard, card)
        if ev is not None:
            ev.append({"event": "mill", "card": s.rules.card_ids[card], "to": "discard"})
    (s.phase, s.pending), s.resume = s.resume, ()


def _do_effect(s: State, action, ev) -> None:
    suit = s.pending[0]
    s.phase, s.pending = "effected", ()
    _apply_effect(s, suit, action[1:], ev)


def _do_skip(s: State, action, ev) -> None:
    if ev is not None:
        ev.append({"event": "effect", "suit": s.rules.suits[s.pending[0]], "effect": "skipped"})
    s.phase, s.pending = "effected", ()


def _apply_effect(s: State, suit: int, args: tuple, ev) -> None:
    effect = s.deal.rules.suit_effects[suit]
    # the event's record only where events are kept (a search's step keeps none)
    record = None if ev is None else {"event": "effect", "suit": s.rules.suits[suit],
                                      "effect": effect}
    SUIT_EFFECTS[effect].apply(s, args, ev, record)


def _do_return(s: State, action, ev) -> None:
    card = action[1]
    s.hand = without(s.hand, card)
    s.deck += (card,)
    if ev is not None:
        ev.append({"event": "return", "card": s.rules.card_ids[card]})
    left = s.pending[0] - 1
    if left:
        s.pending = (left,)
    else:
        (s.phase, s.pending), s.resume = s.resume, ()


def _do_resolve(s: State, action, ev) -> None:
    suit = action[1]
    s.resolved |= 1 << suit
    s.letters += 1
    if ev is not None:
        ev.append({"event": "resolve", "suit": s.rules.suits[suit],
                   "story": s.rules.flag_names[suit]})
    _pause(s, "end")


def _do_end(s: State, action, ev) -> None:
    s.phase, s.pending = "end", ()


def _do_next(s: State, action, ev) -> None:
    s.phase, s.pending = s.pending[0], ()


def _do_letter(s: State, action, ev) -> None:
    s.letters -= 1
    effect = action[1]
    if effect == "location_memory":
        if ev is not None:
            ev.append({"event": "letter", "effect": effect})
        move_black(s, action[2], action[3], ev, "letter")
        return
    cards = action[2:]
    for card in cards:  # the camera's card goes on top of the first
        s.discard = without(s.discard, card)
        s.deck = (card, *s.deck)
    if len(cards) > 1:
        index = ready_item(s, "recall_extra")
        s.tapped |= 1 << index
    if ev is not None:
        record = {"event": "letter", "effect": effect,
                  "cards": [s.rules.card_ids[c] for c in cards]}
        if len(cards) > 1:
            record["item"] = s.deal.carried[index].id
        ev.append(record)


def _do_item(s: State, action, ev) -> None:
    index = action[1]
    item = s.deal.carried[index]
    s.tapped |= 1 << index
    record = None if ev is None else {"event": "item", "item": item.id, "effect": item.effect}
    ITEM_EFFECTS[item.effect].apply(s, action[2:], ev, record)


_ACTIONS = {"play": _do_play, "mill": _do_mill, "effect": _do_effect, "skip": _do_skip,
            "return": _do_return, "resolve": _do_resolve, "end": _do_end, "next": _do_next,
            "letter": _do_letter, "item": _do_item}


# ------------------------------------------------------------------ the phases that run by themselves


def _run(s: State, ev) -> None:
    """Run the phases that need no choice until one does (or the game is over). A moment
    with nothing to use (no letter, no item) is no choice, and neither is the 解決 point
    with nothing to resolve and nothing to use: the game goes on by itself."""
    automatic, passes = _AUTOMATIC, _PASSES
    while True:
        phase = s.phase
        step = automatic.get(phase)
        if step is not None:
            step(s, ev)
            continue
        step = passes.get(phase)
        if step is not None and not (s.letters or _can_use_item(s)):
            step(s)
            if s.phase not in automatic:  # still the 解決 point (or the game over)
                return
        else:  # a decision, or the game over
            return


def _pause(s: State, then: str) -> None:
    """Open a moment of 「いつでも」 before the step ``then``."""
    s.phase, s.pending = "moment", (then,)


def _pass_moment(s: State) -> None:
    s.phase, s.pending = s.pending[0], ()


def _pass_resolution(s: State) -> None:
    if not resolvable(s):
        s.phase = "end"


#: The decisions that are no choice when nothing can be used, and how each goes on.
_PASSES = {"moment": _pass_moment, "resolve": _pass_resolution}


def _refill(s: State, ev) -> None:
    if not s.deck:
        lose(s, ev, "refill_empty")
        return
    draw(s, ev, "refill")
    s.phase = "play"


def _blacks(s: State, ev) -> None:
    card, moves = s.pending
    for black, steps in moves:
        move_black(s, black, steps, ev, "play")
    s.phase, s.pending = "place", (card,)


def _place(s: State, ev) -> None:
    card = s.pending[0]
    day = s.white
    capacity = s.deal.capacity[day]
    if capacity == 0:  # 【７日目】: the card is discarded at once
        s.discard = with_card(s.discard, card)
        if ev is not None:
            ev.append({"event": "place", "card": s.rules.card_ids[card], "day": day + 1,
                       "to": "discard"})
    else:
        stack = (card, *s.stacks[day])
        if ev is not None:
            ev.append({"event": "place", "card": s.rules.card_ids[card], "day": day + 1})
        for gone in stack[capacity:]:
            s.discard = with_card(s.discard, gone)
            if ev is not None:
                ev.append({"event": "overflow", "card": s.rules.card_ids[gone], "day": day + 1})
        s.stacks = replaced(s.stacks, day, stack[:capacity])
    _pause(s, "events")


def _events(s: State, ev) -> None:
    """The cards at the white pawn's location, nearest first: fixed now, so a card that
    arrives later (a blue swap, a リュックサック) has no effect this turn."""
    s.queue = s.stacks[s.white]
    s.phase = "effects"


def _effects(s: State, ev) -> None:
    """The next card of the queue: a resolved suit has lost its effect (unless a ランタン
    says otherwise); the first card of a suit with its effect applies it, and the suit's
    other cards then have none (each suit once). An effect with one way to happen
    happens; with none it does nothing; else the player chooses."""
    rules = s.deal.rules
    suit_of = rules.suit_of
    while s.queue:
        card, s.queue = s.queue[0], s.queue[1:]
        suit = suit_of[card]
        if not s.in_effect(suit):
            continue
        s.queue = tuple(c for c in s.queue if suit_of[c] != suit)
        s.phase = "effected"
        # the effect's own options (``_effect_options`` less the action's wrapping)
        options = SUIT_EFFECTS[rules.suit_effects[suit]].options(s)
        if not options:
            if ev is not None:
                ev.append({"event": "effect", "suit": rules.suits[suit], "effect": "none"})
        elif len(options) == 1 and not rules.optional_effects:
            _apply_effect(s, suit, options[0], ev)
        else:
            s.phase, s.pending = "effect", (suit,)
        return
    s.phase = "resolve"


def _effected(s: State, ev) -> None:
    """An effect is over: a moment before the next one, or the resolution point. A queue
    whose cards can have no effect — their suits resolved, and no standing ランタン to
    light one at that moment — holds no next effect: a moment «before» it was a second
    moment before the resolution point's, with the same letters and items."""
    if s.queue and _effect_ahead(s):
        _pause(s, "effects")
    else:
        s.queue = ()
        s.phase = "resolve"


def _effect_ahead(s: State) -> bool:
    """Can a card of the queue still have an effect: its suit in effect, or lit by a
    standing ランタン (any resolved suit can be) at the moment before it?"""
    if ready_item(s, "unresolve") is not None:
        return True
    suit_of = s.deal.rules.suit_of
    for card in s.queue:
        if s.in_effect(suit_of[card]):
            return True
    return False


def _end(s: State, ev) -> None:
    if s.all_resolved() and all(day == s.deal.last for day in s.pawns()):
        s.phase = "won"
        if ev is not None:
            ev.append({"event": "won", "turn": s.turn, **score(s)})
        return
    s.turn += 1
    s.lantern = 0
    if ev is not None:
        ev.append({"event": "turn", "turn": s.turn})
    _pause(s, "refill")


#: The phases that run by themselves; ``_run`` stops at every other (a decision, or the
#: game over).
_AUTOMATIC = {"refill": _refill, "blacks": _blacks, "place": _place, "events": _events,
              "effects": _effects, "effected": _effected, "end": _end}


# ------------------------------------------------------------------ what the player sees


def open_top(state: State) -> bool:
    """Is the deck's top card face up (山札公開: the set-up's rule, or 問題点のラジオ)?"""
    return state.rules.next_open or state.deal.has("next_open")


def information(state: State) -> tuple:
    """What the player knows of ``state``: its key with the deck's order hidden (the
    deck as a set of cards, and its top card when it is face up). Two states with equal
    information cannot be told apart at the table."""
    key = list(state.key())
    key[0] = (tuple(sorted(state.deck)), state.deck[0] if state.deck and open_top(state) else None)
    return tuple(key)


def resample(state: State, rng: random.Random, known=frozenset()) -> State:
    """``state`` with the unseen part of the deck shuffled by ``rng`` among its places:
    one guess of the order a player who does not see it can make. The cards of ``known``
    (whose places the player knows: journey/player.py ``Knowledge``) and the face-up top
    card stay where they are."""
    top = open_top(state)
    fixed = {i for i, card in enumerate(state.deck) if card in known or (top and i == 0)}
    # Sorted before the shuffle: the guess depends on which cards are unseen, never on
    # the order they really lie in.
    loose = sorted(card for i, card in enumerate(state.deck) if i not in fixed)
    rng.shuffle(loose)
    it = iter(loose)
    guessed = state.copy()
    guessed.deck = tuple(card if i in fixed else next(it) for i, card in enumerate(state.deck))
    return guessed


# ------------------------------------------------------------------ the score


def score(s: State) -> dict:
    """スコア: 1 VP per card left in the deck, per letter in hand, and 鍵ボーナス per
    location whose events all bear one key icon (one event counts); the carried items'
    キーボーナス adds to that, their 費用 is taken off."""
    keys = s.rules.key_of
    matching = sum(1 for stack in s.stacks if stack and len({keys[c] for c in stack}) == 1)
    per_location = s.rules.key_vp + sum(it.value for it in s.deal.carried if it.effect == "key_bonus")
    cost = sum(it.cost for it in s.deal.carried)
    parts = {"deck": len(s.deck), "letters": s.letters, "keys": matching * per_location,
             "cost": -cost}
    return {"score": sum(parts.values()), "parts": parts, "matching": matching}


def _ids(s: State, cards) -> list[str]:
    return [s.rules.card_ids[c] for c in cards]
