/* SPDX-License-Identifier: MIT */
/*
 * lock: one session of a kind at a time on this machine (probes: an armed
 * uprobe fires for every process that runs the probed file, so two sessions
 * would count and time each other's hits).  An flock on NAME.lock in the
 * journal's state directory (as root /run/probecost, mode 0700, ours alone),
 * which holds the holder's pid.  The kernel drops it when the holder exits,
 * SIGKILL included.  Needs pcost_journal_open() first (the directory).
 */
#ifndef PCOST_LOCK_H
#define PCOST_LOCK_H

#include <stddef.h>

/*
 * Take the lock NAME without waiting: a file descriptor to keep open while
 * the session runs (close-on-exec; closing it releases the lock), or
 * -EWOULDBLOCK with the holder described in holder ("pid N: COMMAND"), or
 * another -errno.
 */
int pcost_lock_try(const char *name, char *holder, size_t len);

#endif
