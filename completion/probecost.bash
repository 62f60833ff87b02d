# shellcheck shell=bash
# Bash completion for probecost: commands, each command's options, workloads,
# monitors, counter interfaces, probe methods and the key=value parameters of
# workloads and monitors.  Everything is read at completion time from the
# probecost being completed (`probecost --help`; a command's option table,
# `probecost CMD --list-options`, and its --help generated from the same
# table; `probecost list --format json`, with jq), so it never goes stale.
# Installed as $PREFIX/share/bash-completion/completions/probecost.

# _probecost_json: the registries as JSON (empty without jq or on failure).
_probecost_json()
{
	command -v jq >/dev/null 2>&1 || return 0
	"$1" list --format json 2>/dev/null
}

# _probecost_names BIN TABLE: the row names of one registry that a user can type.
_probecost_names()
{
	_probecost_json "$1" | jq -r --arg t "$2" '.[$t][]?.name | select(test("^[a-z][a-z0-9_-]*$"))' 2>/dev/null
}

# _probecost_params BIN TABLE ROW: "key" or "key=choice" lines of a row's parameters.
_probecost_params()
{
	_probecost_json "$1" | jq -r --arg t "$2" --arg r "$3" \
		'.[$t][]? | select(.name == $r) | .params[]? |
		 if .choices then .name + "=" + .choices[] else .name + "=" end' 2>/dev/null
}

# _probecost_choices BIN TABLE ROW KEY: the fixed values of one parameter.
_probecost_choices()
{
	_probecost_params "$1" "$2" "$3" | sed -n "s/^$4=\(..*\)$/\1/p"
}

# _probecost_reply PREFIX CUR CANDIDATE...: COMPREPLY from the candidates that
# start with CUR, each with PREFIX in front, less what bash already split off
# at its word-break characters (':' and '=' by default).
_probecost_reply()
{
	local prefix=$1 cur=$2 c typed cut wb=${COMP_WORDBREAKS-$' \t\n"\'><=;|&(:'}
	shift 2
	typed=$prefix$cur
	cut=${typed%"${typed##*["$wb"]}"}
	COMPREPLY=()
	for c in "$@"; do
		if [[ $c == "$cur"* ]]; then
			c=$prefix$c
			COMPREPLY+=("${c#"$cut"}")
		fi
	done
}

