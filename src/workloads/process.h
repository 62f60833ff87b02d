/* SPDX-License-Identifier: MIT */
/*
 * workloads/process: a workload's own process, named for ps/perf/strace, ended
 * at once by a signal, telling the runner by a line how a fault killed it; and
 * its partner processes' (pipe, messaging, server): full reads and writes
 * between them, and reaping them.  The timed region is timed.h's.
 */
#ifndef PCOST_WL_PROCESS_H
#define PCOST_WL_PROCESS_H

#include <stddef.h>
#include <sys/types.h>

#include "core/util.h"

/* prctl(PR_SET_NAME) the calling thread "pc-<name>" so ps/perf/strace show it. */
void pcost_wl_name_self(const char *name);
/*
 * SIGINT, SIGTERM and SIGHUP end this process at once, by that signal, after
 * SIGKILLing its child processes (a pipe partner, messaging workers): a
 * workload is a leaf, with nothing to undo, unlike probecost's other commands,
 * whose handler only notes the signal for the command to unwind.  Children
 * inherit it until they exec.
 */
void pcost_wl_end_on_signals(void);
/*
 * Before the work, when PROBECOST_REPORT_FD names a descriptor: a fatal
 * signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT) writes one line
 * there before the process dies of it, so the runner knows the program died
 * and where, even under a tool that hides its child's signal (perf stat):
 *
 *   signal=SEGV code=1 pid=P addr=0x10 ip=0x55d0c1a2b3c4 ip_vaddr=0x1b3c4 [from_pid=Q]
 *
 * addr: the faulting address (si_addr); ip: the interrupted instruction;
 * ip_vaddr: ip as an address of the executable's ELF file (absent when ip is
 * outside it), which the runner names as function+offset (probes/where.h);
 * from_pid: the sender when the signal was sent, not raised by a fault.
 * Only write(2) inside the handler (async-signal-safe); the signal is then
 * re-raised with its default action.  Forked children inherit it.
 */
void pcost_wl_report_faults(void);

/* read/write exactly n bytes, retrying on EINTR and short transfers; 0 or -errno (-EPIPE at EOF). */
int pcost_read_full(int fd, void *buf, size_t n);
int pcost_write_full(int fd, const void *buf, size_t n);
/* waitpid() a child and check it exited 0; 0 or -ECHILD with an error printed. */
int pcost_wl_reap(pid_t pid, const char *what);

#endif
