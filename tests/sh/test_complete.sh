#!/bin/bash
# scaleaudit --complete, what the completion scripts ask: the commands; each
# command's option spellings, the same as `help --options` lists; the values
# of the options the code checks against a table, each accepted by the command
# and named in its help (so completion offers nothing the tool refuses); file
# and directory directives for DIR and FILE values and for every command's
# operands; usage errors for an unknown command or option.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
fail=0
bad() { echo "$*"; fail=1; }
sa() { "$SCALEAUDIT" "$@"; }
commands="report analyze inspect stack replay batch plan"
paths=0

[ "$(sa --complete | tr '\n' ' ')" = "$commands help " ] || bad "--complete lists: $(sa --complete | tr '\n' ' ')"
[ "$(sa --complete help | tr '\n' ' ')" = "$commands trial formats " ] ||
	bad "--complete help lists: $(sa --complete help | tr '\n' ' ')"
for t in $(sa --complete help); do
	sa help "$t" > /dev/null || bad "help $t, offered by --complete help, fails"
done

for c in $commands; do
	got=$(sa --complete "$c" | cut -f1 | sort)
	want=$(sa help --options "$c" | cut -f2- | tr '\t' '\n' | sort)
	[ "$got" = "$want" ] || bad "$c: --complete's options differ from help --options: $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')"
	# every line: a spelling, then flag, value or optional
	odd=$(sa --complete "$c" | grep -Evx -- '-(.|-[a-z0-9-]+)	(flag|value|optional)')
	[ -z "$odd" ] || bad "$c: lines that are not a spelling, a tab and flag, value or optional: $odd"
	[ -n "$(sa --complete "$c" '')" ] || bad "$c: nothing to complete its operands with"
	# an option whose value is a DIR or FILE completes file names
	while read -r opt kind; do
		paths=$((paths + 1))
		want=$([ "$kind" = DIR ] && echo @dirs || echo '@files *')
		[ "$(sa --complete "$c" "$opt")" = "$want" ] || bad "$c $opt $kind: '$(sa --complete "$c" "$opt")', want '$want'"
	done < <(sa help "$c" | sed -n 's/^  \(-[a-z]\|--[a-z-]*\) \(DIR\|FILE\)\b.*/\1 \2/p')
done
# at least -o DIR of report, batch and plan, --init DIR, replay -o FILE, --patterns FILE x 7
[ $paths -ge 12 ] || bad "$paths options take a DIR or FILE, want 12 or more"
[ "$(sa --complete analyze '')" = '@files *.json *.tar *.tar.* *.tgz *.zip' ] || bad "analyze's operand: $(sa --complete analyze '')"
[ "$(sa --complete plan '')" = '@files *.ini' ] || bad "plan's operand: $(sa --complete plan '')"
[ "$(sa --complete inspect '')" = '@files *' ] || bad "inspect's operand: $(sa --complete inspect '')"
[ "$(sa --complete report -o)" = '@dirs' ] || bad "report -o: $(sa --complete report -o)"
[ "$(sa --complete analyze --color | tr '\n' ' ')" = "auto always never " ] || bad "--color: $(sa --complete analyze --color)"
[ -z "$(sa --complete plan --gpus)" ] || bad "plan --gpus (a number) completes: $(sa --complete plan --gpus)"

# Known answers: the strategies and hypotheses of docs/plan.md, the targets of the GPU table.
[ "$(sa --complete plan --strategy | tr '\n' ' ')" = "single ddp zero1 zero2 zero3 fsdp pipeline tensor " ] ||
	bad "strategies: $(sa --complete plan --strategy | tr '\n' ' ')"
[ "$(sa --complete plan --hypothesis | tr '\n' ' ')" = "step-time global-batch feasibility " ] ||
	bad "hypotheses: $(sa --complete plan --hypothesis | tr '\n' ' ')"
for t in sm_90 sm_100 sm_103 sm_120 gfx942; do
	sa --complete stack --target | grep -qx "$t" || bad "stack --target does not offer $t"
done
sa --complete plan --gpu | grep -qx "H100 SXM" || bad "plan --gpu does not offer 'H100 SXM'"
sa --complete stack | grep -qx -- "--accept-jit	flag" || bad "stack does not offer --accept-jit as a flag"

# Every value offered is accepted; those of a closed list are named in the help.
help=$(sa help plan | tr -s ' \n' ' ')
for opt in strategy precision optimizer checkpointing attention hypothesis question model gpu; do
	n=0
	while IFS= read -r v; do
		n=$((n + 1))
		set -- --params 7B --gpu H200
		[ $opt = model ] && set -- --gpu H200
		[ $opt = gpu ] && set -- --params 7B
		sa plan "$@" "--$opt=$v" > /dev/null 2>&1 || bad "plan --$opt='$v' is offered but refused"
		[ $opt = gpu ] || grep -qF -- "$v" <<< "$help" || bad "plan --$opt '$v' is offered but not in help plan"
	done < <(sa --complete plan "--$opt")
	[ $n -ge 2 ] || bad "plan --$opt offers $n values"
done
while IFS= read -r t; do
	sa stack --target "$t" /dev/null > /dev/null 2>&1
	[ $? -ne 2 ] || bad "stack --target $t is offered but refused"
done < <(sa --complete stack --target)

# Usage errors, with the usual message.
sa --complete nosuch > /dev/null 2> "${TMPDIR:-/tmp}/complete.$$"; rc=$?
[ $rc -eq 2 ] && grep -qx "scaleaudit: 'nosuch' is not a command" "${TMPDIR:-/tmp}/complete.$$" ||
	bad "--complete nosuch: exit $rc, $(cat "${TMPDIR:-/tmp}/complete.$$")"
sa --complete plan --nosuch > /dev/null 2>&1; [ $? -eq 2 ] || bad "--complete plan --nosuch is not a usage error"
sa --complete plan a b > /dev/null 2>&1; [ $? -eq 2 ] || bad "--complete with three words is not a usage error"
rm -f "${TMPDIR:-/tmp}/complete.$$"
exit $fail
