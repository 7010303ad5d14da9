#include "cli/batch_dir.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

char **batch_list_dir(const char *dir, size_t *n)
{
	struct dirent **ents;
	int k = scandir(dir, &ents, NULL, alphasort);
	char **names;
	size_t m = 0;

	if (k < 0)
		return NULL;
	names = xcalloc((size_t)k + 1, sizeof(*names));
	for (int i = 0; i < k; i++) {
		if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, ".."))
			names[m++] = xstrdup(ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	*n = m;
	return names;
}

void batch_free_list(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
