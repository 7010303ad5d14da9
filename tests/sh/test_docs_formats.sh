#!/bin/bash
# docs/formats.md documents every reader the registry holds
# (ingest/registry.c): each reader's format has a row marked `read` in the
# table "Recognised, and read" and a row in "Versions, and known gaps"; every
# format ingest/sniff.c names has a row in both. A reader added without its
# documentation fails here, as a planted copy without the nccl-log row shows.
set -u
: "${TOP:?}"
cd "$TOP" || exit 1
if [ -z "${FORMATS_MD:-}" ]; then
	tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
	grep -v '^| `nccl-log` | read |' docs/formats.md > "$tmp/formats.md"
	got=$(FORMATS_MD=$tmp/formats.md bash "$0") && { echo "the planted copy passed"; exit 1; }
	[ "$got" = "docs/formats.md: the reader nccl_log_reader (nccl-log) is not in 'Recognised, and read'
docs/formats.md: nccl-log is not in 'Recognised, and read'" ] || { echo "the planted copy gave: $got"; exit 1; }
fi
doc=${FORMATS_MD:-docs/formats.md}
fail=0
# the rows of the table under heading $1, up to the next heading
table() { awk -v h="$1" '$0 == h { on = 1; next } on && /^## / { exit } on && /^\| `/' "$doc"; }
# the first column of a row names the format $2 in backquotes
row_for() { awk -F'|' -v f="\`$2\`" 'index($2, f) { print; exit }' <<<"$1"; }
read_table=$(table "## Recognised, and read")
gaps_table=$(table "## Versions, and known gaps")
[ -n "$read_table" ] && [ -n "$gaps_table" ] || { echo "docs/formats.md lacks a table"; exit 1; }

# the readers of the registry, by their variable, then the format each names
readers=$(sed -n 's/^\t&\([a-z_]*_reader\),$/\1/p' ingest/registry.c)
[ "$(wc -w <<<"$readers")" -ge 15 ] || { echo "only $(wc -w <<<"$readers") readers found in ingest/registry.c"; exit 1; }
for r in $readers; do
	name=$(awk -v r="$r" '$0 ~ "^const struct reader " r " = \\{" { on = 1 }
		on && match($0, /\.name = "[^"]*"/) { print substr($0, RSTART + 9, RLENGTH - 10); exit }' ingest/*.c)
	[ -n "$name" ] || { echo "$r: no .name found"; fail=1; continue; }
	row=$(row_for "$read_table" "$name")
	[ -n "$row" ] || { echo "docs/formats.md: the reader $r ($name) is not in 'Recognised, and read'"; fail=1; continue; }
	[ "$(awk -F'|' '{ gsub(/ /, "", $3); print $3 }' <<<"$row")" = read ] ||
		{ echo "docs/formats.md: $name is not marked read"; fail=1; }
done
for f in $(sed -n 's/^\t\[FMT_[A-Z_]*\] = { "\([a-z0-9-]*\)".*/\1/p' ingest/sniff.c | grep -vx unknown); do
	[ -n "$(row_for "$read_table" "$f")" ] || { echo "docs/formats.md: $f is not in 'Recognised, and read'"; fail=1; }
	[ -n "$(row_for "$gaps_table" "$f")" ] || { echo "docs/formats.md: $f is not in 'Versions, and known gaps'"; fail=1; }
done
[ "$fail" -eq 0 ] && echo "ok: $(wc -w <<<"$readers") readers documented"
exit $fail
