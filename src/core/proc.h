/* SPDX-License-Identifier: MIT */
/*
 * proc: the one home of "start a program, capture its output, wait", in the
 * manner of git's run-command: callers never hand-roll fork/pipe/waitpid.
 * (The runner's timed fork/exec/wait4 of a workload is run/spawn.c: it has
 * clocks, rusage and pinning that no other caller needs.)
 */
#ifndef PCOST_PROC_H
#define PCOST_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/util.h"

/* Absolute path of the running probecost binary (readlink /proc/self/exe, read once). */
const char *pcost_self_exe(void);

/*
 * A helper process (an attach monitor, a tool probecost runs): started in its
 * own process group (registered with cleanup.h, killed if probecost dies),
 * stdin /dev/null, its stdout and its stderr captured through private pipes.
 */
struct pcost_proc {
	pid_t pid;    /* also the process group id; 0 when not running */
	int out, err; /* read ends of its stdout and stderr, -1 when closed */
	char *buf;    /* stdout so far, NUL-terminated */
	size_t len, cap;
	char *ebuf; /* stderr so far, NUL-terminated */
	size_t elen, ecap;
	int status; /* wait status once reaped, -1 before */
	/*
	 * Set after start: the signal stop_checked() stops it with (0: SIGINT) and,
	 * when not NULL, a test stop() runs every 100 ms while it waits; true sends
	 * that signal again (a tool that can lose it: bpftrace 0.17, monitors/attach.c).
	 */
	int stop_sig;
	bool (*signal_again)(pid_t pid);
};

/* Start argv; 0 or -errno. */
int pcost_proc_start(struct pcost_proc *p, char *const argv[]);
/* PCOST_PROC_MERGE: its stderr goes into the stdout pipe (one stream, in order). */
#define PCOST_PROC_MERGE 1u
int pcost_proc_start_flags(struct pcost_proc *p, char *const argv[], unsigned flags);
/*
 * Start argv with its stdout and stderr both on fd (a file of ours: a
 * service's log), nothing in our pipes (p->out and p->err are -1).
 */
int pcost_proc_start_to(struct pcost_proc *p, char *const argv[], int fd);
/*
 * Read its output until a line of its stdout or of its stderr matches the
 * extended regex (NULL: return at once) or timeout: 0, -ETIMEDOUT, -EPIPE
 * (it exited first), -EINTR (Ctrl-C).  Past timeout, while it keeps using CPU
 * (bpftrace compiling on a loaded machine), a second more each time, up to 10 x
 * timeout.
 */
int pcost_proc_wait_ready(struct pcost_proc *p, const char *regex, pcost_ns timeout_ns);
/* Wait up to ms for its output and read what came; 0, -1 (poll failed) or -EIO. */
int pcost_proc_pump(struct pcost_proc *p, int ms);
/* Send sig, read the rest of its output, reap it; SIGKILL after grace_ns. 0 or -errno. */
int pcost_proc_stop(struct pcost_proc *p, int sig, pcost_ns grace_ns);
/* Free the buffers (stop first). */
void pcost_proc_release(struct pcost_proc *p);
/* Why it failed, in its own words: the first line of its stderr that is not
 * blank or bpftrace's harmless RLIMIT_MEMLOCK notice (else the last line of
 * its stdout); "" when none. */
void pcost_proc_error_line(const struct pcost_proc *p, char *out, size_t len);
/* Once reaped: did it die of a signal other than stop_sig (and our SIGKILL),
 * or exit non-zero?  true + why ("killed by SIGSEGV", "exit 1: ERROR: ..."). */
bool pcost_proc_died(const struct pcost_proc *p, int stop_sig, char *why, size_t len);
/* After a run: stop it with stop_sig (SIGKILL after grace_ns) and say whether it
 * failed: died during the run, did not stop, died of another signal or exited
 * non-zero (but 128 + SIGINT, a tool's word for "stopped by SIGINT").  true +
 * why. */
bool pcost_proc_stop_checked(struct pcost_proc *p, pcost_ns grace_ns, char *why, size_t len);

/*
 * Run argv to completion (or timeout_ns, 0: no limit, then SIGKILL), its
 * output in out[0..len) (NUL-terminated, cut to fit; with PCOST_PROC_MERGE
 * stdout and stderr in order, else stdout then stderr).  *pidp (may be NULL)
 * holds its pid while it runs, for an undo hook that must wait for it.
 * Returns its exit status, 128 + N when killed by signal N, -ETIMEDOUT when
 * killed at the limit, or -errno when it could not start.
 */
int pcost_proc_run(char *const argv[], unsigned flags, pcost_ns timeout_ns, volatile pid_t *pidp,
		   char *out, size_t len);

/*
 * A keeper of a process group that must not outlive us, even when we are
 * SIGKILLed and its leader's PR_SET_PDEATHSIG is gone (a --service that
 * changed its user, e.g. setpriv to run PostgreSQL as postgres: the kernel
 * clears the death signal on a change of credentials).  A process of its own
 * group (Ctrl-C does not reach it) that waits on a pipe of ours: when the pipe
 * closes unsaid (we died) it sends the group SIGTERM and, grace_s later,
 * SIGKILL.  pcost_keeper_release() says the group is taken care of: it exits
 * doing nothing, and is reaped.
 */
struct pcost_keeper {
	pid_t pid; /* 0 when none */
	int fd;	   /* our end of its pipe, -1 */
};
int pcost_keeper_start(struct pcost_keeper *k, pid_t pgid, unsigned grace_s);
void pcost_keeper_release(struct pcost_keeper *k);

#endif
