# Sourced by test scripts after fail=0: check WHAT EXPECTED ACTUAL compares two
# strings and, when they differ, says which and sets fail=1 (the script exits
# with $fail at its end).
check() {	# check WHAT EXPECTED ACTUAL
	[ "$2" = "$3" ] || { echo "$1: expected '$2', got '$3'"; fail=1; }
}
