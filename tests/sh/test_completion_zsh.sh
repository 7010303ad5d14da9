#!/bin/bash
# completion/_scaleaudit: compinit binds it to scaleaudit (its #compdef line),
# and, with words and CURRENT set as zsh sets them, it offers the exact
# candidates (compadd), file completion (_files) and prefix handling
# (compset) for commands, help's argument, options, option values and
# operands. compadd, _files and compset are recorded, not run, so what is
# checked is what the function asks zsh to offer.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool zsh
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

got=$(zsh -fc 'fpath=(completion $fpath); autoload -Uz compinit; compinit -u -d "$1/zcompdump"; print -r -- $_comps[scaleaudit]' zsh "$tmp")
[ "$got" = _scaleaudit ] || { echo "compinit binds scaleaudit to '$got', want _scaleaudit"; fail=1; }

cat > "$tmp/drive.zsh" <<'ZSH'
compadd() { [[ $1 == -- ]] && shift; print -r -- "compadd ${(j:|:)@}" }
_files() { print -r -- "_files $*" }
compset() { print -r -- "compset $*" }
fpath=(completion $fpath)
autoload -Uz _scaleaudit
words=("$@"); CURRENT=$#words
_scaleaudit
ZSH
# check WANT WORD...: what completing the last WORD of `scaleaudit WORD...` records, lines joined by ';'
check() {
	local want=$1 got
	shift
	got=$(zsh -f "$tmp/drive.zsh" "$SCALEAUDIT" "$@" | paste -sd ';')
	[ "$got" = "$want" ] || { echo "scaleaudit $*: got '$got', want '$want'"; fail=1; }
}
check 'compadd report|analyze|inspect|stack|replay|batch|plan|help|--version|--help' ''
check 'compadd report|analyze|inspect|stack|replay|batch|plan' help ''
check '' help plan ''
check 'compadd --json|-q|--quiet|-v|--verbose|--color|--patterns|--max-events|-h|--help' analyze -
check 'compset -P *,;compadd single|ddp|zero1|zero2|zero3|fsdp|pipeline|tensor' plan --strategy z
check 'compset -P *=;compset -P *,;compadd eager|flash' plan --attention=
check 'compset -P *=;compset -P *,;compadd auto|always|never' analyze --color=a
check 'compset -P *,;compadd sm_70|sm_80|sm_86|sm_89|sm_90|sm_100|sm_103|sm_120|gfx90a|gfx942|gfx950' stack --target sm_100,
check '_files -/' report -o ''
check '_files -g *.json' analyze --json ''
check '_files -g *.ini' plan ''
check '_files -g *' inspect ''
check '_files -g *' replay -o ''
check '' plan --gpus ''
exit $fail
