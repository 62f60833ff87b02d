// SPDX-License-Identifier: MIT
/* lock: one session of a kind at a time on this machine, an flock in the state directory. */
#include "core/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "core/journal.h"
#include "core/util.h"

/* "pid N: COMMAND LINE" of the holder whose pid is in the lock file. */
static void describe_holder(int fd, char *holder, size_t len)
{
	char buf[32] = "", path[64], cmd[512];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	int pid = n > 0 ? (buf[n] = 0, atoi(buf)) : 0;
	char *esc;
	int cfd;

	snprintf(holder, len, "pid %d", pid);
	if (pid <= 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	cfd = open(path, O_RDONLY | O_CLOEXEC);
	n = cfd >= 0 ? read(cfd, cmd, sizeof(cmd) - 1) : -1;
	if (cfd >= 0)
		close(cfd);
	if (n <= 0)
		return;
	while (n > 0 && !cmd[n - 1])
		n--;
	cmd[n] = 0;
	for (ssize_t i = 0; i < n; i++)
		if (!cmd[i])
			cmd[i] = ' ';
	esc = pcost_text_escape(cmd);
	snprintf(holder, len, "pid %d: %.160s%s", pid, esc, strlen(esc) > 160 ? "..." : "");
	free(esc);
}

int pcost_lock_try(const char *name, char *holder, size_t len)
{
	char path[PATH_MAX + 64], pid[24];
	const char *dir = pcost_state_dir();
	int fd, e;

	if (!dir[0])
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s.lock", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		e = errno;
		if (e == EWOULDBLOCK)
			describe_holder(fd, holder, len);
		close(fd);
		return -e;
	}
	snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, strlen(pid), 0) < 0) {
		/* the lock holds all the same; only the name of its holder is missing */
	}
	return fd;
}
