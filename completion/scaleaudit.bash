# bash completion for scaleaudit: commands, options, option values and files.
# Everything is asked of the binary itself (scaleaudit --complete), which
# answers from its own tables, so completion always matches the installed
# tool. Installed as share/bash-completion/completions/scaleaudit; or source
# this file from ~/.bashrc.

# _scaleaudit_values CUR LINES: adds to COMPREPLY the values in LINES (as
# `scaleaudit --complete COMMAND OPTION` prints them) that complete CUR. A
# comma list is completed after its last comma; a space in a value is
# escaped. "@dirs" and "@files GLOB..." complete file names instead.
_scaleaudit_values()
{
	local cur=$1 line lines head= bare=${1//\\/} v glob globs IFS=$'\n'

	mapfile -t lines <<< "$2"
	for line in "${lines[@]}"; do
		case $line in
		@dirs)
			compopt -o filenames 2> /dev/null
			COMPREPLY+=($(compgen -d -- "$cur")) ;;
		"@files *")
			compopt -o filenames 2> /dev/null
			COMPREPLY+=($(compgen -f -- "$cur")) ;;
		"@files "*)
			compopt -o filenames 2> /dev/null
			COMPREPLY+=($(compgen -d -- "$cur"))
			IFS=' ' read -ra globs <<< "${line#@files }"
			for glob in "${globs[@]}"; do
				COMPREPLY+=($(compgen -f -X "!$glob" -- "$cur"))
			done ;;
		*)
			[[ $bare == *,* ]] && head=${bare%,*},
			v=$head$line
			[[ $line == "${bare##*,}"* ]] && COMPREPLY+=("${v// /\\ }") ;;
		esac
	done
}

_scaleaudit()
{
	local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} cmd opt= prev= opts eq=
	local IFS=$'\n'

	COMPREPLY=()
	bin=${bin/#\~/$HOME}
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$("$bin" --complete 2> /dev/null)"$'\n'--version$'\n'--help -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	if [[ $cmd == help || $cmd == --help || $cmd == -h ]]; then
		((COMP_CWORD == 2)) &&
			COMPREPLY=($(compgen -W "$("$bin" --complete help 2> /dev/null)" -- "$cur"))
		return
	fi
	opts=$("$bin" --complete "$cmd" 2> /dev/null) || return

	# The option whose value is being typed: "--opt=VAL" (one word, or three
	# when '=' breaks words), or "--opt VAL" for an option that takes one.
	((COMP_CWORD >= 2)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*} eq=${cur%%=*}= cur=${cur#*=}
	elif [[ $cur == = && $prev == --* ]]; then
		opt=$prev cur=
	elif [[ $prev == = ]] && ((COMP_CWORD >= 3)); then
		opt=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $prev == -* ]] && grep -qx -- "$prev"$'\t'value <<< "$opts"; then
		opt=$prev
	fi
	if [[ -n $opt ]]; then
		_scaleaudit_values "$cur" "$("$bin" --complete "$cmd" "$opt" 2> /dev/null)"
		[[ -n $eq ]] && COMPREPLY=("${COMPREPLY[@]/#/$eq}")
	elif [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(cut -f1 <<< "$opts")" -- "$cur"))
	else
		_scaleaudit_values "$cur" "$("$bin" --complete "$cmd" '' 2> /dev/null)"
	fi
}

complete -F _scaleaudit scaleaudit