# _probecost_spec BIN TABLE CUR: complete NAME[:k=v,...] (a workload or monitor).
_probecost_spec()
{
	local bin=$1 table=$2 cur=$3 name rest head piece key
	if [[ $cur != *:* ]]; then
		# shellcheck disable=SC2046 # names are single words
		_probecost_reply "" "$cur" $(_probecost_names "$bin" "$table")
		return
	fi
	name=${cur%%:*} rest=${cur#*:}
	head=${rest%"${rest##*,}"} piece=${rest##*,}
	if [[ $piece == *=* ]]; then
		key=${piece%%=*}
		# shellcheck disable=SC2046
		_probecost_reply "$name:$head$key=" "${piece#*=}" $(_probecost_choices "$bin" "$table" "$name" "$key")
	else
		# shellcheck disable=SC2046
		_probecost_reply "$name:$head" "$piece" $(_probecost_params "$bin" "$table" "$name" | sed 's/=.*/=/' | sort -u)
		compopt -o nospace 2>/dev/null
	fi
}

# _probecost_list BIN CUR WORD...: complete a comma-separated list of WORDs.
_probecost_list()
{
	local cur=$2 head
	head=${cur%"${cur##*,}"}
	_probecost_reply "$head" "${cur##*,}" "${@:3}"
}

# _probecost_options: the long options of the command's table ($opts, one
# "--long TAB -s TAB ARGH" line each), or of its --help for a command without one.
_probecost_options()
{
	if [[ -n $opts ]]; then
		printf '%s\n' "$opts" | cut -f1
	else
		printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
	fi
}

# _probecost_values OPT: the values an option's argument spells a|b|c (in its
# table row, or after it in --help), one a line.
_probecost_values()
{
	local vals
	if [[ -n $opts ]]; then
		vals=$(printf '%s\n' "$opts" | awk -F '\t' -v o="$1" '$1 == o { print $3 }' |
			grep -xE '[a-z0-9-]+(\|[a-z0-9-]+)+')
	else
		vals=$(printf '%s\n' "$help" | grep -oE -- "$1 [a-z0-9-]+(\|[a-z0-9-]+)+" | head -1)
		vals=${vals#* }
	fi
	[[ -n $vals ]] && printf '%s\n' "$vals" | tr '|' '\n'
}

# _probecost_optpara HELP OPT: the paragraph of OPT in a --help text (its line
# and the more indented lines under it, up to the next option).
_probecost_optpara()
{
	printf '%s\n' "$1" | awk -v opt="$2" '
		on && /^ *-/ { exit }
		!on { for (i = 1; i <= NF; i++) if ($i == opt || $i == opt ",") { on = 1; break } ; if (on) { print; next } }
		on { print }'
}

# _probecost_ids BIN: the stored session ids (of the --db on the line, if any).
_probecost_ids()
{
	local i db=()
	for ((i = 1; i < ${#_pc_words[@]} - 1; i++)); do
		case ${_pc_words[i]} in
		--db) db=(--db "${_pc_words[i + 1]}") ;;
		--db=*) db=(--db "${_pc_words[i]#--db=}") ;;
		esac
	done
	"$1" history "${db[@]}" --format csv 2>/dev/null | sed -n '2,$s/^\([0-9][0-9]*\),.*/\1/p'
}

# _probecost_words: the words up to the cursor, with the pieces bash split at
# ':' and '=' joined back ("pipe" ":" "loops" -> "pipe:loops").
_probecost_words()
{
	local i w
	_pc_words=()
	for ((i = 0; i <= COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if ((${#_pc_words[@]} > 1)) && [[ $w == [:=]* || ${_pc_words[-1]} == *[:=] ]]; then
			_pc_words[-1]+=$w
		else
			_pc_words+=("$w")
		fi
	done
}

_probecost()
{
	local bin cur prev cmd="" cmd_i=0 i help opts
	local -a _pc_words
	_probecost_words
	bin=${_pc_words[0]}
	[[ $bin == */* || -z $bin ]] || bin=$(type -P "$bin") || bin=probecost
	cur=${_pc_words[-1]}
	prev=""
	((${#_pc_words[@]} > 1)) && prev=${_pc_words[-2]}
	for ((i = 1; i < ${#_pc_words[@]} - 1; i++)); do
		case ${_pc_words[i]} in
		-q | -v) ;;
		-*) break ;;
		*) cmd=${_pc_words[i]} cmd_i=$i && break ;;
		esac
	done

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			_probecost_reply "" "$cur" -q -v --version --help
		else
			# shellcheck disable=SC2046
			_probecost_reply "" "$cur" $("$bin" --help 2>/dev/null | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
		fi
		return 0
	fi
	help=$("$bin" "$cmd" --help 2>/dev/null)
	opts=$("$bin" "$cmd" --list-options 2>/dev/null) || opts=""

	# After '--' the rest is a command line of its own.
	for ((i = 1; i < ${#_pc_words[@]} - 1; i++)); do
		if [[ ${_pc_words[i]} == -- ]]; then
			if ((i == ${#_pc_words[@]} - 2)); then
				mapfile -t COMPREPLY < <(compgen -c -- "$cur")
			else
				mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			fi
			return 0
		fi
	done

	case $cmd:$prev in
	run:-w | run:--workload)
		_probecost_spec "$bin" workloads "$cur"
		return 0 ;;
	run:-m | run:--monitor | predict:-m | predict:--monitor | calibrate:-m | calibrate:--monitor)
		_probecost_spec "$bin" monitors "$cur"
		return 0 ;;
	run:--metric)
		# The presets its --help names (a NAME=REGEX of one's own is not completed).
		# shellcheck disable=SC2046
		_probecost_reply "" "$cur" $(printf '%s\n' "$help" | sed -n 's/^ *presets: //p')
		return 0 ;;
	run:--service)
		mapfile -t COMPREPLY < <(compgen -c -- "$cur")
		return 0 ;;
	counters:--interfaces)
		# shellcheck disable=SC2046
		_probecost_list "$bin" "$cur" $(_probecost_names "$bin" counters)
		return 0 ;;
	probes:--via)
		# shellcheck disable=SC2046
		_probecost_list "$bin" "$cur" $(_probecost_names "$bin" probes)
		return 0 ;;
	probes:--workload)
		# The workloads this option's --help paragraph names.
		local para
		para=$(_probecost_optpara "$help" "$prev")
		# shellcheck disable=SC2046
		_probecost_reply "" "$cur" $(_probecost_names "$bin" workloads | grep -xF -f <(printf '%s\n' "$para" | grep -oE '[a-z][a-z0-9-]*'))
		return 0 ;;
	probes:--kernel)
		# shellcheck disable=SC2046
		_probecost_reply "" "$cur" $(_probecost_choices "$bin" workloads stanford kernel | grep -vx all)
		return 0 ;;
	*:--format)
		# The formats this command's --help names.
		# shellcheck disable=SC2046
		_probecost_reply "" "$cur" $(printf '%s\n' "$help" | grep -owE 'text|json|csv|markdown|html' | sort -u)
		return 0 ;;
	*:--db | *:--plot | *:-o | *:--output | *:--list | *:--binary | costs:--import)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0 ;;
	*:--root)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return 0 ;;
	esac
	# Any other option whose argument is spelled a|b|c, or whose --help paragraph
	# lists its values as a,b,c (completed as a comma-separated list).
	if [[ $prev == --* ]]; then
		local vals
		vals=$(_probecost_values "$prev")
		if [[ -n $vals ]]; then
			# shellcheck disable=SC2086 # one value a line
			_probecost_reply "" "$cur" $vals
			return 0
		fi
		# A list is words joined by commas without blanks (wrapped after a comma),
		# after a blank or a colon: prose "(a, b" and "(a,\n b" are not lists.
		vals=$(_probecost_optpara "$help" "$prev" | sed -z 's/,\n */,/g' | tr '\n' ' ' |
			grep -oE '(^|[ :])[a-z0-9][a-z0-9-]*(,[a-z0-9][a-z0-9-]*)+' | sed 's/^[ :]//' |
			tr ',' '\n' | sort -u)
		if [[ -n $vals ]]; then
			# shellcheck disable=SC2086
			_probecost_list "$bin" "$cur" $vals
			return 0
		fi
	fi

	if [[ $cur == -* ]]; then
		# shellcheck disable=SC2046
		_probecost_reply "" "$cur" $(_probecost_options | grep -vx -- --help) --help
		return 0
	fi
	case $cmd in
	list)
		_probecost_reply "" "$cur" workloads monitors counters probes ;;
	workload)
		if ((${#_pc_words[@]} == cmd_i + 2)); then
			# shellcheck disable=SC2046
			_probecost_reply "" "$cur" $(_probecost_names "$bin" workloads)
		elif [[ $cur == *=* ]]; then
			# shellcheck disable=SC2046
			_probecost_reply "${cur%%=*}=" "${cur#*=}" $(_probecost_choices "$bin" workloads "${_pc_words[cmd_i + 1]}" "${cur%%=*}")
		else
			# shellcheck disable=SC2046
			_probecost_reply "" "$cur" $(_probecost_params "$bin" workloads "${_pc_words[cmd_i + 1]}" | sed 's/=.*/=/' | sort -u)
			compopt -o nospace 2>/dev/null
		fi ;;
	show | report | compare | export)
		# shellcheck disable=SC2046
		_probecost_reply "" "$cur" last $(_probecost_ids "$bin") ;;
	import)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	esac
	return 0
}
complete -F _probecost probecost
