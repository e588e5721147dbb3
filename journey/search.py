"""探索の規則 — the journey runtime seen through the solver's ``Rules`` protocol
(journey/solve.py): its actions, apply, key and result, plus two estimates of a position
that the rules do not give, an upper bound of the score still reachable (for the
branch-and-bound) and a promise (見込み, for the order in which children are tried and
for the players' evaluation).

Nothing here restates a rule: the actions, their effects and the score are the runtime's
(journey/play.py); the bound and the promise only read a state. The search stays on the
rules' tuples, not ``Journey``'s action values: a step through the interface (its actions
as values, its legality check) costs about a quarter more (benchmarks/bench_journey.py).
"""

from __future__ import annotations

from itertools import accumulate

from .play import advance, legal_actions, score
from .state import State, standing

__all__ = ["EVERY_LINE", "JOURNEY", "JourneyRules", "bound", "deferred", "forget", "lookahead",
           "play_on", "promise"]

#: The promise of a won game (plus its score) and of a lost one: beyond any position.
WON, LOST = 10 ** 6, -(10 ** 6)
#: Weights of the promise, in points where a card left in the deck is 1 (the score's
#: unit): a resolved story, the pawns' places already holding the best story's cards,
#: a letter in hand, a ±1 black-pawn move still missing to bring the pawns' sum to the
#: last day's, and (once every story is resolved) a pawn on the last day.
RESOLVED, UNDER_PAWNS, LETTER, MISALIGNED, ARRIVED = 100, 20, 5, 15, 30


