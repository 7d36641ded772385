#!/bin/sh
# The draughts variant names the servers write in the Variant tag of their
# exports, and the GameType number each source gives them, listed from copies
# of their sources (fetched by the user; nothing of them is kept here). What
# `Board::by_variant` (src/family/draughts/rules.rs) and docs/draughts.md
# ("Variant tags") were written from.
#
# usage: benches/draughts_variant_names.sh STRATEGYGAMES_GIT PLAYSTRATEGY_LILA_GIT
#   STRATEGYGAMES_GIT      a git directory of Mind-Sports-Games/strategygames
#                          (its draughts variants are lidraughts', with
#                          PlayStrategy's English, Pool and Portuguese)
#   PLAYSTRATEGY_LILA_GIT  a git directory of Mind-Sports-Games/lila (its
#                          PgnDump writes Variant from variantName)
set -eu
games=$1
lila=$2
echo "variant source      key               name                gameType"
for f in $(git -C "$games" ls-tree --name-only HEAD src/main/scala/draughts/variant/); do
    case "$f" in */Variant.scala) continue ;; esac
    git -C "$games" show "HEAD:$f" | awk -v file="$(basename "$f" .scala)" '
        /gameType *=/ { gsub(/[^0-9]/, "", $0); gt = $0 }
        /key *=/ { split($0, a, "\""); key = a[2] }
        /name *=/ && !name { split($0, a, "\""); name = a[2] }
        END { printf "%-19s %-17s %-19s %s\n", file, key, name, gt }'
done
echo
echo "PlayStrategy's Variant tag (translation/source/variantName.xml), draughts keys:"
git -C "$lila" show HEAD:translation/source/variantName.xml |
    grep -E 'name="(international|draughtsFromPosition|antidraughts|brazilian|breakthrough|frisian|frysk|pool|russian|portuguese|english)"' |
    sed -E 's/.*name="([^"]*)">([^<]*)<.*/  \1 -> \2/'
