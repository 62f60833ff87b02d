/* SPDX-License-Identifier: MIT */
/*
 * safepath: what another user could change under us.
 *
 * Files written at a name the user gives are never written through a link
 * another user planted there: an output (export -o, --plot, report -o) goes
 * to a temporary file beside its name (mkstemp: O_EXCL, never through a link),
 * then is renamed over the name, so a link there is replaced, not followed.
 * A file probecost keeps opening in place (the store, with SQLite's -wal and
 * -shm beside it) is checked with pcost_shared_dir_check first.
 *
 * Programs run as root are looked up only in directories that nobody but root
 * can change (pcost_path_secure), as sudo's secure_path does.
 */
#ifndef PCOST_SAFEPATH_H
#define PCOST_SAFEPATH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pcost_outfile {
	const char *path;   /* the name it will have */
	char tmp[PATH_MAX]; /* the temporary file beside it, "" when none */
	int fd;		    /* open on it from its creation, -1 */
	char name[32];	    /* "/proc/self/fd/N": that open file, for a library that
			     * writes by name (cairo), whatever happens to tmp's name */
	int undo;	    /* cleanup handle: the temporary file goes on every exit path */
	FILE *f;	    /* on fd, after pcost_outfile_open */
};

/*
 * Make the temporary file beside path (mode 0666 less the umask, as fopen
 * would), open: o->fd, and o->name for a library that writes by name.  0 or
 * -errno.
 */
int pcost_outfile_reserve(struct pcost_outfile *o, const char *path);
/* pcost_outfile_reserve, and o->f open for writing on it.  0 or -errno. */
int pcost_outfile_open(struct pcost_outfile *o, const char *path);
/*
 * Close o->f (if open) and, when ok and that went well, rename the temporary
 * file over o->path; otherwise remove it.  0, or -errno of what failed.
 */
int pcost_outfile_commit(struct pcost_outfile *o, bool ok);

/*
 * May probecost open the file at path in place, with what SQLite puts beside
 * it (path-wal, path-shm)?  Not when its directory is writable by another user
 * (group or others, or owned by someone else) unless that directory is sticky
 * (/tmp) and each of the three that exists is a regular file of ours, not a
 * link: there, nobody else can replace them.  0 (a directory of ours), 1 (a
 * sticky shared one: open with O_NOFOLLOW, SQLITE_OPEN_NOFOLLOW), or -EPERM
 * with the reason and the fix in why.
 */
int pcost_shared_dir_check(const char *path, char *why, size_t len);

/*
 * As root: drop from $PATH each directory that anyone but root could change
 * (not owned by root, writable by group or others, or below a directory that
 * is, sticky ones aside) and each that is relative or missing, so that no
 * tool probecost runs (strace, perf, the command) is another user's.  The
 * unsafe ones that existed, ":"-joined, into dropped (when len > 0); how many.
 * Does nothing (0) for other users: their PATH is theirs to trust.
 */
size_t pcost_path_secure(char *dropped, size_t len);

#endif
