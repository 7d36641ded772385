#!/usr/bin/env bash
# Do two kifu binaries write the same bytes? Every record file of the corpora
# is converted by both into every output format of its family, json and csv
# (and, by the new binary, into html and the scoresheets a run at a time
# with a cut before every move, compared with the same whole: `stream-*`),
# and compared with `kifu diff` to itself, to its conversion into each
# notation of its family that kifu reads, and to the next file of its
# format (moves that disagree, each side spelled in its notation); the csv
# tables of each conversion are written too. Standard output, standard
# error, the exit status and every file written must be the same.
#
# Usage: conformance/same_outputs.sh REF_KIFU NEW_KIFU [DIR_OR_FILE ...]
#
# Without DIR_OR_FILE: corpus/ and ../shared/corpus of the repository.
# Prints a table (by source format and check: runs compared, differences),
# then the first differences with the command that shows them; exits 1 on
# any difference, 2 on a usage error. JOBS (default: the cores) runs that
# many checks at once; KEEP=1 keeps the work folder.
set -u

if [ $# -lt 2 ]; then
    sed -n '2,19s/^# \{0,1\}//p' "$0" >&2
    exit 2
fi
ref=$(realpath "$1") && new=$(realpath "$2") || exit 2
shift 2
for b in "$ref" "$new"; do
    [ -x "$b" ] || { echo "not an executable: $b" >&2; exit 2; }
done
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 0 ]; then
    set -- "$root/corpus" "$root/../shared/corpus"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/same_outputs.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then
    trap 'rm -rf "$work"' EXIT
fi
# Both binaries answer to the name `kifu` (clap's usage lines name it).
mkdir -p "$work/bin/ref" "$work/bin/new"
ln -s "$ref" "$work/bin/ref/kifu"
ln -s "$new" "$work/bin/new/kifu"

# The format list, as the new binary gives it (`kifu formats`): a line per
# format, `name .extension family r/w`. What follows is made from it, so
# that a family or format added to kifu's registry needs no line here.
formats=$("$new" formats | awk 'NR > 1 && /^[a-z]/ && NF >= 4 && $2 ~ /^[.]/ {print $1, $2, $3, $4}')

