#!/bin/bash
# The walk of `stack DIR`, one walk for the files and the Python environment
# scan: hidden names, __pycache__ and dist-info contents are not read; files
# 16 levels down are, 17 are not; dangling and looping links are said with
# their target; an empty directory is fine; of two site-packages the first
# by name gives the package, whatever the directory order; a named link to a
# directory is walked.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
S=$TOP/tests/data/stack
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$tmp" || exit 1
mkdir -p tree/a/.hidden tree/a/__pycache__ tree/empty \
	tree/env2/lib/site-packages/torch-2.5.1+cu124.dist-info \
	tree/env1/lib/site-packages/torch-2.7.0+cu128.dist-info tree/env1/lib/site-packages/x.dist-info
cp "$S/sm80.cubin" tree/a/.hidden/ && cp "$S/sm80.cubin" tree/a/__pycache__/
cp "$S/sm90.so" tree/env1/lib/site-packages/x.dist-info/ && cp "$S/multi.so" tree/a/
ln -s nowhere tree/dangling && ln -s loop tree/loop
d=tree; for i in $(seq 1 15); do d=$d/$i; done; mkdir -p "$d/16"
cp "$S/sm80.cubin" "$d/in.cubin" && cp "$S/sm80.cubin" "$d/16/out.cubin"

"$SCALEAUDIT" stack tree/ > out 2> err
rc=$?
[ $rc -eq 6 ] || { echo "walk: exit $rc"; fail=1; }
cat > want <<'WANT'
targets: sm_100 sm_120

item                                               kind           archs                     sm_100   sm_120   fix
tree/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/in.cubin  cubin          sm_80                     missing  missing  rebuild in with TORCH_CUDA_ARCH_LIST="10.0;12.0"
tree/a/multi.so                                    shared-object  sm_90 sm_120 compute_120  missing  native   rebuild multi with TORCH_CUDA_ARCH_LIST="10.0"

environment:
  sm_100 CUDA 12.8: ok (12.8 or newer)
  sm_100 PyTorch 2.7.0: ok (2.7 or newer)
  sm_120 CUDA 12.8: ok (12.8 or newer)
  sm_120 PyTorch 2.7.0: ok (2.7 or newer)

ready: sm_100 no, sm_120 no
  sm_100 no: no code for sm_100 in tree/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/in.cubin, tree/a/multi.so
  sm_120 no: no code for sm_120 in tree/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/in.cubin
WANT
diff want out || { echo "walk: the table differs"; fail=1; }
sort err > err.sorted
printf '%s\n' "tree/dangling: warning: a dangling symbolic link (to 'nowhere'): not read" \
	"tree/loop: warning: a symbolic link that loops (to 'loop'): not read" | diff - err.sorted ||
	{ echo "walk: the link warnings differ"; fail=1; }

# the first site-packages by name gives torch, whatever the order on disk
mv tree/env1 tree/env3
"$SCALEAUDIT" stack --json tree | grep -q '"torch": "2.5.1",' || { echo "scan order: env2 should win"; fail=1; }

# a named link to a directory is walked like the directory
ln -s tree treelink
"$SCALEAUDIT" stack treelink 2> /dev/null | grep -q '^treelink/a/multi.so ' || { echo "named link: not walked"; fail=1; }
exit $fail
