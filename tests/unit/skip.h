/*
 * skip: the only ways a unit test may skip a case. Each prints the reason as
 * a "# skip: REASON" line, which tests/run.sh checks against its allow-list
 * (a skip without one fails the run), then calls cmocka's skip(). A reason
 * that does not hold fails the case instead of skipping it.
 */
#ifndef TESTS_SKIP_H
#define TESTS_SKIP_H

/*
 * Skips because ../shared is absent (SHARED empty). When SHARED is set, a
 * real-data file the test wanted is missing: the case fails. Does not return.
 */
void skip_without_shared(void);

/* Returns when the program `tool` is on PATH; otherwise skips the case. */
void skip_unless_tool(const char *tool);

#endif