def bound(s: State) -> int | None:
    """An upper bound of the score of any win still reachable from ``s`` (None: none is):
    admissible — never below the best win (tests/test_journey_solve_bound.py checks it
    against brute force) — and as tight as the deck as a clock makes it.

    The score is deck + letters + keys − costs. Deck + letters changes only by: a refill
    (−1), a loop's mill to the discard (−1; not under a テント), a resolution (+1), a
    ロケーションメモリー (−1) and カメラ's extra card (+1); an アドベンチャーメモリー moves one
    from the letters to the deck. So the bound is what is here now, plus the letters still
    to win, minus the fewest refills, mills and ロケーションメモリー any win needs:

    * **refills** — a story resolves when its suit lies under the three pawns: 3 of its
      cards on the board. Only a play (one a turn, after the refill) or a リュックサック
      puts a card there, and one story resolves a turn; the last one resolves on a day
      that holds events, so the pawns reach 【７日目】 a turn later — or in the same turn
      by 地図 and two ロケーションメモリー (both paths are weighed);
    * **mills** — every loop of the white pawn mills a card for good but those a テント
      puts under the deck: always with 問題点's, else one while it stands and one more
      each time a 緑 stands it up (so with 緑's story resolved, a tapped テント saves
      none). The white pawn walks at least the smallest numbers of the cards still to be
      played;
    * **ロケーションメモリー** — a play leaves the pawns' day-sum unchanged modulo the days
      (white +n, a black 7 − n); the win needs it at 3 × 【７日目】. Once 白's call can no
      longer happen, the shift still missing is made by 赤 (±1 a turn), 地図 (+1 a use)
      or a letter each;
    * **keys** — a day not bearing one key icon now needs a card put there (a play, a
      リュックサック) or a 青 swap; weighed against the refills each further turn costs.
      Without 地図 to walk it the last step, the white pawn reaches 【７日目】 by a play
      whose card that day does not take: the last play fixes no key;
    * **open stories** — 赤's nudges, 緑's stands and 青's swaps happen in event phases
      and only while their story is open (unless a ランタン is carried): not in this
      turn once its resolution point is reached, and never in the turns after the last
      resolution.

    A deal whose deck + letters cannot pay for the refills and mills it still needs is
    lost: None."""
    phase, pending = s.phase, s.pending
    if phase == "won":
        return score(s)["score"]
    if phase == "lost":
        return None
    f: _Facts = _facts(s.deal)
    deck = len(s.deck)
    if phase == "mill":       # a loop's card in the air, which a テント puts under the deck
        deck += 1
    elif phase == "return":   # cards drawn (黄, ラジオ) that go back under the deck
        deck += pending[0]
    if phase in ("mill", "return"):
        phase, pending = s.resume
    p_now, r_now, t0 = _TURN_LEFT.get(phase, (0, 1, 0)) if phase != "moment" else \
        _MOMENT_LEFT[pending[0]]
    resolved = s.resolved
    unresolved = f.suits - resolved.bit_count()
    # The board: cards of each suit, and the card played whose black pawn has yet to walk.
    board = f.board_of(s.stacks)
    on_board, plain_spent, blue_spent, walks = board
    blacks = s.blacks
    inflight = 0
    if phase == "blacks":  # the card played is in the air, its black pawn yet to walk
        card, moves = pending
        on_board = list(on_board)
        on_board[f.suit_of[card]] += 1
        low, high = blacks
        for black, steps in moves:  # as journey.steps.move_black walks them, in turn
            to = (black + steps) % f.days
            low, high = sorted((to, high) if low == black else (low, to))
        blacks = (low, high)
        inflight = 0 if s.white == f.last else 1  # the last day takes no card
    pawn_sum = s.white + blacks[0] + blacks[1]
    # The suits whose effect can still happen: unresolved, or given back by a ランタン
    # this turn (any of them, later, when one is carried).
    live = -1 if f.lantern else ~resolved | s.lantern
    green = bool(live & f.green_bit)
    # A loop mills for good unless a テント puts its card under the deck: always (問題点),
    # or once while it stands — and again each time a 緑 stands it up.
    if f.tent_always or (f.tent and green):
        free_mills = -1  # every loop's card under the deck
    elif f.tent and not s.tapped >> f.tent_index & 1:
        free_mills = 1
    else:
        free_mills = 0
    # Cards to put on the board, and the least the white pawn walks playing them.
    needed = 0
    least_walk = 0
    suit_total = f.suit_total
    for suit in range(f.suits):
        if resolved >> suit & 1:
            continue
        short = 3 - on_board[suit]
        if short <= 0:
            continue
        if suit_total[suit] < 3:
            return None  # the story can never lie under three pawns
        needed += short
        if free_mills >= 0:  # the white pawn's walk matters only where loops mill for good
            least_walk += walks[suit][short]
    rucksack = f.rucksack
    if rucksack:
        # plays and a リュックサック each put a card; it stands again at most once a turn
        ready = 0 if s.tapped >> f.rucksack_index & 1 else 1
        last_put = -(-(needed - p_now - ready - 1) // 2) if needed else -1
    else:
        last_put = needed - p_now if needed else -1
    called = bool(live & f.white_bit)
    red = bool(live & f.red_bit)
    if unresolved:
        # The last story resolves with every pawn on a day that holds events; the pawns
        # then reach 【７日目】 with no event on the way (that day holds none): by 地図 and
        # a ロケーションメモリー for each black pawn at once, after one more play (which
        # walks one black pawn: the other needs a letter), or after two.
        last_resolution = max(unresolved - r_now, last_put)
        paths = [(last_resolution + 2, 0, 2),
                 (last_resolution + 1, 0 if f.split else 1, 1)]
        if f.map is not None:
            paths.append((last_resolution, 2, 0))
    else:
        paths = []
        for turns in range(3):
            home = _home_letters(s.white, blacks, f, p_now + turns, red or called)
            if home is not None:
                paths.append((turns, home, 0))
    # The day-sum: the shift still missing, and whether 白's call can still make any.
    days = f.days
    shift = (f.target - pawn_sum) % days
    shift = min(shift, days - shift)
    blue = bool(live & f.blue_bit)
    map_ready = f.map is not None and not s.tapped >> f.map & 1
    # Without 地図 to walk it the last step, the white pawn reaches 【７日目】 by a play,
    # whose card that day does not take: the last play fixes no key.
    last_play = 0 if f.map is not None and (map_ready or green) else 1
    # A suit's effect happens in an event phase, and only while its story is open
    # (unless a ランタン is carried): never in the turns after the last resolution. This
    # turn's event phase is still to come unless its resolution point is reached.
    fading = not f.lantern
    e_now = 0 if phase == "resolve" else r_now
    ready_sack = 1 if rucksack and not s.tapped >> f.rucksack_index & 1 else 0
    # Keys: what each day needs to bear one key icon, as the running total of the
    # cheapest first — the days a number of fixes pays for are counted along it (a
    # handful of days: a loop in C, where a call to bisect took a seventh of the bound's
    # own time).
    spent = blue_spent if blue else plain_spent
    spent_days = len(spent)
    letters_ever = s.letters + unresolved
    # The deal's constants, read once (the loop below runs some four times a call).
    has_camera, per_day, cost, key_days_all = f.camera, f.per_day, f.cost, f.key_days
    stepped = f.map is not None
    map_step = 1 if map_ready else 0
    per_extra = 1 + blue + rucksack  # the fixes a further turn brings
    best = None
    for turns, letters_spent, post in paths:
        plays = p_now + turns
        refills = turns + t0
        mills = 0
        if free_mills >= 0:
            walk = least_walk + max(0, plays - needed) if not rucksack else 0
            mills = max(0, (s.white + walk) // days - free_mills)
        extra = 0
        while True:
            t = turns + extra
            # the event phases (this turn's, if still to come) in which an open suit's
            # effect can happen
            effect_turns = t + e_now - post if fading else t + 1
            if called:
                memories = letters_spent
            else:
                nudges = effect_turns if red else 0
                steps = (map_step + (effect_turns if green else 0)) if stepped else 0
                memories = max(letters_spent, shift - nudges - steps)
            fixes = plays + extra + inflight + (effect_turns if blue else 0) + \
                ((ready_sack + (effect_turns if green else 0)) if rucksack else 0)
            if plays + extra and last_play:
                fixes -= 1
            key_days = 0
            while key_days < spent_days and spent[key_days] <= fixes:
                key_days += 1
            # カメラ: each アドベンチャーメモリー may bring one more card to the deck
            camera = (letters_ever - memories) if has_camera else 0
            left = deck + letters_ever + camera - refills - extra - mills - memories
            if left >= 0 and memories <= letters_ever:
                value = left + per_day * key_days - cost
                if best is None or value > best:
                    best = value
            if (memories <= letters_spent and key_days == key_days_all) or extra > 16:
                break
            if memories <= letters_spent:
                # No letter left to save: a further turn only loses a card until the
                # fixes pay for one more day's keys, so the turns in between are skipped
                # (their values are all lower; the last turn weighed is still the 17th).
                extra += -(-(spent[key_days] - fixes) // per_extra)
                if extra > 17:
                    break
            else:
                extra += 1
            # the most any later turn could still give: every day's keys, no letter spent
            most = (deck + letters_ever * (2 if has_camera else 1) - refills - extra - mills
                    - letters_spent + per_day * key_days_all - cost)
            if best is not None and most <= best:
                break
    return best


#: What is left of the current turn, by its phase: (a play still to come, its resolution
#: point still to come, its refill still to come).
_TURN_LEFT = {"play": (1, 1, 0), "refill": (1, 1, 1), "end": (0, 0, 0)}
_MOMENT_LEFT = {"events": (0, 1, 0), "effects": (0, 1, 0), "end": (0, 0, 0),
                "refill": (1, 1, 1)}


class _Facts:
    """What the bound and the promise read of a deal, worked out once per deal, and their
    notes of what they read of its positions (pure functions of a position: a note is
    only ever reused, never a guess). Compiled, an extension type (journey/search.pxd):
    the bound reads some forty of these a call."""

    def __init__(self, deal):
        rules = deal.rules
        carried = deal.carried
        effects = rules.suit_effects

        def suit(effect):
            return effects.index(effect) if effect in effects else None

        def item(effect):
            return next((i for i, it in enumerate(carried)
                         if it.effect == effect and not it.passive), None)

        self.deal = deal
        self.suits = len(rules.suits)
        self.suit_of, self.number_of, self.key_of = rules.suit_of, rules.number_of, rules.key_of
        self.suit_total = [rules.suit_of.count(suit) for suit in range(self.suits)]
        #: each suit's cards
        self.cards_of = tuple(tuple(c for c, of in enumerate(rules.suit_of) if of == suit)
                              for suit in range(self.suits))
        self.days = len(deal.days)
        self.target = (3 * deal.last) % self.days
        self.capacity = deal.capacity
        self.key_days = sum(1 for c in deal.capacity if c)
        self.per_day = rules.key_vp + sum(it.value for it in carried if it.effect == "key_bonus")
        self.cost = sum(it.cost for it in carried)
        self.red, self.white = suit("nudge_black"), suit("call_black")
        self.green, self.blue = suit("stand_item"), suit("swap_same_number")
        # each as a mask of the suits (0: no such suit)
        self.red_bit, self.white_bit, self.green_bit, self.blue_bit = (
            0 if index is None else 1 << index
            for index in (self.red, self.white, self.green, self.blue))
        self.lantern_index = item("unresolve")
        self.lantern = self.lantern_index is not None
        self.yellow = suit("draw_return")
        self.radio = item("cycle_three")
        self.map = item("advance_white")
        self.camera_index = item("recall_extra")
        self.camera = self.camera_index is not None
        self.rucksack_index = item("swap_in")
        self.rucksack = self.rucksack_index is not None
        self.last = deal.last
        self.split = deal.has("split_black")
        self.tent_index = item("loop_to_bottom")
        self.tent_always = deal.has("loop_to_bottom_always")
        self.tent = self.tent_index is not None or self.tent_always
        #: stack → ((suit, cards of it), …): what ``promise`` reads of a pawn's day, worked
        #: out once per stack (a stack is shared by every position until a card lands there)
        self.suit_counts: dict = {}
        #: stacks → what ``bound`` reads of the board (``read_board``), likewise
        self.boards: dict = {}
        #: stacks → {(white, blacks, resolved) packed: ``under_pawns``}, likewise
        self.unders: dict = {}
        # The stacks asked last, by identity, and what was read of them: a position's
        # children share their parent's stacks unless a card lands, and the bound and the
        # promise of one child are asked in turn (a tuple of tuples hashes anew each time).
        self.board_stacks = self.board = self.under_stacks = self.unders_here = None
        self.under_notes = 0  # the pawns' readings in ``unders``, all stacks together
        #: (a position's key, turns left) → its ``lookahead``, likewise
        self.lookaheads: dict = {}

    def count_suits(self, stack: tuple) -> tuple:
        """The cards of each suit in ``stack``, as (suit, count) pairs (and noted)."""
        count: dict = {}
        for card in stack:
            suit = self.suit_of[card]
            count[suit] = count.get(suit, 0) + 1
        return _note(self.suit_counts, stack, tuple(count.items()))

    def board_of(self, stacks: tuple) -> tuple:
        """``read_board`` of ``stacks``, from the notes when they have it."""
        if stacks is self.board_stacks:
            return self.board
        board = self.boards.get(stacks)
        if board is None:
            board = self.read_board(stacks)
        self.board_stacks, self.board = stacks, board
        return board

    def under_pawns(self, stacks: tuple, white, blacks: tuple, done) -> int:
        """The most cards of one unresolved suit that lie under the pawns, at most as many
        on a day as pawns stand there (``promise``'s UNDER_PAWNS) (and noted)."""
        if stacks is self.under_stacks:
            here = self.unders_here
        else:
            here = self.unders.get(stacks)
            if here is None:
                here = self.unders[stacks] = {}
            self.under_stacks, self.unders_here = stacks, here
        low, high = blacks
        packed = ((done * self.days + high) * self.days + low) * self.days + white
        found = here.get(packed)
        if found is not None:
            return found
        held = [0] * self.suits
        counts = self.suit_counts
        for day, need in standing(white, blacks):
            stack = stacks[day]
            count = counts.get(stack)
            if count is None:
                count = self.count_suits(stack)
            for suit, n in count:
                held[suit] += n if n < need else need
        under = 0
        for suit in range(self.suits):
            if held[suit] > under and not done >> suit & 1:
                under = held[suit]
        self.under_notes += 1
        if self.under_notes > NOTES_CAP:  # start afresh, as ``_note`` does
            self.unders.clear()
            self.unders[stacks] = here = self.unders_here = {}
            self.under_notes = 1
        here[packed] = under
        return under

    def read_board(self, stacks: tuple) -> tuple:
        """(cards of each suit on the board, the running totals of the days' key costs
        cheapest first, without 青 and with 青, and per suit the least walk of its cards off
        the board — ``walks[suit][k]``, the sum of the k smallest numbers): what ``bound``
        reads of the stacks (and noted). A card off the board is in the hand, the deck,
        the discard pile or in the air."""
        on_board = [0] * self.suits
        suit_of = self.suit_of
        placed = set()
        for stack in stacks:
            for card in stack:
                on_board[suit_of[card]] += 1
                placed.add(card)
        number_of = self.number_of
        walks = tuple(tuple(accumulate(sorted(number_of[c] for c in cards if c not in placed),
                                       initial=0))
                      for cards in self.cards_of)
        return _note(self.boards, stacks,
                    (tuple(on_board), tuple(accumulate(_key_costs(stacks, self, False))),
                     tuple(accumulate(_key_costs(stacks, self, True))), walks))


_FACTS: dict = {}
#: The most entries each of a deal's notes (``_Facts.suit_counts``, ``boards``, ``unders``,
#: ``lookaheads``) keeps before it starts afresh — a few MB; a solve at 3000 positions
#: notes some 6,000 positions' readings.
NOTES_CAP = 20_000


def _note(notes: dict, key, value):
    """``value``, noted in ``notes`` under ``key`` — which starts afresh past NOTES_CAP
    entries (a note is a pure function of its key: one forgotten is worked out again)."""
    if len(notes) > NOTES_CAP:
        notes.clear()
    notes[key] = value
    return value
#: The most deals whose facts are kept (then all start afresh): a search reads one deal
#: at a time, and each keeps its notes.
FACTS_KEPT = 4


def forget() -> None:
    """Drop every deal's facts and their notes: for a caller done with its deals (a report
    task: the next task deals anew, and the collector would walk the notes left behind —
    some 5% of a report's time)."""
    _FACTS.clear()
    _LAST[0] = _LAST[1] = None


#: The deal asked last and its facts: a search asks of one deal some ten times a position.
_LAST: list = [None, None]


def _facts(deal) -> _Facts:
    last = _LAST
    if last[0] is deal:
        return last[1]
    found = _FACTS.get(id(deal))
    if found is None or found.deal is not deal:
        if len(_FACTS) >= FACTS_KEPT:
            _FACTS.clear()
        found = _FACTS[id(deal)] = _Facts(deal)
    last[0], last[1] = deal, found
    return found


def _home_letters(white: int, blacks: tuple, f: _Facts, plays: int,
                  moved: bool) -> int | None:
    """Every story resolved: the fewest ロケーションメモリー that bring the pawns to
    【７日目】 with ``plays`` plays left (None: they cannot get there). A play walks one
    black pawn (both with 地図（問題点）); a letter moves one a day. ``moved``: 赤 or 白
    can still move a black pawn (no letter is then counted)."""
    last, days = f.last, f.days
    if plays == 0:
        if white != last and not (f.map is not None and white == last - 1):
            return None
        if moved:
            return 0
        return sum(min((last - b) % days, (b - last) % days) for b in blacks)
    if plays >= 2 or moved or f.split:
        return 0
    return min(min((last - b) % days, (b - last) % days) for b in blacks)


def _key_costs(stacks: tuple, f: _Facts, blue: bool) -> list[int]:
    """Per day that holds events, the fewest cards put there (or 青 swaps) before all its
    events bear one key icon, cheapest first. A card put on a day pushes the farthest
    off, so without a swap the day needs as many plays as the cards beyond its nearest
    run of one key; a swap (one a turn) replaces one card anywhere in it."""
    keys = f.key_of
    out = []
    for day, stack in enumerate(stacks):
        room = f.capacity[day]
        if not room:
            continue
        if not stack:
            out.append(1)
            continue
        first = keys[stack[0]]
        run = 1
        while run < len(stack) and keys[stack[run]] == first:
            run += 1
        if run == len(stack):
            out.append(0)
            continue
        cost = room - run
        if blue:
            counts: dict = {}
            for card in stack:
                counts[keys[card]] = counts.get(keys[card], 0) + 1
            cost = min(cost, len(stack) - max(counts.values()))
        out.append(cost)
    out.sort()
    return out


def promise(s: State) -> int:
    """見込み: how near ``s`` looks to a win (higher is nearer) — resolved stories first,
    then how many pawns' places already hold the best unresolved story's cards, letters,
    the deck, and how far the pawns are from a sum that the last day allows.

    The pawns' sum matters because a play moves white +n and a black pawn 7 − n, which
    leaves the sum of the three places unchanged modulo the days: only the letters and the
    red and white effects change it, and every resolved story takes its effect away."""
    phase = s.phase
    if phase == "won":
        return WON + score(s)["score"]
    if phase == "lost":
        return LOST
    # Written for speed: the search asks this of every child it orders.
    f: _Facts = _facts(s.deal)
    suits = f.suits
    done = s.resolved
    resolved = done.bit_count()
    white = s.white
    low, high = s.blacks
    letters = s.letters
    under = 0
    if resolved < suits:
        # A search meets the same board and pawns again and again (three times in four
        # in a look-ahead): what lies under them is noted.
        under = f.under_pawns(s.stacks, white, s.blacks, done)
    days = f.days
    last = days - 1
    off = (3 * last - white - low - high) % days
    if off > days - off:
        off = days - off
    value = (RESOLVED * resolved + UNDER_PAWNS * under + LETTER * letters + len(s.deck)
             - MISALIGNED * max(0, off - letters))
    if resolved == suits:
        value += ARRIVED * ((white == last) + (low == last) + (high == last)) - UNDER_PAWNS * off
    return value


#: How far a look-ahead plays on: the rest of this turn and the next one.
HORIZON = 2
#: The actions a look-ahead does not use (one option per card of the discard or of the
#: hand): they are weighed only as the options of a decision itself.
LOOKAHEAD_SKIPS = ("letter", "item")


def play_on(s: State, turns: int = HORIZON) -> State:
    """``s`` played on by the promise alone, one step at a time (letters and items left
    out), to the end of this turn and the next ``turns`` − 1; a game stuck with no legal
    action (an empty hand at 移動フェイズ) is left where it stands."""
    turn = s.turn
    while not s.over and s.turn < turn + turns:
        step = _greedy_step(s)
        if step is None:
            break
        s = step
    return s


def _greedy_step(s: State) -> State | None:
    """The state ``play_on`` steps to from ``s``: its child of best promise, letters and
    items left out (None: no legal action)."""
    actions = legal_actions(s)
    if not actions:
        return None
    actions = [a for a in actions if a[0] not in LOOKAHEAD_SKIPS] or actions
    if len(actions) == 1:  # no choice (most often a moment's "next"): nothing to weigh
        return advance(s, actions[0])
    return max((advance(s, a) for a in actions), key=promise)


def lookahead(s: State) -> int:
    """The promise of ``s`` played on to the end of the next turn (``play_on``).

    The line played on depends only on the position and the turns left (not on the turn
    counter), so every position it passes is noted with the promise it ends on: the
    probe's dive next asks of the child that line went through, and lines that meet
    share their end."""
    seen = _facts(s.deal).lookaheads
    end = s.turn + HORIZON
    walked = []
    while True:
        here = (s.hashed_key(), end - s.turn)
        value = seen.get(here)
        if value is not None:
            break
        walked.append(here)
        step = None if s.over or s.turn >= end else _greedy_step(s)
        if step is None:
            value = promise(s)
            break
        s = step
    for here in walked:
        _note(seen, here, value)
    return value


class JourneyRules:
    """The journey runtime as the solver's ``Rules``. ``defer``: leave out the letters
    whose use can wait to a later moment of 「いつでも」 with the same outcome (``deferred``);
    False: every legal action (what brute force checks the reduction against)."""

    def __init__(self, defer: bool = True):
        self.defer = defer

    def actions(self, s: State) -> list:
        """Every action the rules allow in ``s`` (less the deferred letters)."""
        actions = legal_actions(s)
        if self.defer and s.letters and s.phase in ("play", "moment", "resolve"):
            wait = deferred(s)
            if wait:
                actions = [a for a in actions if a[0] != "letter" or a[1] not in wait]
        return actions

    #: The state after an action (``s`` itself is left as it was): the action comes from
    #: legal_actions, so no second check, and no events.
    apply = staticmethod(advance)
    #: The memo key of a state: equal for states the rest of the game cannot tell apart.
    key = staticmethod(State.hashed_key)

    def result(self, s: State) -> tuple[bool, int] | None:
        """(won, score) once the game is over, None while it goes on."""
        if s.phase == "won":
            return True, score(s)["score"]
        if s.phase == "lost":
            return False, 0
        return None

    bound = staticmethod(bound)
    promise = staticmethod(promise)
    lookahead = staticmethod(lookahead)


JOURNEY = JourneyRules()
#: Every legal action, nothing deferred: the reference the reductions are tested against.
EVERY_LINE = JourneyRules(defer=False)


def deferred(s: State) -> tuple[str, ...]:
    """The letter effects whose use now can wait, with the same outcome, for a later
    moment of this turn or the next (a dominance reduction of the search, not a rule).

    A ロケーションメモリー moves a black pawn one day; moves of the pawns add up in any order
    (a play, 赤 and another letter name a black pawn by its day, the sum is the same), and
    only the resolution, the end check and 白's call read where the black pawns stand. So
    before the play and before the refill it waits for the moment after the card is placed;
    in the event phase, it waits for the resolution point unless a 白 card (or a ランタン
    that could give it its effect) is still to come. An アドベンチャーメモリー puts a card on
    the deck (a card of the discard pile, which only grows until it is used): only a draw
    (the refill, 黄, ラジオ), a mill (a loop: a play, 地図 from the last day) and the score
    read the deck, and the score reads deck and letters alike. So before the play it waits
    for the moment after the card is placed unless a card in hand loops the white pawn;
    at the resolution point and after it, for the moment before the next refill; in the
    event phase, for the resolution point unless 黄 is still to come — and never while
    ラジオ or 地図 could draw or mill now, or a カメラ stands (with it, a memory brings two
    cards for one letter: a win's score reads that; in the event phase, a 緑 still to come
    could stand it up again)."""
    phase = s.phase
    if phase not in ("play", "moment", "resolve"):
        return ()
    f: _Facts = _facts(s.deal)
    if phase == "play":
        if _deck_kept(s, f) and not _loops(s, f):
            return _BOTH
        return _LOCATION
    step = s.pending[0] if phase == "moment" else "resolve"
    if step == "refill":
        return _LOCATION
    if step in ("resolve", "end"):
        return _ADVENTURE if _deck_kept(s, f) else ()
    if step not in ("events", "effects"):
        return ()
    cards = s.stacks[s.white] if step == "events" else s.queue
    lantern = f.lantern and s.ready(f.lantern_index)
    suit_of = f.suit_of
    ahead = {suit_of[c] for c in cards}
    wait = []
    if f.white not in ahead or not (lantern or s.in_effect(f.white)):
        wait.append("location_memory")
    draws = (f.yellow in ahead and (lantern or s.in_effect(f.yellow))) or \
        _item_reads_deck(s, f) or \
        (f.camera and s.ready(f.camera_index) and f.green in ahead
         and (lantern or s.in_effect(f.green)))
    if not draws:
        wait.append("adventure_memory")
    return tuple(wait)


def _item_reads_deck(s: State, f: _Facts) -> bool:
    """Could an item used now read the deck: ラジオ drawing, or 地図 walking the white
    pawn off the last day (its loop mills the top card)?"""
    return (f.radio is not None and s.ready(f.radio)) or \
        (f.map is not None and s.ready(f.map) and s.white == f.last)


def _deck_kept(s: State, f: _Facts) -> bool:
    """Can nothing used now read the deck (``_item_reads_deck``), and no カメラ stand?"""
    return not (_item_reads_deck(s, f) or (f.camera and s.ready(f.camera_index)))


def _loops(s: State, f: _Facts) -> bool:
    """Could the card played now walk the white pawn past the last day (a loop, whose
    mill reads the deck)?"""
    number_of, days, white = f.number_of, f.days, s.white
    for card in s.hand:
        if white + number_of[card] >= days:
            return True
    return False


_LOCATION = ("location_memory",)
_ADVENTURE = ("adventure_memory",)
_BOTH = ("location_memory", "adventure_memory")
