/*
 * registry: the table of format readers. A reader is added by one line in
 * registry.c; nothing else needs to know it exists.
 */
#ifndef INGEST_REGISTRY_H
#define INGEST_REGISTRY_H

#include "ingest/reader.h"
#include "ingest/sniff.h"

/* The reader of a whole-file format (JSON, SQLite), or NULL. */
const struct reader *reader_for(enum format f);

/* The line readers, NULL-terminated; each is offered every text file. */
extern const struct reader *const line_readers[];

#endif
