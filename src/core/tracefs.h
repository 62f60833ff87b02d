/* SPDX-License-Identifier: MIT */
/*
 * tracefs: the tracing filesystem as probecost needs it.  A freshly booted
 * machine has it unmounted; as root probecost mounts it when a monitor or a
 * probe method needs it (as perf does) and puts the mount state back at exit:
 * whatever is mounted at /sys/kernel/tracing during a run or probes session
 * that was not there at its start (ours, or perf's) is unmounted on every exit
 * path, unless another live probecost in the same mount namespace still uses
 * it (the last one unmounts; after a SIGKILL the next sweep does, journal.h).
 *
 * Also: is a tracer that is not ours armed on what we are about to measure?
 */
#ifndef PCOST_TRACEFS_H
#define PCOST_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>

#define PCOST_TRACEFS "/sys/kernel/tracing"

/* tracefs mounted at PCOST_TRACEFS (in our mount namespace)?  At another path:
 * pcost_tracefs_mounted_at (journal.h, whose sweep asks it too). */
bool pcost_tracefs_mounted(void);

/*
 * Can run or probes use PCOST_TRACEFS/file (writable, or readable when
 * write is false) here: mounted, or mountable because we are root?  As root
 * with tracefs unmounted, the answer comes from a private mount in a child's
 * own mount namespace (nothing changes on the machine).  false + why.
 */
bool pcost_tracefs_usable(const char *file, bool write, char *why, size_t len);

/* At the start of run/probes (after pcost_journal_open): note whether tracefs
 * is mounted, and if not, unmount whatever gets mounted there before exit. */
void pcost_tracefs_begin(void);

/* Remove instances of probecosts that are gone (probecost-PID, pcost_PID_N); how many. */
int pcost_tracefs_reap_dead_instances(void);

/*
 * The formats of every event of these systems (a NULL-ended list) in dir's
 * events/ (dir NULL: libtracefs's tracing directory), in a new tep handle
 * (tep_free), with the header page and this machine's long size, page size
 * and byte order; NULL when dir has no header page or none of the systems.
 * What tracefs_local_events_system() gives, less what it loads besides: the
 * whole of /proc/kallsyms (5 MB, read in small reallocs at every call, which
 * ASan copies), printk
 * formats and saved command lines, none of which probecost prints.
 */
struct tep_handle *pcost_tracefs_formats(const char *dir, const char *const *systems);

/* Mount tracefs when it is not (root only).  0, or -errno and a line in why. */
int pcost_tracefs_mount(char *why, size_t len);

/*
 * A tracer not started by this process armed on what is measured: an enabled
 * uprobe event (tracefs) or a BPF program on a uprobe of one of the n binaries,
 * or, when syscalls, enabled raw_syscalls/syscalls events or BPF programs on
 * the syscall tracepoints.  true + why (who and where).  Tracers of another
 * live probecost (its instances and events by name, BPF programs of it and its
 * children) are not foreign: they come and go with its runs; *other (may be
 * NULL) gets its pid, 0 when none, for a warning.
 */
bool pcost_foreign_tracer(const char *const *binaries, size_t n, bool syscalls, int *other,
			  char *why, size_t len);

#endif
