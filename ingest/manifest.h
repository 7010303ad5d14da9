/*
 * manifest: the optional trial.ini and run.ini files (keys in README.md), read with
 * inih. [trial] keys go to the trial, [run] keys to the run's declared facts,
 * each with its file:line so that a disagreement with the logs can name it.
 */
#ifndef INGEST_MANIFEST_H
#define INGEST_MANIFEST_H

#include "ingest/reader.h"

extern const struct reader trial_ini_reader;
extern const struct reader run_ini_reader;

#endif
