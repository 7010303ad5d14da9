/* skip: see skip.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/xalloc.h"
#include "tests/unit/skip.h"

/* Prints "# skip: WHAT WHY" where tests/run.sh reads it, then leaves the case. */
static void skip_because(const char *what, const char *why)
{
	printf("# skip: %s %s\n", what, why);
	fflush(stdout);
	skip();
}

void skip_without_shared(void)
{
	const char *shared = getenv("SHARED");

	if (shared && *shared)
		fail_msg("a test input is missing from SHARED=%s (it is there, so this is no skip)", shared);
	skip_because("../shared", "is absent");
}

void skip_unless_tool(const char *tool)
{
	char *cmd = xasprintf("command -v '%s' >/dev/null 2>&1", tool);
	int rc = system(cmd);

	free(cmd);
	if (rc != 0)
		skip_because(tool, "is not installed");
}
