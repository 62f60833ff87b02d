// SPDX-License-Identifier: MIT
/* workloads/common: helpers shared by the built-in workloads. */
#include "workloads/common.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"

void pcost_wl_name_self(const char *name)
{
	char comm[16];

	snprintf(comm, sizeof(comm), "pc-%s", name);
	prctl(PR_SET_NAME, comm, 0, 0, 0);
}

int pcost_read_full(int fd, void *buf, size_t n)
{
	char *p = buf;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EPIPE;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int pcost_write_full(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

int pcost_wl_reap(pid_t pid, const char *what)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return error("could not wait for %s: %s", what, strerror(errno)), -ECHILD;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		error("%s failed (%s %d)", what, WIFEXITED(status) ? "exit" : "signal",
		      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -ECHILD;
	}
	return 0;
}
