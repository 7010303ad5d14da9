#!/bin/bash
# Every option a command accepts is documented, and nothing else is: each
# option of each command's table (scaleaudit help --options CMD) appears in
# `scaleaudit help CMD` and in man/scaleaudit.1, under the command's own
# subsection, or under OPTIONS for the options every command takes; each
# option the man page lists under a command (its .TP tags) is one the command
# accepts; and `CMD --help` prints what `help CMD` prints.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
man=man/scaleaudit.1
fail=0

# The man page source without roff escapes for dashes, fonts and joins.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\c$//' "$man" > "$tmp/man"

# Lines of the man page section that starts with the line $1 (".SS report",
# ".SH OPTIONS"), up to the next heading.
section() {
	awk -v h="$1" '$0 == h { on = 1; next } on && /^\.S[HS]( |$)/ { exit } on' "$tmp/man"
}

# True when the option spelling $1 is a word of file $2.
has_option() {
	grep -Eq -- "(^|[^[:alnum:]-])$1([^[:alnum:]-]|$)" "$2"
}

commands=$("$SCALEAUDIT" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
built=0 options=0
for cmd in $commands; do
	[ "$cmd" = help ] && continue
	"$SCALEAUDIT" help --options "$cmd" > "$tmp/list" || { echo "help --options $cmd failed"; fail=1; }
	[ -s "$tmp/list" ] || continue
	built=$((built + 1))
	"$SCALEAUDIT" help "$cmd" > "$tmp/help"
	"$SCALEAUDIT" "$cmd" --help > "$tmp/dash-help"
	cmp -s "$tmp/help" "$tmp/dash-help" || { echo "$cmd --help differs from help $cmd"; fail=1; }
	section ".SS $cmd" > "$tmp/man.$cmd"
	[ -s "$tmp/man.$cmd" ] || { echo "$man: no subsection for $cmd"; fail=1; }
	section ".SH OPTIONS" > "$tmp/man.common"
	while IFS=$'\t' read -r table names; do
		for name in $names; do
			options=$((options + 1))
			has_option "$name" "$tmp/help" || { echo "help $cmd does not show $name"; fail=1; }
			has_option "$name" "$tmp/man.$table" ||
				{ echo "$man does not document $name ($table options of $cmd)"; fail=1; }
		done
	done < "$tmp/list"
	# the reverse: an option the man page gives the command is one it takes
	awk '/^\.TP/ { getline; print }' "$tmp/man.$cmd" | grep -oE -- '(^| )--?[a-z][a-z-]*' |
	while read -r name; do
		cut -f2- "$tmp/list" | tr '\t' '\n' | grep -qx -- "$name" ||
			{ echo "$man documents $name for $cmd, which does not take it"; exit 1; }
	done || fail=1
done

# report, analyze and inspect are built: report has 3 spellings of its 2 options
# (-o, -j --jobs), analyze 5 of its 4 (--json, --diff, --kernels, -j --jobs), inspect 1 (--json); stack has 3 (--target, --accept-jit, --json); plan has 40 (32 model
# inputs, --gpu, --title, --from, --json, --explain, -o, --init, --force); replay has 4
# (--device, -o, --smoke, --dry-run); batch has 10 spellings of its 9 options (-o -j
# --jobs --force --retry-failed --timeout --memory-limit --list --one --merge); each has 10
# spellings of the 7 common options (-q --quiet -v --verbose --color --patterns
# --max-events --max-memory -h --help)
[ "$built" -eq 7 ] || { echo "$built commands with options, expected 7"; fail=1; }
[ "$options" -eq $(((3 + 10) + (5 + 10) + (1 + 10) + 3 + 10 + 40 + 10 + 4 + 10 + 10 + 10)) ] ||
	{ echo "$options option names, expected $((13 + 15 + 11 + 13 + 50 + 14 + 20))"; fail=1; }
exit $fail
