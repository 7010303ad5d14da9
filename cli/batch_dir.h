/*
 * batch_dir: the folder listings of `scaleaudit batch` (kept apart from the
 * model's headers, whose DT_UNKNOWN dirent.h also defines).
 */
#ifndef CLI_BATCH_DIR_H
#define CLI_BATCH_DIR_H

#include <stddef.h>

/* The entries of dir (names), sorted, without . and ..; NULL with errno set when it cannot be read. */
char **batch_list_dir(const char *dir, size_t *n);
void batch_free_list(char **names, size_t n);

#endif
