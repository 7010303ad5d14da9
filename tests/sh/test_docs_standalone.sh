#!/bin/bash
# The user-facing text stands on its own: README.md, docs/ and man pages cite
# no file a user's clone lacks (the maintainers' design notes, references and
# real-data folder), and every relative Markdown link points at a file inside
# the repository. The sources' comments cite none of those notes either (tests
# may still read real data from ../shared: that is a path, not a citation).
# A planted citation and a planted broken link must be caught.
set -u
TOP=${TOP:-$(pwd)}
cd "$TOP" || exit 2

# what the maintainers keep beside the repository, never in it
OUTSIDE='\bDESIGN\b|STYLE\.md|blackwell\.md|\.\./shared|shared/(reference|realdata)|§'

# check FILE...: prints one line per problem; status 1 when there is any
check() {
	local f dir target bad=0
	for f in "$@"; do
		if grep -InE "$OUTSIDE" "$f" | sed "s|^|$f:|; s|\$|: cites a file outside the repository|" | grep .; then
			bad=1
		fi
		case $f in *.md) ;; *) continue ;; esac
		dir=$(dirname "$f")
		while IFS= read -r target; do
			target=${target%%#*}
			case $target in ''|http://*|https://*|mailto:*) continue ;; esac
			if [ ! -e "$dir/$target" ] ||
			   [[ "$(realpath -m "$dir/$target")" != "$(realpath "$TOP")"/* ]]; then
				echo "$f: link '$target' points at no file of the repository"
				bad=1
			fi
		done < <(grep -oE '\]\([^) ]+\)' "$f" | sed 's/^](//; s/)$//')
	done
	return $bad
}

mapfile -t FILES < <({ echo README.md; find docs -type f; find . -path ./build -prune -o \
	-path ./tests -prune -o -type f -name '*.[1-8]' -print; } | sort -u)
[ "${#FILES[@]}" -ge 8 ] || { echo "only ${#FILES[@]} documents found"; exit 1; }
check "${FILES[@]}" || exit 1

# the sources: no design or reference note cited (these two scripts hold the patterns)
NOTES='\bDESIGN\b|STYLE\.md|blackwell\.md|peers\.md|§'
mapfile -t SRCS < <(git ls-files -- '*.c' '*.h' '*.sh' '*.py' '*.pl' Makefile 'mk/*' 2>/dev/null |
	grep -v -e '^tests/sh/test_docs_standalone.sh$' -e '^tests/sh/test_man_page.sh$')
[ "${#SRCS[@]}" -ge 100 ] || { echo "only ${#SRCS[@]} sources found (not a git checkout?)"; exit 1; }
if grep -nE "$NOTES" "${SRCS[@]}" | sed 's/$/: cites a note outside the repository/' | grep .; then
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/docs"
printf '# planted\n\nThe windows follow DESIGN §5.\n' > "$tmp/docs/cite.md"
printf '# planted\n\nSee [the formats](formats.md#kineto) and [gone](nothing.md).\n' > "$tmp/docs/link.md"
touch "$tmp/docs/formats.md"
out=$(TOP=$tmp check "$tmp/docs/cite.md") && { echo "a citation of DESIGN passed"; exit 1; }
grep -q "cite.md:3:The windows follow DESIGN §5.: cites a file outside" <<<"$out" ||
	{ echo "unexpected: $out"; exit 1; }
out=$(TOP=$tmp check "$tmp/docs/link.md") && { echo "a broken link passed"; exit 1; }
[ "$out" = "$tmp/docs/link.md: link 'nothing.md' points at no file of the repository" ] ||
	{ echo "unexpected: $out"; exit 1; }
echo "ok: ${#FILES[@]} documents and ${#SRCS[@]} sources cite nothing outside the repository"
