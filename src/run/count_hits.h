/* SPDX-License-Identifier: MIT */
/*
 * count_hits: `run --count`'s runs.  The command's events are counted with
 * none of its SDT probes armed (an armed, optimized uprobe enters the kernel
 * through the `uprobe` syscall, nr 336 on x86-64 Linux 6.18, once a hit: it
 * would count as the program's syscall), and the probes' hits in a run of
 * their own, under the probes session lock (an armed probe fires for every
 * process that runs the file: a probes session would count our hits, and we
 * its).  Before that run, a site that arming may change is warned about as
 * `probes` does (probes/site_safety.h); after it, a program that ended
 * otherwise than in the first run is said to have changed.
 */
#ifndef PCOST_COUNT_HITS_H
#define PCOST_COUNT_HITS_H

#include <stddef.h>

#include "core/counted.h"
#include "run/evcount.h"

/*
 * Count argv's events into *c (as pcost_evcount_run: release it even on
 * error), its probe hits from the second run when its executable has SDT
 * probes.  changed gets "exit 3: WRONG ..." when that run ended otherwise
 * than the first ("" else).  0, -EINTR, or -errno with err.
 */
int pcost_count_hits(char *const *argv, const struct pcost_evcount_opts *o, struct pcost_evcount *c,
		     char *changed, size_t clen, char *err, size_t len);

#endif
