#!/bin/bash
# Data flows one way down the layers: every #include "DIR/..." of every .c
# and .h of a layer names a layer that layer may use, or the test fails
# naming the file and line. Then the checker is shown to catch an upward
# include, on a copy of two files with one planted each.
set -u
TOP=${TOP:-$(pwd)}
cd "$TOP" || exit 2

# Which directories each layer may include from (docs/testing.md, "Layers").
# The generator's ground truth links the core model only.
declare -A MAY=(
	[core]="core"
	[ingest]="core ingest"
	[analysis]="core analysis"
	[replay]="core analysis replay"
	[render]="core ingest analysis replay render"
	[cli]="core ingest analysis replay render cli"
	[samples/gen]="core samples"
)
LAYERS="core ingest analysis replay render cli samples/gen"

# check ROOT: prints "file:line: ..." for each include that goes up, then
# "N includes checked" last; fails when any goes up.
check() {
	local root=$1 layer file line dir bad=0 n=0

	for layer in $LAYERS; do
		[ -d "$root/$layer" ] || continue
		while IFS=: read -r file line dir; do
			n=$((n + 1))
			case " ${MAY[$layer]} " in
			*" $dir "*) continue ;;
			esac
			echo "${file#"$root"/}:$line: $layer/ includes $dir/ (it may include ${MAY[$layer]// /, })"
			bad=1
		done < <(find "$root/$layer" -name '*.[ch]' -print0 | sort -z |
			xargs -0 -r grep -nHE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' |
			sed -E 's/^([^:]*):([0-9]*):.*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1:\2:\3/' |
			sed -E 's|:([^:/]*)/[^:]*$|:\1|')
	done
	echo "$n includes checked"
	return $bad
}

fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

out=$(check .) || fail "an include goes up the layers"
echo "$out"
n=$(sed -n 's/^\([0-9]*\) includes checked$/\1/p' <<<"$out")
[ "${n:-0}" -ge 600 ] || fail "only ${n:-0} includes found: the checker lost track of the sources"

# The checker catches what it is for: replay/ including render/, and an
# analysis file reaching into ingest/ through "# include" with spaces.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/replay" "$tmp/analysis" "$tmp/render"
printf '#include "replay/smoke.h"\n\n#include "render/json.h"\n' > "$tmp/replay/smoke.c"
printf '#include "core/model.h"\n  #  include "ingest/ingest.h"\n' > "$tmp/analysis/x.h"
printf '#include "replay/plan.h"\n#include "analysis/analysis.h"\n' > "$tmp/render/ok.c"
got=$(check "$tmp") && fail "the planted upward includes pass"
want='replay/smoke.c:3: replay/ includes render/ (it may include core, analysis, replay)
analysis/x.h:2: analysis/ includes ingest/ (it may include core, analysis)
6 includes checked'
want=$(printf '%s\n' "$want" | sort)
[ "$(printf '%s\n' "$got" | sort)" = "$want" ] ||
	fail "planted includes: got
$got
want
$want"

[ $fails -eq 0 ] || exit 1
echo "the layers include only downward"
