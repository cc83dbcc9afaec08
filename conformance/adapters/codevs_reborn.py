#!/usr/bin/env python3
"""A second, independent CODE VS Reborn engine that speaks shinpan's adapter protocol.

It is both a worked example for engine authors (conformance/ADAPTERS.md) and an engine the suite
checks: `shinpan check codevs-reborn --engine "python3 conformance/adapters/codevs_reborn.py"`
must pass every case. It is written from the rule document (seed 004) and the D-reborn-*
decisions of spec-notes.md, not from shinpan's Rust code, and needs only the standard library.

    --bug chain-round    plant a rule bug: chain score sums round(1.3^i) instead of floor
    --bug ojama-cap-11   plant a rule bug: an ojama row falls at a stock of 11, not 10

An adapter reads one JSON request per line and writes one JSON response per line, flushing each.
Anything it wants to say besides goes to stderr.
"""

import argparse
import json
import random
import sys

PROTOCOL = 1
GAME = "codevs-reborn"

# The numbers of the rule document.
WIDTH, HEIGHT = 10, 16            # フィールドについて: 10 wide, 16 visible rows
DANGER = 17                       # a block at height 17 (1-based) at the end of a turn loses
TURNS = 500                       # ターンについて
OJAMA = 11                        # お邪魔ブロック: given as 11
OJAMA_ROW = 10                    # a row falls when the stock reaches the field width
GAUGE_MAX, GAUGE_GAIN, SKILL_AT = 100, 8, 80
THINKING_MS = 180_000             # 3 minutes for the whole match
FORBIDDEN_IN_NAME = set('\\/:*?"<>|')

BUGS = set()


class ProtocolError(Exception):
    """A text that breaks the strict grammar: where, and what was wanted."""

    def __init__(self, line, col, wanted):
        super().__init__(f"line {line}, column {col}: expected {wanted}")
        self.line, self.col = line, col


# --- Rules: small pure functions -------------------------------------------------------------

