#!/bin/bash
# Hostile inputs and outputs (damaged, odd or unreadable files, outputs that
# cannot be written) must never crash, hang or pass silently: every line of
# tests/bad/cases is one case with its expected exit status and message
# (adding a case is adding a line), and every tests/bad/*.sh is one case too
# complex for a line (exit 0 pass, 77 skip, anything else fail).
# $AS runs a command as an unprivileged user when the tests run as root (so
# that permissions are enforced), else it is empty.
set -u
. tests/skip.sh
T=$TOP/samples/trials/ddp-scales-well
AS=
[ "$(id -u)" = 0 ] && AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
export T SCALEAUDIT AS
fail=0 n=0
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
chmod 755 "$work"	# the unprivileged user must reach the cases' directories

while IFS='|' read -r name status msg cmd; do
	case "$name" in ''|'#'*) continue ;; esac
	name=$(echo $name) status=$(echo $status) msg=${msg# } msg=${msg% } cmd=${cmd# }
	W=$work/$name
	mkdir "$W"
	(cd "$W" && W=$W bash -c "$cmd") > "$W.out" 2> "$W.err" < /dev/null
	rc=$?
	n=$((n + 1))
	if [ "$rc" != "$status" ]; then
		echo "$name: exit $rc, expected $status"; sed 's/^/    /' "$W.err" | head -5; fail=1
	elif [ "$msg" = - ] && [ -s "$W.err" ]; then
		echo "$name: said something:"; sed 's/^/    /' "$W.err" | head -5; fail=1
	elif [ "${msg#= }" != "$msg" ] && [ "$(cat "$W.err")" != "${msg#= }" ]; then
		echo "$name: stderr is not exactly '${msg#= }':"; sed 's/^/    /' "$W.err" | head -5; fail=1
	elif [ "${msg#= }" = "$msg" ] && [ "$msg" != - ] && ! grep -qF -- "$msg" "$W.err"; then
		echo "$name: stderr lacks '$msg':"; sed 's/^/    /' "$W.err" | head -5; fail=1
	fi
done < tests/bad/cases
[ "$n" -ge 18 ] || { echo "only $n cases read from tests/bad/cases"; fail=1; }

for s in tests/bad/*.sh; do
	[ -e "$s" ] || continue
	bash "$s" > "$work/script.out" 2>&1
	rc=$?
	case $rc in
	0) ;;
	77) tail -n 1 "$work/script.out"; exit 77 ;;
	*) echo "$s: exit $rc"; sed 's/^/    /' "$work/script.out" | head -20; fail=1 ;;
	esac
done
exit $fail
