// SPDX-License-Identifier: MIT
/*
 * db_readonly: what to open for a store this process cannot write.  Its last
 * commits may be in its write-ahead log (-wal) still: a writer killed before
 * a checkpoint, a reader that held an old snapshot.  Reading the main file
 * alone (immutable) would show a stale store, or none, or a corrupt one.
 */
#include "store/db_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/journal.h"
#include "core/util.h"

/* "file:PATH?PARAM", what a URI path cannot hold as is percent-encoded. */
static char *file_uri(const char *path, const char *param)
{
	char *uri = xmalloc(strlen(path) * 3 + strlen(param) + 16), *p = stpcpy(uri, "file:");

	for (const unsigned char *s = (const unsigned char *)path; *s; s++) {
		if (*s == '%' || *s == '?' || *s == '#' || *s < 0x21 || *s >= 0x7f)
			p += sprintf(p, "%%%02X", *s);
		else
			*p++ = (char)*s;
	}
	*p++ = '?';
	strcpy(p, param);
	return uri;
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, rc = 0;
	ssize_t n;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (out < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			rc = -EIO;
			break;
		}
	if (n < 0)
		rc = -errno;
	close(in);
	if (close(out) < 0 && !rc)
		rc = -errno;
	return rc;
}

/* Undo of a private copy (Ctrl-C while it is open): signal-safe. */
static void copy_undo(void *arg)
{
	char *dir = arg;

	if (dir[0])
		pcost_remove_tree(dir, geteuid());
}

/*
 * The main file and its -wal copied into a private directory: SQLite reads the
 * log there (it builds its -shm index beside it, which it cannot do where the
 * store is).
 */
static char *private_copy(struct pcost_db *db, const char *path)
{
	char err[256], to[PATH_MAX + 32], from[PATH_MAX + 8];
	int rc;

	if (pcost_private_dir_make(db->copy, sizeof(db->copy), err, sizeof(err)) < 0) {
		snprintf(db->err, sizeof(db->err),
			 "'%s' has commits in its -wal that SQLite can "
			 "read only with a -shm file beside it, and %s",
			 path, err);
		return NULL;
	}
	db->copy_undo = pcost_cleanup_push(copy_undo, db->copy);
	snprintf(to, sizeof(to), "%s/store.db", db->copy);
	rc = copy_file(path, to);
	snprintf(from, sizeof(from), "%s-wal", path);
	snprintf(to, sizeof(to), "%s/store.db-wal", db->copy);
	if (!rc)
		rc = copy_file(from, to);
	if (rc) {
		snprintf(db->err, sizeof(db->err),
			 "could not copy '%s' and its -wal to read them "
			 "(no -shm file beside it, and none can be made there): %s",
			 path, strerror(-rc));
		return NULL;
	}
	snprintf(to, sizeof(to), "%s/store.db", db->copy);
	return file_uri(to, "mode=ro");
}

char *pcost_sqlite_readonly_uri(struct pcost_db *db, const char *path)
{
	char wal[PATH_MAX + 8], shm[PATH_MAX + 8];
	struct stat st;

	snprintf(wal, sizeof(wal), "%s-wal", path);
	snprintf(shm, sizeof(shm), "%s-shm", path);
	/* No log, or an empty one: the main file is the whole store.  Immutable: no
	 * lock and no -wal/-shm made in a place that is not ours. */
	if (stat(wal, &st) < 0 || st.st_size == 0)
		return file_uri(path, "immutable=1");
	/* SQLite reads the log through an existing -shm even where it cannot write it. */
	if (!access(shm, R_OK))
		return file_uri(path, "mode=ro");
	return private_copy(db, path);
}

void pcost_sqlite_readonly_release(struct pcost_db *db)
{
	if (db->copy_undo >= 0)
		pcost_cleanup_pop(db->copy_undo, 0);
	db->copy_undo = -1;
	pcost_private_dir_remove(db->copy);
	db->copy[0] = 0;
}