def chain_score(chains):
    """Σ_{i=1..C} floor(1.3^i), exactly: 1.3^i = 13^i / 10^i."""
    if "chain-round" in BUGS:
        return sum((2 * 13 ** i + 10 ** i) // (2 * 10 ** i) for i in range(1, chains + 1))
    return sum(13 ** i // 10 ** i for i in range(1, chains + 1))


def explosion_score(b):
    """floor(25 * 2^(b/12)) for b >= 1, none for b == 0: the largest k with k^12 <= 25^12 * 2^b."""
    if b == 0:
        return 0
    target = 25 ** 12 * 2 ** b
    k = int(25 * 2 ** (b / 12))
    while k ** 12 > target:
        k -= 1
    while (k + 1) ** 12 <= target:
        k += 1
    return k


def gauge_loss(opponent_chains):
    return 12 + 2 * opponent_chains if opponent_chains >= 3 else 0


def ojama_row_due(stock):
    return stock >= (11 if "ojama-cap-11" in BUGS else OJAMA_ROW)


# --- The field: ten columns, each a list of blocks from the floor up ---------------------------

CELL_CHARS = {".": 0, "X": OJAMA, **{str(v): v for v in range(1, 10)}}


def field_from_text(text):
    rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    columns = [[] for _ in range(WIDTH)]
    for depth, row in enumerate(reversed(rows)):
        if len(row) != WIDTH or any(c not in CELL_CHARS for c in row):
            raise ValueError(f"field row {row!r} is not ten of . 1-9 X")
        for x, c in enumerate(row):
            if CELL_CHARS[c]:
                if len(columns[x]) != depth:
                    raise ValueError(f"a block in column {x} floats")
                columns[x].append(CELL_CHARS[c])
    return columns


def field_to_text(columns):
    top = max(len(c) for c in columns)
    out = []
    for y in range(top - 1, -1, -1):
        out.append("".join(cell_char(c[y]) if y < len(c) else "." for c in columns))
    return "".join(row + "\n" for row in out)


def cell_char(value):
    return "X" if value == OJAMA else str(value)


def vanish_round(columns):
    """Removes every block that sums to 10 with one of its 8 neighbours; True if any did."""
    doomed = set()
    for x, column in enumerate(columns):
        for y, value in enumerate(column):
            for dx, dy in ((0, 1), (1, -1), (1, 0), (1, 1)):
                nx, ny = x + dx, y + dy
                if nx < WIDTH and 0 <= ny < len(columns[nx]) and value + columns[nx][ny] == 10:
                    doomed.update({(x, y), (nx, ny)})
    remove(columns, doomed)
    return bool(doomed)


def explode(columns):
    """Every 5 takes itself and its 8 neighbours with it, ojama excepted; returns how many."""
    doomed = set()
    for x, column in enumerate(columns):
        for y, value in enumerate(column):
            if value != 5:
                continue
            for nx in range(max(0, x - 1), min(WIDTH, x + 2)):
                for ny in range(max(0, y - 1), y + 2):
                    if ny < len(columns[nx]) and columns[nx][ny] != OJAMA:
                        doomed.add((nx, ny))
    remove(columns, doomed)
    return len(doomed)


def remove(columns, doomed):
    """Takes the doomed blocks out; what was above them falls."""
    for x in range(WIDTH):
        columns[x][:] = [v for y, v in enumerate(columns[x]) if (x, y) not in doomed]


def settle(columns):
    chains = 0
    while vanish_round(columns):
        chains += 1
    return chains


# --- The canonical state ------------------------------------------------------------------------

def new_player():
    return {"field": "", "ojama_stock": 0, "skill_gauge": 0, "score": 0,
            "time_left_ms": THINKING_MS, "chains": 0, "skill_used": False,
            "exploded_blocks": 0, "turn_score": 0, "ojama_sent": 0}


def load_state(canonical):
    state = {"turn": 0, "packs": [], "players": [], "outcome": None}
    state.update(canonical)
    players = []
    for i in range(2):
        player = new_player()
        if i < len(state["players"]):
            player.update(state["players"][i])
        player["columns"] = field_from_text(player["field"])
        players.append(player)
    state["players"] = players
    return state


def dump_state(state):
    players = []
    for player in state["players"]:
        player = dict(player)
        player["field"] = field_to_text(player.pop("columns"))
        players.append(player)
    return {"turn": state["turn"], "packs": state["packs"], "players": players,
            "outcome": state["outcome"]}


def new_match(seed):
    """180 blocks of each value in 380 packs of three and 120 of four, all placed at random."""
    rng = random.Random(seed)
    blocks = [v for v in range(1, 10) for _ in range(180)]
    rng.shuffle(blocks)
    sizes = [3] * 380 + [4] * 120
    rng.shuffle(sizes)
    packs = []
    for size in sizes:
        cells = [0, 0, 0, 0]
        for slot in rng.sample(range(4), size):
            cells[slot] = blocks.pop()
        packs.append([[cells[0], cells[1]], [cells[2], cells[3]]])
    state = load_state({"packs": packs})
    return dump_state(state)


# --- Replies --------------------------------------------------------------------------------------

def strict_reply(text):
    """`S`, or `P R` with P in 0..8 and R in 0..3 and one space: the grammar of 「AIの出力」."""
    if "\n" in text:
        raise ProtocolError(1, text.index("\n") + 1, "a single line")
    if text == "S":
        return ("skill",)
    line = Line(text, 1)
    first = line.token("a position or S")
    if first[0] == "S":
        line.end()
    position = number(first, 8)
    rotation = line.read_number(3)
    line.end()
    return ("drop", position, rotation)


def lenient_reply(text):
    """What the engine accepts (D-reborn-9): blanks and a CR around, runs of blanks between,
    leading zeros. None when even that fails."""
    body = text.strip(" \t\r")
    if body == "S":
        return ("skill",)
    words = body.replace("\t", " ").split()
    if len(words) != 2 or not all(w.isascii() and w.isdigit() for w in words):
        return None
    position, rotation = int(words[0]), int(words[1])
    if position > 8 or rotation > 3:
        return None
    return ("drop", position, rotation)


def take_reply(player, reply):
    """Charges the time and reads the reply: (verdict, command or None)."""
    if reply.get("timed_out") or reply.get("crashed"):
        player["time_left_ms"] = 0
        return ("timed-out" if reply.get("timed_out") else "crashed"), None
    if reply.get("elapsed_ms", 0) > player["time_left_ms"]:
        player["time_left_ms"] = 0
        return "timed-out", None
    player["time_left_ms"] -= reply.get("elapsed_ms", 0)
    text = reply["text"]
    command = lenient_reply(text)
    if command is None or (command[0] == "skill" and player["skill_gauge"] < SKILL_AT):
        return "rejected", None
    try:
        strict_reply(text)
        return "accepted", command
    except ProtocolError:
        return "non-strict", command


# --- One turn -----------------------------------------------------------------------------------

def by_score(state, reason):
    a, b = (p["score"] for p in state["players"])
    return {"winner": 0 if a > b else 1 if b > a else None, "reason": reason}


def step(state, replies):
    if state["outcome"] is not None:
        raise ValueError("the match is already over")
    if state["turn"] >= len(state["packs"]):
        raise ValueError(f"no pack for turn {state['turn']}")
    taken = [take_reply(p, r) for p, r in zip(state["players"], replies)]
    verdicts = [v for v, _ in taken]
    faults = ["time" if v in ("timed-out", "crashed") else "invalid" if c is None else None
              for v, c in taken]
    if any(faults):
        if faults[0] and faults[1]:
            if faults == ["invalid", "invalid"]:
                state["outcome"] = {"winner": None, "reason": "invalid-reply"}
            else:
                state["outcome"] = by_score(
                    state, "time-over" if faults == ["time", "time"] else "invalid-reply")
        else:
            fault = faults[0] or faults[1]
            state["outcome"] = {"winner": 1 if faults[0] else 0,
                                "reason": "time-over" if fault == "time" else "invalid-reply"}
        return verdicts

    pack = state["packs"][state["turn"]]
    for player, (_, command) in zip(state["players"], taken):
        play_turn(player, pack, command)
    me, you = state["players"]
    for player, other in ((me, you), (you, me)):
        player["skill_gauge"] = max(0, player["skill_gauge"] - gauge_loss(other["chains"]))
        player["ojama_stock"] += other["ojama_sent"]
    both = min(me["ojama_stock"], you["ojama_stock"])
    me["ojama_stock"] -= both
    you["ojama_stock"] -= both
    state["turn"] += 1

    lost = [max(len(c) for c in p["columns"]) >= DANGER for p in state["players"]]
    if all(lost):
        state["outcome"] = by_score(state, "danger-line")
    elif any(lost):
        state["outcome"] = {"winner": 1 if lost[0] else 0, "reason": "danger-line"}
    elif state["turn"] >= TURNS:
        state["outcome"] = by_score(state, "turn-limit")
    return verdicts


def rotate(pack, quarter_turns):
    for _ in range(quarter_turns):
        (a, b), (c, d) = pack
        pack = [[c, a], [d, b]]
    return pack


def play_turn(player, pack, command):
    columns = player["columns"]
    if ojama_row_due(player["ojama_stock"]):
        for column in columns:
            column.append(OJAMA)
        player["ojama_stock"] -= OJAMA_ROW
    exploded = 0
    if command[0] == "skill":
        player["skill_gauge"] = 0
        exploded = explode(columns)
        chains = settle(columns)
        blast, chain = explosion_score(exploded), chain_score(chains)
        score, sent = blast + chain, blast // 2 + chain // 2
    else:
        _, position, rotation = command
        top, bottom = rotate(pack, rotation)
        for dx in (0, 1):
            for value in (bottom[dx], top[dx]):
                if value:
                    columns[position + dx].append(value)
        chains = settle(columns)
        score = chain_score(chains)
        sent = score // 2
    if chains:
        player["skill_gauge"] = min(GAUGE_MAX, player["skill_gauge"] + GAUGE_GAIN)
    player.update(chains=chains, skill_used=command[0] == "skill", exploded_blocks=exploded,
                  turn_score=score, score=player["score"] + score, ojama_sent=sent)


# --- Prompts --------------------------------------------------------------------------------------

def packs_text(packs):
    return "".join(f"{a} {b}\n{c} {d}\nEND\n" for (a, b), (c, d) in packs)


def player_text(player):
    lines = [str(player[k]) for k in ("time_left_ms", "ojama_stock", "skill_gauge", "score")]
    for y in range(HEIGHT - 1, -1, -1):
        lines.append(" ".join(str(c[y]) if y < len(c) else "0" for c in player["columns"]))
    return "\n".join(lines) + "\nEND\n"


def prompt(state, me):
    start = packs_text(state["packs"]) if state["turn"] == 0 else ""
    players = state["players"]
    return f"{start}{state['turn']}\n{player_text(players[me])}{player_text(players[1 - me])}"


# --- The strict protocol grammar, for parse requests ---------------------------------------------

class Line:
    """One line's tokens: separated by exactly one space, positions 1-based in characters."""

    def __init__(self, text, line_no):
        self.text, self.line_no, self.pos = text, line_no, 0

    def token(self, wanted):
        if self.pos == len(self.text):
            raise ProtocolError(self.line_no, self.pos + 1, wanted)
        if self.pos > 0:
            if self.text[self.pos] != " ":
                raise ProtocolError(self.line_no, self.pos + 1, "a single space")
            self.pos += 1
        start = self.pos
        end = self.text.find(" ", start)
        end = len(self.text) if end < 0 else end
        if end == start:
            raise ProtocolError(self.line_no, start + 1, wanted)
        self.pos = end
        return (self.text[start:end], self.line_no, start + 1)

    def read_number(self, largest):
        return number(self.token("a number"), largest)

    def end(self):
        if self.pos != len(self.text):
            raise ProtocolError(self.line_no, self.pos + 1, "end of line")


def number(token, largest, smallest=0, excluded=()):
    text, line, col = token
    canonical = text.isascii() and text.isdigit() and (text == "0" or text[0] != "0")
    if not canonical or len(text) > 20 or not smallest <= int(text) <= largest \
            or int(text) in excluded:
        raise ProtocolError(line, col, "a number")
    return int(text)


class Reader:
    def __init__(self, text):
        self.lines = text.split("\n")   # the last element is what follows the last line break
        self.index = 0

    def peek(self):
        return None if self.at_end() else self.lines[self.index]

    def at_end(self):
        return self.index == len(self.lines) - 1 and self.lines[-1] == ""

    def line(self):
        if self.at_end():
            raise ProtocolError(self.index + 1, 1, "a line")
        if self.index == len(self.lines) - 1:
            raise ProtocolError(self.index + 1, len(self.lines[-1]) + 1, "a line break")
        self.index += 1
        return Line(self.lines[self.index - 1], self.index)

    def keyword(self, word):
        line = self.line()
        if line.text != word:
            raise ProtocolError(line.line_no, 1, word)

    def numbers_line(self, ranges, excluded=()):
        line = self.line()
        values = [number(line.token("a number"), hi, lo, excluded) for lo, hi in ranges]
        line.end()
        return values

    def finish(self):
        if not self.at_end():
            raise ProtocolError(self.index + 1, 1, "end of input")


def read_packs(reader):
    packs = []
    for _ in range(TURNS):
        packs.append([reader.numbers_line([(0, 9)] * 2) for _ in range(2)])
        reader.keyword("END")
    return packs


def read_turn(reader):
    turn = reader.numbers_line([(0, TURNS - 1)])[0]
    views = []
    for _ in range(2):
        numbers = [reader.numbers_line([(0, hi)])[0]
                   for hi in (THINKING_MS, 2 ** 32 - 1, GAUGE_MAX, 2 ** 64 - 1)]
        rows = [reader.numbers_line([(0, OJAMA)] * WIDTH, excluded=(10,)) for _ in range(HEIGHT)]
        reader.keyword("END")
        views.append((numbers, rows))
    return turn, views


def print_turn(turn, views):
    out = f"{turn}\n"
    for numbers, rows in views:
        out += "".join(f"{n}\n" for n in numbers)
        out += "".join(" ".join(map(str, row)) + "\n" for row in rows)
        out += "END\n"
    return out


def parse_text(kind, text):
    """Strictly parses a protocol text: its canonical printing, or ProtocolError."""
    if kind == "reply":
        command = strict_reply(text)
        return "S" if command[0] == "skill" else f"{command[1]} {command[2]}"
    if kind == "name":
        if text == "":
            raise ProtocolError(1, 1, "an AI name")
        for i, c in enumerate(text):
            if c in FORBIDDEN_IN_NAME or c in "\r\n":
                raise ProtocolError(1, i + 1, "no \\ / : * ? \" < > | or line break")
        return text
    reader = Reader(text)
    if kind == "packs":
        printed = packs_text(read_packs(reader))
    elif kind == "turn":
        printed = print_turn(*read_turn(reader))
    elif kind == "prompt":
        # システムからの入力: the packs come before turn 0's block, and before no other.
        first = reader.peek()
        has_packs = first is not None and " " in first
        printed = packs_text(read_packs(reader)) if has_packs else ""
        turn_line = reader.index + 1
        turn, views = read_turn(reader)
        if has_packs != (turn == 0):
            raise ProtocolError(turn_line, 1, "the packs with turn 0 and with no other turn")
        printed += print_turn(turn, views)
    else:
        raise KeyError(kind)
    reader.finish()
    return printed


def lenient_name(text):
    """The engine takes a name whose line ends in CR LF (as it does replies)."""
    try:
        parse_text("name", text)
        return True
    except ProtocolError:
        return False


def parse_request(kind, text):
    try:
        return {"parse": "valid", "printed": parse_text(kind, text)}
    except KeyError:
        return {"unsupported": f"no protocol text {kind!r}"}
    except ProtocolError as strict:
        lenient = (kind == "reply" and lenient_reply(text) is not None) or (
            kind == "name" and text.endswith("\r") and lenient_name(text[:-1]))
        return {"parse": "non-strict" if lenient else "invalid",
                "at": [strict.line, strict.col], "message": str(strict)}


# --- The protocol loop ----------------------------------------------------------------------------

def answer(request):
    kind = request.get("kind")
    if request.get("protocol") != PROTOCOL:
        return {"error": f"this adapter speaks protocol {PROTOCOL}, "
                         f"the request is protocol {request.get('protocol')}"}
    if kind == "hello":
        bugs = f" with planted bugs {sorted(BUGS)}" if BUGS else ""
        return {"protocol": PROTOCOL, "engine": f"codevs_reborn.py{bugs}", "games": [GAME]}
    if request.get("game") != GAME:
        return {"unsupported": f"only {GAME}"}
    if kind == "step":
        state = load_state(request["state"])
        played, last = 0, []
        for replies in request["turns"]:
            if state["outcome"] is not None:
                break
            last = step(state, replies)
            played += 1
        return {"state": dump_state(state), "prompts": [prompt(state, p) for p in (0, 1)],
                "last_replies": last, "turns_played": played}
    if kind == "parse":
        return parse_request(request["text"], request["input"])
    if kind == "new_match":
        return {"state": new_match(request["seed"])}
    return {"unsupported": f"no request kind {kind!r}"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bug", action="append", default=[],
                        choices=["chain-round", "ojama-cap-11"], help="plant a known rule bug")
    BUGS.update(parser.parse_args().bug)
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError as e:
            print(f"not JSON: {e}", file=sys.stderr)
            continue
        try:
            response = answer(request)
        except (ValueError, KeyError, TypeError, IndexError) as e:
            response = {"error": f"{type(e).__name__}: {e}"}
        response["id"] = request.get("id")
        sys.stdout.write(json.dumps(response) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
