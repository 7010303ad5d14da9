#include "core/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"

int make_dirs_as(const char *code, const char *dir, struct diags *d)
{
	char *p = xstrdup(dir), *s;
	int rc = 0;

	for (s = p + (*p == '/'); ; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (*p && mkdir(p, 0777) && errno != EEXIST) {
			rc = diag_error(d, code, &SRCPOS_FILE(p), "cannot create directory: %s", strerror(errno));
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}

/*
 * Temporary files and directories of the write under way, removed by on_signal
 * when SIGINT, SIGTERM or SIGHUP ends the process mid-way: the file being
 * written, and the staging directory of a report with what is already in it.
 */
#define TMP_SLOTS OUTFILE_SLOTS
enum { SLOT_FREE, SLOT_FILE = OUTFILE_FILE, SLOT_DIR = OUTFILE_DIR };
static char tmp_slot[TMP_SLOTS][PATH_MAX];
static volatile sig_atomic_t tmp_kind[TMP_SLOTS];
static const int tmp_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* Removes the registered files, then the directories, innermost (latest) first. */
static void tmp_remove_all(void)
{
	for (int i = 0; i < TMP_SLOTS; i++)
		if (tmp_kind[i] == SLOT_FILE)
			unlink(tmp_slot[i]);
	for (int i = TMP_SLOTS - 1; i >= 0; i--)
		if (tmp_kind[i] == SLOT_DIR)
			rmdir(tmp_slot[i]);
}

/* Removes what is registered (async-signal-safe calls only), then dies of sig. */
static void on_signal(int sig)
{
	tmp_remove_all();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Installs on_signal once, leaving alone a signal the caller ignores (nohup). */
static void install_handlers(void)
{
	static bool done;
	struct sigaction sa = { .sa_handler = on_signal }, old;

	if (done)
		return;
	done = true;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]); i++)
		if (!sigaction(tmp_signals[i], NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(tmp_signals[i], &sa, NULL);
}

int outfile_register(const char *path, enum outfile_kind kind)
{
	size_t n = strlen(path);

	install_handlers();
	for (int i = 0; i < TMP_SLOTS && n < PATH_MAX; i++) {
		if (tmp_kind[i] != SLOT_FREE)
			continue;
		memcpy(tmp_slot[i], path, n + 1);
		tmp_kind[i] = (sig_atomic_t)kind;
		return i;
	}
	return -1;
}

void outfile_block_signals(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]); i++)
		sigaddset(&block, tmp_signals[i]);
	sigprocmask(SIG_BLOCK, &block, old);
}

void outfile_release(int slot)
{
	if (slot >= 0)
		tmp_kind[slot] = SLOT_FREE;
}

void outfile_release_all(void)
{
	for (int i = 0; i < TMP_SLOTS; i++)
		tmp_kind[i] = SLOT_FREE;
}

void outfile_sync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - path + (slash == path)), path) : xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);	/* best effort: some file systems cannot sync a directory */
		close(fd);
	}
	free(dir);
}

/* Runs fn on the new file fd, then flushes it to disk; returns 0, or -1 with errno set. */
static int fill(int fd, write_fn fn, void *ctx)
{
	FILE *f = fdopen(fd, "wb");
	int rc;

	if (!f) {
		close(fd);
		return -1;
	}
	errno = 0;
	rc = fn(f, ctx);
	if (rc && !ferror(f))
		errno = 0;	/* the renderer failed, not the file: errno is what a library left */
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		rc = -1;
	if (fclose(f))
		rc = -1;
	return rc;
}

int write_atomic_as(const char *code, const char *path, write_fn fn, void *ctx, struct diags *d)
{
	char *tmp = xasprintf("%s.tmpXXXXXX", path);
	sigset_t old;
	int fd, slot = -1, rc = 0;

	outfile_block_signals(&old);	/* no moment between creating it and registering it */
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd >= 0)
		slot = outfile_register(tmp, OUTFILE_FILE);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		rc = diag_error(d, code, &SRCPOS_FILE(path), "cannot create: %s", strerror(errno));
		goto out;
	}
	if (fchmod(fd, 0644) || fill(fd, fn, ctx)) {
		rc = diag_error(d, code, &SRCPOS_FILE(path), "cannot write: %s",
				errno ? strerror(errno) : "the renderer failed");
	} else if (rename(tmp, path)) {
		rc = diag_error(d, code, &SRCPOS_FILE(path), "cannot rename into place: %s", strerror(errno));
	} else {
		outfile_release(slot);
		outfile_sync_dir_of(path);
		goto out;
	}
	unlink(tmp);
	outfile_release(slot);
out:
	free(tmp);
	return rc;
}

int output_mark(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644), rc = 0;

	if (fd >= 0)
		rc = close(fd);
	else if (errno != EEXIST)
		rc = -1;
	free(path);
	return rc;
}

static bool remove_failed;	/* outfile_remove_tree(): some entry stayed (nftw takes no user pointer) */

/* Removes one entry and goes on past a failure, so that as much as can go goes. */
static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	if (remove(path) && errno != ENOENT)
		remove_failed = true;
	return 0;
}

int outfile_remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	remove_failed = false;
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) || remove_failed ? -1 : 0;
}

void outfile_remove_temp_dirs(const char *dir, const char *prefix)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	size_t len = strlen(prefix);

	while (dp && (de = readdir(dp))) {
		char *path;
		struct stat st;

		if (strncmp(de->d_name, prefix, len) || strlen(de->d_name) != len + 6)
			continue;
		path = xasprintf("%s/%s", dir, de->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			outfile_remove_tree(path);
		free(path);
	}
	if (dp)
		closedir(dp);
}

/* Whether dir/name exists as a regular file (a link does not count). */
static bool has_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool yes = !lstat(path, &st) && S_ISREG(st.st_mode);

	free(path);
	return yes;
}

bool output_dir_is_ours(const char *dir)
{
	/* a report written before the marks: its three files, which no run holds together */
	return has_file(dir, OUTPUT_MARK_REPORT) || has_file(dir, OUTPUT_MARK_BATCH) ||
	       (has_file(dir, "analysis.json") && has_file(dir, "summary.md") && has_file(dir, "report.html"));
}

int fd_write_all(int fd, const void *p, size_t len)
{
	const unsigned char *b = p;

	while (len) {
		ssize_t n = write(fd, b, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		b += n;
		len -= (size_t)n;
	}
	return 0;
}
