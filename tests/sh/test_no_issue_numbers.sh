#!/bin/bash
# Comments give reasons, not numbers of an issue tracker the repository does
# not hold: no "issue N" in the sources, scripts, test cases and fixtures'
# comments. Another project's issue is cited as owner/repo#N (a link a reader
# can follow), which this check lets through. A planted citation must be caught.
set -u
TOP=${TOP:-$(pwd)}
cd "$TOP" || exit 2

PATTERN='\b[Ii]ssues?[[:space:]]+#?[0-9]+'

# check FILE...: one line per citation; status 1 when there is any
check() {
	grep -nHE "$PATTERN" "$@" | sed 's/$/: cites an issue number: say the reason instead/' | grep .
	[ "${PIPESTATUS[0]}" -ne 0 ]
}

mapfile -t SRCS < <(git ls-files -- '*.c' '*.h' '*.sh' '*.py' '*.pl' '*.js' '*.ini' Makefile 'mk/*' \
	'tests/cli/*.t' 'tests/bad/cases' 2>/dev/null)
[ "${#SRCS[@]}" -ge 100 ] || { echo "only ${#SRCS[@]} sources found (not a git checkout?)"; exit 1; }
check "${SRCS[@]}" || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the planted citation is put together here, so that this file does not hold one itself
cite="(is""sue 12)"
printf '/* the devices, each once %s. */\n/* as vllm-project/vllm#55169 shows; ProfilerStep#12 */\n' "$cite" > "$tmp/planted.c"
out=$(check "$tmp/planted.c") && { echo "a planted issue number passed"; exit 1; }
[ "$out" = "$tmp/planted.c:1:/* the devices, each once $cite. */: cites an issue number: say the reason instead" ] ||
	{ echo "unexpected: $out"; exit 1; }
echo "ok: ${#SRCS[@]} sources cite no issue number"
