#!/bin/bash
# completion/_scaleaudit: compinit binds it to scaleaudit (its #compdef line),
# and, with words and CURRENT set as zsh sets them, it offers the exact
# candidates (compadd), file completion (_files) and prefix handling
# (compset) for commands, help's argument, options, option values and
# operands. compadd, _files and compset are recorded, not run, so what is
# checked is what the function asks zsh to offer. Then zsh's real completion,
# in an interactive zsh on a pseudo-terminal (zpty): what TAB leaves on the line.
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
check 'compadd report|analyze|inspect|stack|replay|batch|plan|trial|formats' help ''
check '' help plan ''
check 'compadd --json|--diff|--kernels|-j|--jobs|-q|--quiet|-v|--verbose|--color|--patterns|--max-events|--max-memory|-h|--help' analyze -
check 'compset -P *,;compadd single|ddp|zero1|zero2|zero3|fsdp|pipeline|tensor' plan --strategy z
check 'compset -P *=;compset -P *,;compadd eager|flash' plan --attention=
check 'compset -P *=;compset -P *,;compadd auto|always|never' analyze --color=a
check 'compset -P *,;compadd sm_70|sm_80|sm_86|sm_89|sm_90|sm_100|sm_103|sm_120|gfx90a|gfx942|gfx950' stack --target sm_100,
check '_files -/' report -o ''
check '_files -g *.json *.tar *.tar.* *.tgz *.zip' analyze --json ''
check '_files -g *.ini' plan ''
check '_files -g *' inspect ''
check '_files -g *' replay -o ''
check '' plan --gpus ''

# The real thing: each line typed, TAB, then a key whose widget appends the
# line as it stands to a file; a unique candidate is inserted whole.
mkdir "$tmp/dir1"; touch "$tmp/dfile" "$tmp/a.json" "$tmp/a.txt" "$tmp/tr.tar.zst" "$tmp/tr.txt"
cat > "$tmp/real.zsh" <<'ZSH'
zmodload zsh/zpty || exit 3
top=$1 bin=$2 out=$3 tmp=$4
shift 4
zpty z zsh -f -i
# its first prompt ('%m%# ') before typing: what is typed earlier may be lost
# while the shell starts, as a loaded machine once showed ("recorded no line")
zpty -r z x '*[%#] ' || exit 4
zpty -w z "PS1='>'; fpath=($top/completion \$fpath); autoload -Uz compinit; compinit -u -d $tmp/zcompdump;
scaleaudit() { $bin \"\$@\" }; show() { print -r -- \"\$BUFFER\" >> $out }; zle -N show; bindkey '^Xp' show; print RE''ADY"
zpty -r z x '*READY*'
zpty -r z x '*>'	# the new prompt: the line editor has set the terminal up (and dropped any typeahead)
for line; do zpty -w -n z "$line"$'\t\C-Xp\C-U'; done
zpty -w z "print DO''NE"
zpty -r z x '*DONE*'
zpty -d z
ZSH
lines=('scaleaudit an' 'scaleaudit plan --strat' 'scaleaudit plan --strategy fs'
	'scaleaudit analyze --color=ne' 'scaleaudit stack --target sm_100,sm_12'
	'scaleaudit plan --gpu H100\ S' 'scaleaudit plan --model mis'
	"scaleaudit report -o $tmp/d" "scaleaudit analyze $tmp/a" "scaleaudit report $tmp/tr")
want=('scaleaudit analyze ' 'scaleaudit plan --strategy ' 'scaleaudit plan --strategy fsdp '
	'scaleaudit analyze --color=never ' 'scaleaudit stack --target sm_100,sm_120 '
	'scaleaudit plan --gpu H100\ SXM ' 'scaleaudit plan --model mistral-7b '
	"scaleaudit report -o $tmp/dir1/" "scaleaudit analyze $tmp/a.json " "scaleaudit report $tmp/tr.tar.zst ")
timeout 60 zsh -f "$tmp/real.zsh" "$TOP" "$SCALEAUDIT" "$tmp/lines" "$tmp" "${lines[@]}" > /dev/null 2>&1
[ -f "$tmp/lines" ] || { echo "zsh on a pseudo-terminal recorded no line"; exit 1; }
diff <(printf '%s\n' "${want[@]}") "$tmp/lines" > "$tmp/diff" ||
	{ echo "TAB in zsh (< want, > got):"; cat "$tmp/diff"; fail=1; }
exit $fail
