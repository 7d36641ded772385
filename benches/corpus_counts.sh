#!/bin/sh
# Counts, per folder of a corpus, the games kifu reads cleanly, reads with a
# warning (repaired) and fails: `benches/corpus_counts.sh FORMAT FOLDER...`
# (FORMAT as --from takes it; KIFU names the binary, default
# target/release/kifu; extra kifu arguments in KIFU_ARGS). Each file is
# converted to FORMAT's own notation (json for aagenielsen-json) with -v, so
# every warning names its game.
set -eu
kifu=${KIFU:-target/release/kifu}
from=$1
shift
case $from in
aagenielsen-json) to=json ;;
*) to=$from ;;
esac
printf '| folder | files | games | read clean | repaired | failed |\n|---|---|---|---|---|---|\n'
for dir in "$@"; do
    files=0 games=0 repaired=0 failed=0
    list=$(mktemp)
    find "$dir" -maxdepth 1 -type f ! -name '_*' ! -name '*.txt' | sort >"$list"
    while IFS= read -r f; do
        files=$((files + 1))
        # shellcheck disable=SC2086
        out=$("$kifu" convert -v -j 1 --from "$from" --to "$to" ${KIFU_ARGS:-} "$f" -o /dev/null 2>&1 || true)
        sum=$(printf '%s\n' "$out" | grep -E '^converted [0-9]+ games?, [0-9]+ failed' | tail -n 1)
        n=$(printf '%s\n' "$sum" | sed -E 's/^converted ([0-9]+) games?, ([0-9]+) failed.*/\1/')
        e=$(printf '%s\n' "$sum" | sed -E 's/^converted ([0-9]+) games?, ([0-9]+) failed.*/\2/')
        w=$(printf '%s\n' "$out" | grep -E 'warning(\[[^]]*\])?: game [0-9]+' |
            sed -E 's/.*warning(\[[^]]*\])?: game ([0-9]+).*/\2/' | sort -u | wc -l)
        # Games that failed may have warned too: count them once, as failed.
        ew=$(printf '%s\n' "$out" | grep -E 'error(\[[^]]*\])?: game [0-9]+' |
            sed -E 's/.*error(\[[^]]*\])?: game ([0-9]+).*/\2/' | sort -u >/tmp/cc_err.$$; 
            printf '%s\n' "$out" | grep -E 'warning(\[[^]]*\])?: game [0-9]+' |
            sed -E 's/.*warning(\[[^]]*\])?: game ([0-9]+).*/\2/' | sort -u | comm -12 - /tmp/cc_err.$$ | wc -l)
        rm -f /tmp/cc_err.$$
        games=$((games + ${n:-0} + ${e:-0}))
        failed=$((failed + ${e:-0}))
        repaired=$((repaired + w - ew))
    done <"$list"
    rm -f "$list"
    clean=$((games - repaired - failed))
    printf '| %s | %d | %d | %d | %d | %d |\n' "$(basename "$dir")" "$files" "$games" "$clean" "$repaired" "$failed"
done
