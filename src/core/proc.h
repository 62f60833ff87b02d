/* SPDX-License-Identifier: MIT */
/*
 * proc: the one home of "start a program, capture its output, wait", in the
 * manner of git's run-command: callers never hand-roll fork/pipe/waitpid.
 * Every fork and vfork of probecost outside the workloads is
 * pcost_child_start: the runner's timed runs (run/spawn.c) and counting runs
 * (run/evcount.c) describe their child in a struct pcost_child, as the helper
 * processes below (struct pcost_proc) do; and one function puts a wait status
 * into words (pcost_wait_status_text).
 */
#ifndef PCOST_PROC_H
#define PCOST_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "core/util.h"

/*
 * A child, described (pcost_child_init sets the defaults), started, held until
 * a go when asked, waited for.  In the child, before its exec, in this order:
 *   - a process group of its own, SIGKILL when probecost dies, the default
 *     action for the signals probecost catches (cleanup.h:
 *     pcost_child_setup); our signals are blocked from the fork until then,
 *     so that no handler of ours runs in it;
 *   - stdin, stdout and stderr as fd[] says, pass_fd onto fd 3;
 *   - PCOST_CHILD_CLOSE_FDS: every other descriptor closed at its exec;
 *   - pinned to cpu_mask; then hook(arg), its own set-up;
 *   - no signal blocked; PCOST_CHILD_HOLD: it waits for pcost_child_go();
 *   - exec: execve(path) when path is set, else argv[0] searched on $PATH
 *     with env (NULL: ours); or, with no argv, fn(arg) and _exit with its value.
 * Between fork and exec only async-signal-safe calls are allowed (syscalls):
 * hook and fn included; a vfork child shares our memory and stack.
 */
#define PCOST_CHILD_NULL (-1) /* fd[]: /dev/null */
#define PCOST_CHILD_PIPE (-2) /* fd[1], fd[2]: a pipe; its read end in pipe[] after start */
#define PCOST_CHILD_KEEP (-3) /* fd[]: ours, as it is */

enum {
	/*
	 * A vfork, CLONE_VM|CLONE_VFORK as glibc's posix_spawn does: a fork copies
	 * probecost's page tables, 2-3 ms a run on a KVM guest against 0.9-1.3 ms
	 * for a spawn of the same /bin/true.  We are suspended until it execs or
	 * exits.  Not with HOLD or fn; errors come back through shared memory.
	 */
	PCOST_CHILD_VFORK = 1u << 0,
	/* Set up, then wait on a pipe for pcost_child_go() before the exec (counters armed first). */
	PCOST_CHILD_HOLD = 1u << 1,
	/* Its stderr goes where its stdout goes (one stream, in order). */
	PCOST_CHILD_MERGE = 1u << 2,
	/* Nothing of ours but fds 0-2 (and 3, pass_fd) survives its exec (fn: before fn). */
	PCOST_CHILD_CLOSE_FDS = 1u << 3,
	/* A failed exec says "cannot execute 'X': why" on its stderr and exits 127. */
	PCOST_CHILD_SAY_EXEC = 1u << 4,
	/*
	 * It outlives us (the keeper): a process group of its own, but no death
	 * signal and not on cleanup.h's list of groups killed at exit; our signal
	 * handlers stay (fn sets its own dispositions).
	 */
	PCOST_CHILD_OUTLIVE = 1u << 5,
};

/* What failed in the start (fail_stage). */
enum {
	PCOST_CHILD_STAGE_PIPE = 1, /* our pipes */
	PCOST_CHILD_STAGE_FORK,
	PCOST_CHILD_STAGE_PIN, /* pinning to cpu_mask */
	PCOST_CHILD_STAGE_HOOK,
	PCOST_CHILD_STAGE_EXEC,
};

