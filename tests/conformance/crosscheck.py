#!/usr/bin/env python3
"""Cross-checks kifu's PGN output against python-chess.

Usage: python3 tests/conformance/crosscheck.py FILE.pgn   (or `-` for standard input)

FILE is canonical PGN written by `kifu convert --to pgn`. Every game is read
with python-chess, which keeps the position before each move it plays, main
line and variations, in text order; its move tree must hold exactly that many
moves. Beside that, the SAN tokens kifu wrote are taken from the game's own
text, in the same order. Each move must be legal in its position for
python-chess, and `board.san(move)` must equal the token kifu wrote, character
for character (check and mate marks, `=Q`, disambiguation, `O-O`). Traditional
suffixes (`Kg7?!`) are left out of the comparison: python-chess reads them as
NAGs. Null moves (`--`) are counted but have no SAN to compare.

Prints one line per mismatch and a summary `games=G moves=M mismatches=K`
(plus nulls and errors); exits 1 on any mismatch or python-chess error, 2 on a
usage or environment problem.
"""

import io
import logging
import re
import sys

try:
    import chess
    import chess.pgn
except ImportError:
    print("crosscheck: python-chess is not installed (pip install chess)", file=sys.stderr)
    sys.exit(2)

# Variant tag values kifu plays as Chess960 or as standard chess
# (src/rules/chess.rs, CHESS960 and STANDARD), spelled the way python-chess
# understands them. python-chess knows only some of these aliases.
CHESS960 = {
    "chess960", "chess 960", "960", "fischerandom", "fischerrandom",
    "fischer random", "fischer random chess", "freestyle",
}
STANDARD = {"", "standard", "chess", "normal", "from position", "fromposition"}

RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
MOVE_NUMBER = re.compile(r"^\d+\.+")
NAG = re.compile(r"^\$\d+$")
# Traditional move suffixes (`Kg7?!`), which python-chess reads as NAGs 1-6.
SUFFIX = re.compile(r"[!?]+$")


class Builder(chess.pgn.GameBuilder):
    """python-chess's game builder, reading kifu's Variant spellings and
    keeping, in text order, the position before every move it plays."""

    def begin_game(self):
        super().begin_game()
        self.played = []

    def visit_header(self, tagname, tagvalue):
        if tagname == "Variant":
            v = tagvalue.strip().lower()
            if v in CHESS960:
                tagvalue = "Chess960"
            elif v in STANDARD:
                tagvalue = "Standard"
        super().visit_header(tagname, tagvalue)

    def visit_move(self, board, move):
        self.played.append((board.copy(stack=False), move))
        super().visit_move(board, move)

    def result(self):
        game = super().result()
        game.played = self.played
        return game


def movetext(text):
    """The part of one game's text after its tag section."""
    lines = text.split("\n")
    i = 0
    # Blank lines, escape lines and `;` comments before the tags.
    while i < len(lines) and (not lines[i].strip() or lines[i][:1] in "%;"):
        i += 1
    while i < len(lines) and lines[i].startswith("["):
        i += 1
    return "\n".join(lines[i:])


def san_tokens(text):
    """The move tokens of a movetext, in text order. Brace comments (which end
    at the first `}`: they do not nest), `;` and `%` comments, move numbers,
    NAGs, move suffixes, parentheses and results are left out."""
    tokens = []
    word = []

    def flush():
        if word:
            tok = "".join(word)
            word.clear()
            if tok in RESULTS or tok.isdigit() or NAG.match(tok):
                return
            tok = SUFFIX.sub("", MOVE_NUMBER.sub("", tok))
            if tok:
                tokens.append(tok)

    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if c == "%" and line_start or c == ";":
            flush()
            while i < n and text[i] != "\n":
                i += 1
            continue
        line_start = c == "\n"
        if c == "{":
            flush()
            end = text.find("}", i)
            i = n if end < 0 else end + 1
            continue
        if c in "()" or c.isspace():
            flush()
        else:
            word.append(c)
        i += 1
    flush()
    return tokens


def tree_size(game):
    """The number of moves in the whole tree (main line and variations)."""
    size, stack = 0, [game]
    while stack:
        node = stack.pop()
        size += len(node.variations)
        stack.extend(node.variations)
    return size


def check(text, name):
    """Cross-checks every game of a PGN text; True when all agree."""
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    handle = io.StringIO(text)
    games = moves = nulls = mismatches = errors = 0
    while True:
        start = handle.tell()
        game = chess.pgn.read_game(handle, Visitor=Builder)
        if game is None:
            break
        end = handle.tell()
        games += 1
        white, black = game.headers.get("White", "?"), game.headers.get("Black", "?")
        label = f"{name}: game {games} ({white} - {black})"
        for e in game.errors:
            errors += 1
            print(f"{label}: python-chess error: {e}")
        written = san_tokens(movetext(text[start:end]))
        if not (len(written) == len(game.played) == tree_size(game)):
            mismatches += 1
            print(
                f"{label}: kifu wrote {len(written)} moves, python-chess played "
                f"{len(game.played)} with {tree_size(game)} in its tree"
            )
        for k, (tok, (board, move)) in enumerate(zip(written, game.played)):
            moves += 1
            at = f"{label}: move {k + 1} ({board.fullmove_number}{'.' if board.turn else '...'})"
            if move == chess.Move.null():
                nulls += 1
                if tok != "--":
                    mismatches += 1
                    print(f"{at}: kifu `{tok}`, python-chess a null move")
                continue
            if not board.is_legal(move):
                mismatches += 1
                print(f"{at}: kifu `{tok}` is illegal for python-chess (position: {board.fen()})")
                continue
            san = board.san(move)
            if san != tok:
                mismatches += 1
                print(f"{at}: kifu `{tok}`, python-chess `{san}` (position: {board.fen()})")
    print(
        f"games={games} moves={moves} nulls={nulls} mismatches={mismatches} "
        f"errors={errors}"
    )
    return mismatches == 0 and errors == 0


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    path = argv[1]
    if path == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        with open(path, "rb") as f:
            data = f.read()
        name = path
    text = data.decode("utf-8-sig").replace("\r\n", "\n")
    return 0 if check(text, name) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
