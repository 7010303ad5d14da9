# Sourced by the scripts of tests/sh that look at the reports of the committed
# trials (samples/trials/*, tests/data/trials/*): each report is written once
# per build rather than once per script.
#   report_of TRIAL   prints the folder holding `scaleaudit report TRIAL` as
#                     $SCALEAUDIT writes it with SOURCE_DATE_EPOCH=1700000000;
#                     its exit status is in FOLDER.rc, its stderr in FOLDER.err.
# TRIAL is named from the repository's root, as the scripts run. The reports
# are kept under $BUILD/test-reports/ and written again whenever the binary
# or a file of the trial changes (name, size or time). A script must not
# write into the folder: it copies it first.
report_of() {
	local trial=${1%/} dir key
	dir=$TOP/${BUILD:-build/plain}/test-reports/${trial//\//_}
	key=$({ stat -c '%s %.9Y %i' "$SCALEAUDIT"; find "$TOP/$trial" -printf '%P %s %T@\n' | LC_ALL=C sort; } | md5sum)
	if [ "$(cat "$dir.key" 2> /dev/null)" != "$key" ]; then
		rm -rf "$dir" "$dir.key"
		mkdir -p "$(dirname "$dir")"
		(cd "$TOP" && SOURCE_DATE_EPOCH=1700000000 "$SCALEAUDIT" report "$trial" -o "$dir" > /dev/null 2> "$dir.err")
		echo $? > "$dir.rc"
		echo "$key" > "$dir.key"
	fi
	echo "$dir"
}