struct pcost_child {
	/* What to run and how (pcost_child_init: fd[] /dev/null, pass_fd -1, the rest 0). */
	char *const *argv;
	const char *path;	/* execve this file; NULL: argv[0] searched on $PATH */
	char *const *env;	/* its whole environment; NULL: ours */
	int (*fn)(void *arg);	/* no argv: run fn(arg) in the child, exit with its value */
	int (*hook)(void *arg); /* its own set-up before exec: 0, or -1 with errno set */
	void *arg;		/* for fn and hook */
	unsigned flags;		/* PCOST_CHILD_* */
	int fd[3];		/* stdin, stdout, stderr: a descriptor of ours, or PCOST_CHILD_* */
	int pass_fd;		/* a descriptor of ours it gets as fd 3 (a report fd); -1 none */
	uint64_t cpu_mask;	/* pinned to these CPUs; 0: not pinned */

	/* Filled by the start. */
	pid_t pid;		   /* also its process group id; 0 when it did not start */
	int pipe[3];		   /* our read ends of fd[1], fd[2] == PCOST_CHILD_PIPE, else -1 */
	int go_fd, report_fd;	   /* HOLD: the go pipe and its error pipe, -1 when closed */
	volatile pcost_ns exec_ns; /* VFORK: its clock right before its execve; 0 not reached */
	volatile int fail_stage;   /* PCOST_CHILD_STAGE_* of what failed, 0 */
	volatile int fail_errno;

	/* Filled by the wait. */
	int status;	  /* wait status once reaped, -1 before */
	struct rusage ru; /* its rusage (and its reaped children's) */
	bool timed_out;	  /* killed at the deadline */
	bool interrupted; /* killed on Ctrl-C */
	bool watched_died;
	unsigned extended; /* times the deadline moved on while it used the CPU */
};

void pcost_child_init(struct pcost_child *c);
/*
 * Start it: 0, or -errno with fail_stage (PIPE, FORK; with VFORK also PIN, HOOK
 * and EXEC: then it has been reaped and pid is 0).  Its process group is
 * registered (cleanup.h: pcost_child_add, not with OUTLIVE); the caller
 * removes it once done.
 */
int pcost_child_start(struct pcost_child *c);
/*
 * HOLD: let it exec.  0 once it has exec'd; -errno with fail_stage (PIN,
 * HOOK, EXEC) when it failed before: it exits then, unreaped.
 */
int pcost_child_go(struct pcost_child *c);

/* How to wait (pcost_child_wait): all optional, zero means none. */
struct pcost_child_wait {
	pcost_ns deadline; /* kill its group at this time of the clock */
	/*
	 * At the deadline, up to extend times: when busy(arg, stretch) says it
	 * still works, the deadline moves on by stretch (a slow run is not a hung one).
	 */
	pcost_ns stretch;
	unsigned extend;
	bool (*busy)(void *arg, pcost_ns stretch);
	pid_t watch; /* kill its group when this process exits first */
	/* Our ends of pipes to read while it runs (-1: closed); readable(i, arg) reads fds[i]. */
	int *fds[3];
	void (*readable)(int i, void *arg);
	void *arg;
};
/*
 * Wait for it (w may be NULL): reap it with wait4 into status and ru; its
 * group is killed (SIGKILL) at the deadline, on Ctrl-C (pcost_interrupted),
 * or when the watched process exits, and timed_out, interrupted or
 * watched_died says so.  pid stays set: what is left of its group is the
 * caller's to kill.  Not started (pid 0): nothing.
 */
void pcost_child_wait(struct pcost_child *c, const struct pcost_child_wait *w);

/*
 * A wait status in words, as every report of how a child ended says it:
 * "exit 3", "exit 1: <line>" (line: NULL or "" for none), "killed by
 * SIGSEGV", "did not run" (status -1: never reaped).  Returns what snprintf
 * returns.
 */
int pcost_wait_status_text(int status, const char *line, char *buf, size_t len);
/* "killed by SIGSEGV" for a signal's abbreviation ("SEGV"). */
int pcost_killed_by_text(const char *sig_abbrev, char *buf, size_t len);
/* Did it end badly: exit non-zero, or killed by a signal other than expected_sig (0: none)? */
bool pcost_wait_status_failed(int status, int expected_sig);

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
