#!/bin/bash
# docs/batch.md's GNU parallel recipe, taken from the page itself
# (tests/sh/sched_check.py recipe), runs over sample trials and a trial that
# fails, with 2 jobs, and gives what `batch -j 2` gives on the same trials:
# the same results.sqlite rows (but each trial's analysed_at) and the same
# summary.csv (tests/sh/sched_check.py same). The recipe's paths are the
# only words replaced: /data/trials by the trials' folder, -j 16 by -j 2.
# A row changed in a copy is shown to be caught.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
. tests/skip.sh
. tests/trials.sh
need_tool python3
# moreutils has a program of the same name that knows no {}
need_option parallel --pipe
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# a few sample trials of different kinds, and one whose inputs fail it
mkdir -p "$tmp/home" "$tmp/work"
sched_trials "$tmp"

python3 tests/sh/sched_check.py recipe docs/batch.md parallel > "$tmp/recipe.sh" || exit 1
for word in /data/trials '-j 16'; do
	grep -q -F -e "$word" "$tmp/recipe.sh" || { echo "the recipe no longer says '$word':"; cat "$tmp/recipe.sh"; exit 1; }
done
sed -i -e "s|/data/trials|$tmp/data/trials|g" -e 's/-j 16/-j 2/' "$tmp/recipe.sh"

"$SCALEAUDIT" batch -j 2 "$tmp/data/trials" -o "$tmp/ref" > "$tmp/ref.out" 2>&1
rc=$?
[ $rc -eq 3 ] || { echo "batch -j 2: exit status $rc, expected 3 (one trial fails)"; cat "$tmp/ref.out"; fail=1; }

(cd "$tmp/work" && PATH=$tmp/bin:$PATH HOME=$tmp/home bash "$tmp/recipe.sh") > "$tmp/recipe.out" 2>&1
rc=$?
# the merge fails the batch for the failed trial, as batch does
[ $rc -eq 3 ] || { echo "the recipe: exit status $rc, expected 3"; cat "$tmp/recipe.out"; fail=1; }
n=$(python3 -c "import sqlite3,sys
print(sqlite3.connect(sys.argv[1]).execute(\"select count(*), sum(status = 'ok') from trials\").fetchone())" \
	"$tmp/work/results/results.sqlite" 2>&1)
[ "$n" = "(6, 5)" ] || { echo "the recipe's database: (trials, ok) = $n, expected (6, 5)"; fail=1; }
python3 tests/sh/sched_check.py same "$tmp/ref" "$tmp/work/results" || { echo "the recipe's results differ from batch -j 2's"; fail=1; }

# the comparison sees a changed row, and a changed summary line
cp -r "$tmp/work/results" "$tmp/planted"
python3 -c "import sqlite3,sys
db = sqlite3.connect(sys.argv[1]); db.execute(\"update runs set step_median_s = step_median_s * 1.01 where rowid = 1\"); db.commit()" \
	"$tmp/planted/results.sqlite"
sed -i '2s/"trials--/"trialz--/' "$tmp/planted/summary.csv"
got=$(python3 tests/sh/sched_check.py same "$tmp/ref" "$tmp/planted" | cut -d: -f1-2 | sort | uniq -c | tr -s ' ')
want=' 2 results.sqlite: runs
 1 summary.csv: line 2'
[ "$got" = "$want" ] || { echo "the planted differences were not caught as expected:"; echo "$got"; fail=1; }
exit $fail
