#!/bin/bash
# completion/scaleaudit.bash, driven as bash drives it (COMP_WORDS with '='
# as a word of its own, COMP_CWORD): the exact candidates for commands, help's
# argument, options, option values (a closed list, a comma list, a value with
# a space, --opt=value), and file or directory arguments.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/d1" "$tmp/d2"
touch "$tmp/a.json" "$tmp/b.txt" "$tmp/p.ini" "$tmp/t.tar.zst" "$tmp/z.zip"
. completion/scaleaudit.bash

# check WANT WORD...: completes the last WORD of `scaleaudit WORD...`; WANT is
# the candidates, sorted (C), separated by '|'.
check() {
	local want=$1 got
	shift
	COMP_WORDS=("$SCALEAUDIT" "$@")
	COMP_CWORD=$#
	_scaleaudit
	got=$(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | paste -sd '|')
	[ "$got" = "$want" ] || { echo "scaleaudit $*: got '$got', want '$want'"; fail=1; return 1; }
}

check '--help|--version|analyze|batch|help|inspect|plan|replay|report|stack' ''
check 'replay|report' re
check 'plan' help p
check 'trial' help t
check 'formats' help f
check '' help plan ''
check '--json' analyze --js
check '--heads|--help|--hidden|--hypothesis' plan --h
check '-o' report -o
check 'zero1|zero2|zero3' plan --strategy z
check 'zero1|zero2|zero3' plan --strategy = z
check '--strategy=zero1|--strategy=zero2|--strategy=zero3' plan --strategy=z
check 'eager|flash' plan --attention ''
check 'bf16|fp16|fp32' plan --precision ''
check 'feasibility|global-batch|step-time' plan --hypothesis ''
check 'always|auto' analyze --color = a
check 'H100\ NVL|H100\ PCIe|H100\ SXM' plan --gpu H100
check 'H100\ SXM' plan --gpu 'H100\ S'
check 'H200,B200|H200,B300' plan --gpu H200,B
check 'sm_100,sm_120' stack --target sm_100,sm_12
check 'llama-2-13b|llama-2-7b' plan --model llama-2
check '' plan --gpus ''
check "$tmp/d1|$tmp/d2" report -o "$tmp/"
check "$tmp/a.json|$tmp/d1|$tmp/d2|$tmp/t.tar.zst|$tmp/z.zip" analyze "$tmp/"
check "$tmp/a.json|$tmp/d1|$tmp/d2|$tmp/t.tar.zst|$tmp/z.zip" analyze --json "$tmp/"
check "$tmp/t.tar.zst" report "$tmp/t"
# the lines --complete prints are not globbed, whatever the user's shell options
(cd "$tmp" && shopt -s nullglob && check 'a.json|d1|d2|t.tar.zst|z.zip' replay '') || fail=1
check "$tmp/a.json|$tmp/b.txt|$tmp/d1|$tmp/d2|$tmp/p.ini|$tmp/t.tar.zst|$tmp/z.zip" inspect -v "$tmp/"
check "$tmp/d1|$tmp/d2|$tmp/p.ini" plan "$tmp/"
check "$tmp/a.json|$tmp/b.txt|$tmp/d1|$tmp/d2|$tmp/p.ini|$tmp/t.tar.zst|$tmp/z.zip" replay -o "$tmp/"
check "$tmp/a.json|$tmp/b.txt|$tmp/d1|$tmp/d2|$tmp/p.ini|$tmp/t.tar.zst|$tmp/z.zip" analyze --patterns "$tmp/"
check '' nosuch ''
exit $fail
