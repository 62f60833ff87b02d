// SPDX-License-Identifier: MIT
/* rmtree: remove a directory tree we own; async-signal-safe (undo functions, the sweep). */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/util.h"

/* Remove name (in directory fd dirfd) and everything below it; no malloc, no stdio. */
static void remove_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	char buf[4096];
	bool removed = true;

	if (fd < 0) {
		unlinkat(dirfd, name, 0);
		return;
	}
	/* Read again from the start while a pass removed something (the listing shifts). */
	while (removed) {
		long n;

		removed = false;
		lseek(fd, 0, SEEK_SET);
		while ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
			for (long off = 0; off < n;) {
				struct {
					unsigned long long ino;
					long long off;
					unsigned short reclen;
					unsigned char type;
					char name[];
				} *d = (void *)(buf + off);

				if (strcmp(d->name, ".") && strcmp(d->name, "..")) {
					remove_at(fd, d->name);
					removed = true;
				}
				off += d->reclen;
			}
		}
	}
	close(fd);
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

bool pcost_remove_tree(const char *path, uid_t owner)
{
	struct stat st;

	/* A link is never followed; the top is checked, and what is below a directory
	 * only its owner (or root) could have put there. */
	if (lstat(path, &st) < 0 || (owner != (uid_t)-1 && st.st_uid != owner))
		return false;
	remove_at(AT_FDCWD, path);
	return lstat(path, &st) < 0;
}
