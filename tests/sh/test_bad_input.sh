#!/bin/bash
# Hostile inputs: every case of tests/bad/input/cases (the command, its exact
# exit status, a line its output must hold, indentation aside) against the inputs that
# tests/bad/input/make.sh makes in a scratch directory. Permission cases run
# as user 65534 when the tests run as root (root reads everything).
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
. "$TOP/tests/skip.sh"
need_tool python3
U=
if [ "$(id -u)" = 0 ]; then
	need_tool setpriv
	U="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
S=$(cd "$(dirname "$SCALEAUDIT")" && pwd)/$(basename "$SCALEAUDIT")
tmp=$(mktemp -d)
trap 'chmod -R u+rwX "$tmp"; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir "$tmp/in"
TOP=$TOP bash "$TOP/tests/bad/input/make.sh" "$tmp/in" || { echo "FAIL: make.sh"; exit 1; }
export S U
fails=0 n=0
trim() { local x=$1; x=${x#"${x%%[! ]*}"}; printf '%s' "${x%"${x##*[! ]}"}"; }
while IFS= read -r line; do
	case "$line" in '#'* | '') continue ;; esac
	want=$(trim "${line%% | *}")
	rest=${line#* | }
	msg=${rest%% | *}
	msg=$(trim "$msg")
	cmd=$(trim "${rest#* | }")
	n=$((n + 1))
	out=$(cd "$tmp/in" && timeout 20 bash -c "$cmd" 2>&1)
	got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: $cmd: exit $got, expected $want"; printf '%s\n' "$out" | head -5
		fails=$((fails + 1))
	elif ! sed 's/^ *//' <<<"$out" | grep -qxF -- "$msg"; then
		echo "FAIL: $cmd: no line '$msg' in:"; printf '%s\n' "$out" | head -8
		fails=$((fails + 1))
	fi
done < "$TOP/tests/bad/input/cases"
[ "$n" -ge 10 ] || { echo "FAIL: only $n cases read"; fails=$((fails + 1)); }
echo "$n hostile-input cases, $fails failed"
[ "$fails" -eq 0 ]
