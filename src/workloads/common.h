/* SPDX-License-Identifier: MIT */
/* workloads/common: helpers shared by the built-in workloads (naming, full reads/writes). */
#ifndef PCOST_WL_COMMON_H
#define PCOST_WL_COMMON_H

#include <stddef.h>
#include <sys/types.h>

/* prctl(PR_SET_NAME) the calling thread "pc-<name>" so ps/perf/strace show it. */
void pcost_wl_name_self(const char *name);
/* read/write exactly n bytes, retrying on EINTR and short transfers; 0 or -errno (-EPIPE at EOF). */
int pcost_read_full(int fd, void *buf, size_t n);
int pcost_write_full(int fd, const void *buf, size_t n);
/* waitpid() a child and check it exited 0; 0 or -ECHILD with an error printed. */
int pcost_wl_reap(pid_t pid, const char *what);

#endif
