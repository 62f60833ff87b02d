// SPDX-License-Identifier: MIT
/* core/safepath: outputs renamed into place, directories others can write, a trusted PATH (see safepath.h). */
#include "core/safepath.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/cleanup.h"

static void unlink_tmp(void *arg)
{
	struct pcost_outfile *o = arg;

	/* async-signal-safe: unlink only */
	if (o->tmp[0])
		unlink(o->tmp);
}

int pcost_outfile_reserve(struct pcost_outfile *o, const char *path)
{
	mode_t um;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->fd = o->undo = -1;
	if (snprintf(o->tmp, sizeof(o->tmp), "%s.XXXXXX", path) >= (int)sizeof(o->tmp)) {
		o->tmp[0] = '\0';
		return -ENAMETOOLONG;
	}
	if ((o->fd = mkostemp(o->tmp, O_CLOEXEC)) < 0) {
		o->tmp[0] = '\0';
		return -errno;
	}
	o->undo = pcost_cleanup_push(unlink_tmp, o);
	snprintf(o->name, sizeof(o->name), "/proc/self/fd/%d", o->fd);
	um = umask(0);
	umask(um);
	fchmod(o->fd, 0666 & ~um);
	return 0;
}

int pcost_outfile_open(struct pcost_outfile *o, const char *path)
{
	int rc = pcost_outfile_reserve(o, path);

	if (rc < 0)
		return rc;
	if (!(o->f = fdopen(o->fd, "w"))) {
		rc = -errno;
		pcost_outfile_commit(o, false);
		return rc;
	}
	o->fd = -1; /* o->f's now */
	return 0;
}

int pcost_outfile_commit(struct pcost_outfile *o, bool ok)
{
	int rc = 0;

	if (o->f && (fflush(o->f) || ferror(o->f)))
		rc = -(errno ? errno : EIO);
	if (o->f && fclose(o->f) && !rc)
		rc = -errno;
	if (o->fd >= 0 && close(o->fd) && !rc)
		rc = -errno;
	o->f = NULL;
	o->fd = -1;
	if (o->tmp[0] && ok && !rc && rename(o->tmp, o->path))
		rc = -errno;
	if (o->undo >= 0)
		pcost_cleanup_pop(o->undo, !ok || rc);
	o->undo = -1;
	o->tmp[0] = '\0';
	return rc;
}

/* One of the files beside the store: absent, or a regular file of ours (lstat: not a link). */
static int ours_or_absent(const char *path, const char *suffix, char *why, size_t len)
{
	char p[PATH_MAX + 8];
	struct stat st;

	snprintf(p, sizeof(p), "%s%s", path, suffix);
	if (lstat(p, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (S_ISREG(st.st_mode) && st.st_uid == geteuid())
		return 0;
	snprintf(why, len,
		 "'%s' is %s in a directory others can write: move the store to a directory of "
		 "yours (--db)",
		 p, S_ISLNK(st.st_mode) ? "a link" : "not a file of yours");
	return -EPERM;
}

int pcost_shared_dir_check(const char *path, char *why, size_t len)
{
	static const char *const beside[] = { "", "-wal", "-shm", "-journal" };
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;
	bool shared;
	int rc;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (stat(dir, &st) < 0)
		return 0; /* nothing there yet: whoever makes it decides (make_parents: 0700) */
	shared = (st.st_mode & (S_IWGRP | S_IWOTH)) || (st.st_uid != geteuid() && st.st_uid != 0);
	if (!shared)
		return 0;
	if (!(st.st_mode & S_ISVTX)) {
		snprintf(why, len,
			 "'%s' is in '%s', which others can write: move it to a directory of yours "
			 "(--db)",
			 path, dir);
		return -EPERM;
	}
	for (size_t i = 0; i < sizeof(beside) / sizeof(beside[0]); i++)
		if ((rc = ours_or_absent(path, beside[i], why, len)) < 0)
			return rc;
	return 1;
}

/* Could anyone but root change what dir holds?  It, or a directory above it. */
static bool dir_trusted(const char *dir)
{
	char p[PATH_MAX];
	struct stat st;
	size_t n;

	if (dir[0] != '/' || snprintf(p, sizeof(p), "%s", dir) >= (int)sizeof(p))
		return false;
	for (;;) {
		if (stat(p, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != 0)
			return false;
		/* A sticky directory (/tmp) lets others add names, not replace ours. */
		if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
			return false;
		if (!strcmp(p, "/"))
			return true;
		n = strlen(p);
		while (n > 1 && p[n - 1] == '/')
			p[--n] = '\0';
		char *slash = strrchr(p, '/');

		if (slash == p)
			p[1] = '\0';
		else
			*slash = '\0';
	}
}

size_t pcost_path_secure(char *dropped, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *kept, *save = NULL;
	size_t n = 0, off = 0, k = 0;
	struct stat st;

	if (len)
		dropped[0] = '\0';
	if (geteuid() != 0 || !path)
		return 0;
	copy = strdup(path);
	kept = calloc(1, strlen(path) + 128);
	if (!copy || !kept) {
		free(copy);
		free(kept);
		return 0;
	}
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (dir_trusted(d)) {
			k += (size_t)sprintf(kept + k, "%s%s", k ? ":" : "", d);
			continue;
		}
		if (stat(d, &st) < 0)
			continue; /* missing: nothing to run there */
		n++;
		if (off < len)
			off += (size_t)snprintf(dropped + off, len - off, "%s%s", off ? ":" : "",
						d);
	}
	/* Nothing left: the directories sudo's secure_path names, the trusted ones of them. */
	if (!k)
		for (const char *const *d =
			     (const char *const[]){ "/usr/local/sbin", "/usr/local/bin",
						    "/usr/sbin", "/usr/bin", "/sbin", "/bin",
						    NULL };
		     *d; d++)
			if (dir_trusted(*d))
				k += (size_t)sprintf(kept + k, "%s%s", k ? ":" : "", *d);
	setenv("PATH", kept, 1);
	free(copy);
	free(kept);
	return n;
}
