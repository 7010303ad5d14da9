/*
 * help: the help topics that are not commands (`scaleaudit help trial`,
 * `scaleaudit help formats`) and the roff text of the man pages that lists
 * options, manifest keys and input formats (`scaleaudit help --roff ...`),
 * all made from the code's own tables (the option tables, core/manifest_keys,
 * the format names of ingest/sniff), so that the help and the pages cannot
 * drift from what the tool accepts and reads.
 */
#ifndef CLI_HELP_H
#define CLI_HELP_H

#include "core/buf.h"

/*
 * Appends the text of the help topic `name` ("trial", "formats") to out.
 * Returns 0, or -1 when there is no such topic (out unchanged).
 */
int help_topic(const char *name, struct buf *out);

/* The name of the i-th help topic (from 0), or NULL past the last: for completion. */
const char *help_topic_name(size_t i);

/*
 * Appends to out the roff lines of one generated part of a man page, as the
 * words argv[0..argc) name it:
 *   description COMMAND  its description, paragraphs under .PP
 *   options COMMAND   the .TP list of COMMAND's own options, then its
 *                     included tables, each under a .SS heading
 *   exits COMMAND     the .TP list of its exit statuses
 *   keys SECTION      the .TP list of the manifest keys of SECTION
 *                     ("trial" or "run"): meaning, values, default
 *   formats           the .TP list of the input formats: what each is,
 *                     which commands read it, how to produce it
 * Returns 0, or -1 with a one-line message in err (lowercase, no period)
 * when the words name nothing, or a format has no entry in the table of how
 * each is produced.
 */
int help_roff(int argc, char **argv, struct buf *out, char *err, size_t errsize);

#endif
