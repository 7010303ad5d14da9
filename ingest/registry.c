#include "ingest/registry.h"

#include <string.h>

#include "ingest/kineto.h"
#include "ingest/nsys_csv.h"
#include "ingest/nsys_sqlite.h"

/* Readers of whole files, by the format name they declare. */
static const struct reader *const file_readers[] = {
	&kineto_reader,
	&nsys_sqlite_reader,
	NULL
};

/* Readers of text lines; a log may feed several of them. */
const struct reader *const line_readers[] = {
	&nsys_csv_reader,
	NULL
};

const struct reader *reader_for(enum format f)
{
	const char *name = format_name(f);

	for (size_t i = 0; file_readers[i]; i++)
		if (!strcmp(file_readers[i]->name, name))
			return file_readers[i];
	return NULL;
}
