#!/bin/bash
# The binary records only the libraries it calls (the link uses --as-needed):
# every NEEDED entry of `readelf -d` is a library that defines at least one of
# the binary's undefined dynamic symbols. libarchive, lz4 and zstd were once
# linked with nothing called; batch (archives), stack and analyze (ZSTD
# fatbins, LZ4 members) call them now, so they must be there and used.
# The check itself is proven on a program linked with a library it never calls.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# unused BINARY: prints each NEEDED soname of BINARY none of whose symbols it uses
unused() {
	local bin=$1 lib path
	nm -D --undefined-only "$bin" | awk '{ sub(/@.*/, "", $NF); print $NF }' | sort -u > "$tmp/undef"
	for lib in $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		path=$(ldd "$bin" | awk -v l="$lib" '$1 == l && $2 == "=>" { print $3 }')
		if [ -z "$path" ]; then
			echo "$lib (not found by ldd)"
			continue
		fi
		nm -D --defined-only "$path" | awk '{ sub(/@.*/, "", $NF); print $NF }' | sort -u |
			comm -12 - "$tmp/undef" | grep -q . || echo "$lib"
	done
}

bad=$(unused "$SCALEAUDIT")
[ -z "$bad" ] || { echo "NEEDED but no symbol used:" $bad; fail=1; }
needed=$(readelf -d "$SCALEAUDIT" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
for lib in libarchive.so.13 liblz4.so.1 libzstd.so.1; do
	grep -qxF "$lib" <<< "$needed" || { echo "$lib is not NEEDED: is archive, LZ4 or ZSTD reading gone?"; fail=1; }
done

# The control: libz on the line of a program that calls nothing of it.
printf 'int main(void) { return 0; }\n' > "$tmp/c.c"
${CC:-cc} -o "$tmp/c" "$tmp/c.c" -Wl,--no-as-needed -lz || { echo "cannot build the control"; exit 1; }
got=$(unused "$tmp/c")
[ "$got" = libz.so.1 ] || { echo "the control's unused libraries: '$got', want 'libz.so.1'"; fail=1; }
exit $fail
