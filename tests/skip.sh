# Sourced by tests/run.sh, tests/cli/case.sh and test scripts: when a test may
# skip, and how it says why. A test may skip for three reasons only:
#   ../shared is absent       the folder of real logs beside the clone is not
#                             there (SHARED is empty), as in a user's clone;
#   TOOL is not installed     an external program it runs is missing, TOOL
#                             being one of SKIP_TOOLS below;
#   a Slurm daemon cannot start here   munged, slurmctld or slurmd of the
#                             scheduler test would not start on this machine
#                             (no root, a locked-down container): the test
#                             prints the daemon's log before its reason.
# The reason is one line, "skip: REASON": a script or CLI case prints it last
# and exits 77; a unit test prints "# skip: REASON" (tests/unit/skip.h).
# run.sh fails any skip whose reason is not one of these or does not hold
# here (a tool that is installed, ../shared that is present); that a daemon
# could not start is taken on the test's word.

SKIP_TOOLS="python3 strace pdfinfo pdftotext groff script chromium cuobjdump ptxas nvcc setpriv zsh dpkg-buildpackage dh parallel munged slurmctld slurmd sbatch sinfo squeue scancel"

# need_shared: in a script, skips (exit 77) unless ../shared is present.
need_shared() {
	[ -n "${SHARED:-}" ] && return 0
	echo "skip: ../shared is absent"
	exit 77
}

# need_tool TOOL: in a script, skips (exit 77) unless TOOL is installed.
need_tool() {
	command -v "$1" > /dev/null && return 0
	echo "skip: $1 is not installed"
	exit 77
}

# need_option TOOL OPT: in a script, skips (exit 77) unless TOOL is installed
# and its --help names OPT.
need_option() {
	need_tool "$1"
	"$1" --help 2>&1 | grep -q -e "$2" && return 0
	echo "skip: $1 does not know $2"
	exit 77
}

# skip_allowed REASON: true when REASON is on the list above and holds here.
skip_allowed() {
	local tool
	case "$1" in
	"../shared is absent") [ -z "${SHARED:-}" ] ;;
	*" is not installed")
		tool=${1% is not installed}
		case " $SKIP_TOOLS " in
		*" $tool "*) ! command -v "$tool" > /dev/null ;;
		*) false ;;
		esac ;;
	*" does not know "*)
		tool=${1%% does not know *}
		case " $SKIP_TOOLS " in
		*" $tool "*) ! { command -v "$tool" > /dev/null &&
			       "$tool" --help 2>&1 | grep -q -e "${1#* does not know }"; } ;;
		*) false ;;
		esac ;;
	"a Slurm daemon cannot start here: "*) true ;;
	*) false ;;
	esac
}