# The format of a record file, by its name (and its folder); nothing for a
# file that is not a record (SOURCES.txt, a README): the readable format of
# a family, or json, with the longest extension the name ends with.
format_of() {
    local f=$1 lower name ext family rw best="" len=0
    lower=$(basename "$f" | tr '[:upper:]' '[:lower:]')
    while read -r name ext family rw; do
        case $rw in r*) ;; *) continue ;; esac
        [ "$family" != any ] || [ "$name" = json ] || continue
        case $lower in
            *"$ext") if [ ${#ext} -gt "$len" ]; then best=$name len=${#ext}; fi ;;
        esac
    done <<< "$formats"
    # The shared corpus's own names: aagenielsen's downloads keep the site's
    # file names, and tenjiku records come without an extension.
    case $lower in
        game-*.json) best=aagenielsen-json ;;
        *.txt | *.md) best="" ;;
        *) if [ -z "$best" ]; then
               case $f in
                   */shogi/* | */tenjiku/*) best=tenjiku ;;
               esac
           fi ;;
    esac
    [ -z "$best" ] || echo "$best"
}

family_of() {
    local name ext family rw
    if [ "$1" = json ]; then
        # The family of the file's first game.
        grep -o '"family": *"[a-z]*"' "$2" | head -n 1 | sed 's/.*"\([a-z]*\)"$/\1/'
        return
    fi
    while read -r name ext family rw; do
        [ "$name" != "$1" ] || echo "$family"
    done <<< "$formats"
}

# The notations kifu writes for a family, and those of them it reads.
written_in() {
    local name ext family rw out=""
    while read -r name ext family rw; do
        case $rw in *w) [ "$family" != "$1" ] || out="$out $name" ;; esac
    done <<< "$formats"
    echo $out
}
# The outputs compared streamed with whole (`stream-*`), for a source read
# a run at a time.
streamed_to() {
    case $1 in
        pgn) echo html sllavcco sllavcco-html ;;
        draughts-num) echo html ;;
    esac
}
read_back() {
    local name ext family rw out=""
    while read -r name ext family rw; do
        case $rw in rw) [ "$family" != "$1" ] || out="$out $name" ;; esac
    done <<< "$formats"
    echo $out
}
extension() {
    local name ext family rw
    while read -r name ext family rw; do
        [ "$name" != "$1" ] || echo "${ext#.}"
    done <<< "$formats"
}

# One check: `check ID SOURCE FILE KIND [ARG]`, run by both binaries in
# folders of their own, then compared. Prints `ID SOURCE KIND same|DIFF`.
check() {
    local id=$1 source=$2 file=$3 kind=$4 arg=${5:-}
    local side dir
    for side in ref new; do
        dir="$work/run/$id/$side"
        mkdir -p "$dir"
        (
            cd "$dir" || exit
            k="$work/bin/$side/kifu"
            case $kind in
                to-*)
                    "$k" convert --from "$source" --to "${kind#to-}" "$file" ;;
                stream-*)
                    # The new binary, whole (`ref`) and a run at a time with a
                    # cut before every move (`new`): the same bytes.
                    k="$work/bin/new/kifu"
                    how=--read-whole
                    [ "$side" = new ] && how="--run-bytes=0"
                    "$k" convert --from "$source" --to "${kind#stream-}" "$how" "$file" ;;
                csv)
                    "$k" convert --from "$source" --to csv --out-dir out "$file" ;;
                diff-self)
                    "$k" diff --from-a "$source" --from-b "$source" "$file" "$file" &&
                        "$k" diff --format json --from-a "$source" --from-b "$source" "$file" "$file" ;;
                diff-via-* | csv-via-*)
                    into=${kind#*-via-}
                    conv="conv.$(extension "$into")"
                    "$k" convert -qq --from "$source" --to "$into" "$file" >"$conv" 2>/dev/null
                    if [ "${kind%%-*}" = diff ]; then
                        "$k" diff --from-a "$source" --from-b "$into" "$file" "$conv"
                        echo "rc $?"
                        "$k" diff --format json --from-a "$source" --from-b "$into" "$file" "$conv"
                    else
                        "$k" convert --from "$into" --to csv --out-dir out "$conv"
                    fi ;;
                diff-next)
                    "$k" diff --from-a "$source" --from-b "$source" "$file" "$arg"
                    echo "rc $?"
                    "$k" diff --format json --from-a "$source" --from-b "$source" "$file" "$arg" ;;
            esac
            echo "rc $?"
        ) >"$dir/stdout" 2>"$dir/stderr"
    done
    if diff -r -q "$work/run/$id/ref" "$work/run/$id/new" >/dev/null 2>&1; then
        echo "$id $source $kind same"
        rm -rf "$work/run/$id"
    else
        echo "$id $source $kind DIFF"
    fi
}

# The checks, one a line, tab-separated (paths hold blanks): ID SOURCE
# FILE KIND [ARG].
jobs="$work/jobs"
: >"$jobs"
skipped=0
n=0
declare -A last_of
files=$(for d in "$@"; do find "$(realpath "$d")" -type f; done | LC_ALL=C sort)
while IFS= read -r file; do
    [ -n "$file" ] || continue
    source=$(format_of "$file")
    if [ -z "$source" ]; then
        skipped=$((skipped + 1))
        continue
    fi
    family=$(family_of "$source" "$file")
    outs="$(written_in "$family")"
    [ "$source" = json ] || outs="$outs json"
    for to in $outs; do
        printf '%s\t%s\t%s\t%s\n' $((n += 1)) "$source" "$file" "to-$to" >>"$jobs"
    done
    printf '%s\t%s\t%s\t%s\n' $((n += 1)) "$source" "$file" csv >>"$jobs"
    printf '%s\t%s\t%s\t%s\n' $((n += 1)) "$source" "$file" diff-self >>"$jobs"
    # The outputs that hold a whole game, streamed and whole (the new
    # binary's), where the source is read a run at a time.
    for to in $(streamed_to "$source"); do
        printf '%s\t%s\t%s\t%s\n' $((n += 1)) "$source" "$file" "stream-$to" >>"$jobs"
    done
    for into in $(read_back "$family"); do
        printf '%s\t%s\t%s\t%s\n' $((n += 1)) "$source" "$file" "diff-via-$into" >>"$jobs"
        printf '%s\t%s\t%s\t%s\n' $((n += 1)) "$source" "$file" "csv-via-$into" >>"$jobs"
    done
    # The next file of the same format: moves that disagree.
    prev=${last_of[$source]:-}
    if [ -n "$prev" ]; then
        printf '%s\t%s\t%s\t%s\t%s\n' $((n += 1)) "$source" "$prev" diff-next "$file" >>"$jobs"
    fi
    last_of[$source]=$file
done <<<"$files"

export work
export -f check extension
results="$work/results"
xargs -a "$jobs" -d '\n' -n 1 -P "${JOBS:-$(nproc)}" \
    bash -c 'set -f; IFS=$(printf "\t"); set -- $1; check "$@"' _ >"$results"

# The table: by source format and check kind (conversions to one format
# and their csv or diff taken together as `to-*`, `diff-via-*`, ...).
echo "files compared: $(cut -f3 "$jobs" | sort -u | wc -l) (skipped, not records: $skipped); checks: $(wc -l <"$results") (each run by both binaries)"
printf '%-18s %-24s %8s %12s\n' source check compared differences
awk '{
        kind = $3
        key = $2 " " kind
        total[key]++
        if ($4 == "DIFF") bad[key]++
     }
     END {
        for (k in total) {
            split(k, p, " ")
            printf "%-18s %-24s %8d %12d\n", p[1], p[2], total[k], bad[k] + 0
        }
     }' "$results" | sort -k1,1 -k2,2
awk '{ all++; if ($4 == "DIFF") bad++ } END { printf "%-18s %-24s %8d %12d\n", "all", "", all, bad + 0 }' "$results"

differences=$(grep -c ' DIFF$' "$results")
if [ "$differences" -gt 0 ]; then
    echo
    echo "differences (first 20; KEEP=1 keeps $work/run/ID/{ref,new}):"
    grep ' DIFF$' "$results" | sort -n | head -n 20 | while read -r id source kind _; do
        line=$(grep "^$id	" "$jobs" | tr '\t' ' ')
        echo "  $line"
        diff -r "$work/run/$id/ref" "$work/run/$id/new" | head -n 6 | sed 's/^/      /'
    done
    exit 1
fi
exit 0
