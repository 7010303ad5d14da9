/*
 * codearc: the GPU code in the binaries an archive holds, read in place: a
 * wheel (.whl), a conda package (.conda: a zip of pkg-*.tar.zst and
 * info-*.tar.zst; or .tar.bz2), any zip or tar, plain or compressed (see
 * ingest/arc). Every member whose first bytes make it a binary kind
 * (ingest/codescan) is held in memory, up to CODEARC_MEMBER_MAX bytes, only
 * while it is scanned; an archive that is a member of another is read
 * through it, one level down. Members are named ARCHIVE/PATH-IN-ARCHIVE
 * (x.conda/pkg-x.tar.zst/lib/libx.so), as the trial loader names them.
 */
#ifndef INGEST_CODEARC_H
#define INGEST_CODEARC_H

#include <stddef.h>
#include <stdint.h>

#include "core/codeobj.h"
#include "core/diag.h"

/* The largest member scanned: a larger binary is named and left out. */
#define CODEARC_MEMBER_MAX ((int64_t)256 << 20)
/* Archives inside archives read: a .conda's pkg-*.tar.zst is one level down. */
#define CODEARC_DEPTH 1

struct codearc_stats {
	size_t binaries;	/* binary members scanned */
	size_t plain;		/* of those, the ones without GPU code */
	size_t unread;		/* members not judged: too large, refused, damaged (each said) */
};

/*
 * Called with each binary member that holds GPU code; o (named as above)
 * then belongs to the callee.
 */
typedef void (*codearc_fn)(void *user, struct code_object *o);

/*
 * Reads the archive at path. Returns 1 when path is not an archive (nothing
 * said, nothing counted), 0 when it was read to its end, -1 when it is
 * damaged: one "archive" error names it, the member and the byte where
 * reading stopped, and the members before stay handed over. st is added to.
 */
int codearc_scan(const char *path, codearc_fn each, void *user, struct codearc_stats *st,
		 struct diags *d);

#endif
