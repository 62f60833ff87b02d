/* SPDX-License-Identifier: MIT */
/*
 * ptree: a process and its descendants, read from /proc: their pids (for a
 * monitor pointed at a --service: perf -p, strace -p, a bpftrace filter) and
 * the CPU time they used (for the service's share of a run: counted as the
 * workload's, never as another process's interference).
 */
#ifndef PCOST_PTREE_H
#define PCOST_PTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/util.h"

/*
 * root and every live descendant (by the parent pid in /proc/PID/stat), root
 * first, into pids[0..max); returns how many (0: root is gone).
 */
size_t pcost_ptree_pids(pid_t root, pid_t *pids, size_t max);

/*
 * The CPU time of root's tree so far: each live member's own time and that
 * of the children it reaped (utime + cutime, stime + cstime), in ns.  The
 * difference of two readings is what the tree used in between, children that
 * came and went included, as long as a member of the tree reaped them (a
 * server's backends: the server does).  false when root is gone.
 */
bool pcost_ptree_cpu(pid_t root, pcost_ns *user, pcost_ns *sys);

/*
 * The CPU time of root's live descendants, root's own not counted: the same
 * sum over them (user and system together), found from root down through
 * /proc/PID/task/TID/children instead of from every process's parent pid, so
 * it reads those processes alone: cheap enough around every run.  false when
 * root is gone or the kernel has no children files (CONFIG_PROC_CHILDREN).
 */
bool pcost_ptree_cpu_below(pid_t root, pcost_ns *cpu);

/* "12,345,678": the pids of pcost_ptree_pids, comma separated; "" when root is gone. */
void pcost_ptree_list(pid_t root, char *buf, size_t len);

#endif
