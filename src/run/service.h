/* SPDX-License-Identifier: MIT */
/*
 * service: the server a session measures through its load generator (`run
 * --service CMD --ready RE`).  Started once per session (or before every block
 * with restart_per_block), ready when a line of its output matches RE and/or
 * (ready_port) it accepts a TCP connection on localhost, stopped with SIGTERM
 * (SIGKILL after a grace) on every exit path:
 *
 *   - a normal end, a failed run, Ctrl-C and SIGTERM of probecost: the command
 *     calls pcost_service_stop() (the first Ctrl-C does not SIGKILL it as it
 *     does the runs: it gets its SIGTERM and its shutdown);
 *   - a second Ctrl-C: an undo action of cleanup.h kills its group;
 *   - a SIGKILL of probecost: its leader has PR_SET_PDEATHSIG (cleanup.h), and,
 *     since a service that changes its user loses that (setpriv ... postgres),
 *     a keeper process (proc.h) sends the group SIGTERM then SIGKILL; the
 *     journal records the group for the next probecost's sweep too.
 *
 * Its output (stdout and stderr) goes to a file in a private 0700 directory,
 * removed at the end; its last lines say why it failed.  It runs on the
 * session's CPUs (--cpu) like everything else probecost starts.
 *
 * Use:
 *   struct pcost_service sv;
 *   pcost_service_init(&sv, argv, ready, &opts);
 *   pcost_service_start(&sv, err, len);       0, -ETIMEDOUT, -EPIPE (it exited), -EINTR
 *   pcost_service_alive(&sv, why, len)        before and after each run
 *   pcost_service_cpu(&sv, &user, &sys)       its tree's CPU time so far
 *   pcost_service_stop(&sv); pcost_service_release(&sv);
 *
 * A running service probecost did not start (`run --service-pid PID`) is the
 * same struct made by pcost_service_init_pid(): its start only checks that it
 * runs, untraced and not stopped; alive() asks /proc (the same process: its
 * start time too); stop, restart and release never signal it.  Nothing of
 * probecost's that could signal it knows its pid: not the journal's groups, not
 * a keeper, not cleanup.h's undo; only the monitors attach to it, and they are
 * separate processes that die with probecost (PR_SET_PDEATHSIG), which takes
 * their ptrace attachment, perf events and BPF programs with them.
 */
#ifndef PCOST_SERVICE_H
#define PCOST_SERVICE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/proc.h"
#include "core/util.h"

struct pcost_service_opts {
	uint64_t cpu_mask;	/* where it runs (0: anywhere) */
	double ready_timeout_s; /* how long its readiness may take (0: 10 s) */
	/* ready once it accepts on ready_addr:ready_port (0: no such test); ready_addr is a
	 * numeric IPv4 or IPv6 address, "" for localhost (127.0.0.1, else ::1) */
	int ready_port;
	char ready_addr[48];
	double stop_grace_s;	/* SIGTERM to SIGKILL (0: 10 s) */
	bool restart_per_block; /* started again before every block (the runner asks) */
};

struct pcost_service {
	char **argv; /* owned */
	char *ready; /* owned; NULL: ready once started */
	struct pcost_service_opts o;
	struct pcost_proc proc; /* pid: its leader, 0 when not running */
	struct pcost_keeper keeper;
	int status;	    /* wait status once it exited, -1 */
	char dir[PATH_MAX]; /* private directory of its log, "" */
	int logfd;	    /* its log (O_APPEND, ours), -1 */
	int undo;	    /* cleanup handle, -1 */
	unsigned starts;    /* how many times it was started */
	char name[64];	    /* its argv[0]'s base name, for messages */
	/*
	 * A service that daemonizes (forks, its first process exits 0) is followed:
	 * probecost is the child subreaper while it starts, so the process it left
	 * becomes ours and is the service from then on (measured, stopped).  What
	 * happened, for the command to say ("" none).
	 */
	char followed[200];
	bool foreign;			/* pcost_service_init_pid(): not ours, never signalled */
	unsigned long long start_ticks; /* foreign: its start time (/proc/PID/stat), 0 */
};

/* argv is copied; ready (may be NULL) is a POSIX extended regex, checked by the caller. */
void pcost_service_init(struct pcost_service *sv, char *const argv[], const char *ready,
			const struct pcost_service_opts *o);
/*
 * A running service given by its pid: measured, never started, stopped or
 * signalled.  Its start checks it (pcost_service_start).
 */
void pcost_service_init_pid(struct pcost_service *sv, pid_t pid,
			    const struct pcost_service_opts *o);
/*
 * --service-pid's value into the pid of the service: PID; unit:NAME, the main
 * process of a systemd unit (systemctl show; an error where systemd does not
 * run); cgroup:PATH, the one process of the cgroup (PATH absolute or under
 * /sys/fs/cgroup) whose parent is outside it.  0, or -EINVAL / -ESRCH /
 * -ENOTSUP with one line in err naming the value and what to give instead.
 */
int pcost_service_pid_resolve(const char *spec, pid_t *pid, char *err, size_t len);
/* service_pid.c: a foreign service's start (see pcost_service_start), and whether it runs. */
int pcost_service_pid_check(struct pcost_service *sv, char *err, size_t len);
bool pcost_service_pid_runs(const struct pcost_service *sv);
/*
 * Start it and wait until a line of its output matches ready (when given) and
 * then, with ready_port, until a TCP connection to ready_addr ("": localhost,
 * 127.0.0.1, else ::1) on that port is accepted; the connection is closed at once.  0; or
 * -ETIMEDOUT, -EPIPE (it exited first), -EINTR (Ctrl-C), -errno, with one line
 * in err saying what it waited for and the service's last output.  On failure
 * nothing is left running.  A foreign one (init_pid) is checked only: 0 while it
 * runs, no process of its tree is traced and none is stopped; else -ESRCH or
 * -EBUSY with why in err.
 */
int pcost_service_start(struct pcost_service *sv, char *err, size_t len);
/* Stop and start it again (before a block); -EPERM for a foreign one. */
int pcost_service_restart(struct pcost_service *sv, char *err, size_t len);
/*
 * Is it still running?  false once it exited (reaped now), with why: "exit 1:
 * FATAL: ...", "killed by SIGKILL".
 */
bool pcost_service_alive(struct pcost_service *sv, char *why, size_t len);
/* Its leader's pid (0 when not running). */
pid_t pcost_service_pid(const struct pcost_service *sv);
/* CPU time of its process tree so far (ptree.h); false when it is not running. */
bool pcost_service_cpu(const struct pcost_service *sv, pcost_ns *user, pcost_ns *sys);
/* SIGTERM, its shutdown (stop_grace_s), then SIGKILL of what is left.  Idempotent.
 * A foreign service: nothing. */
void pcost_service_stop(struct pcost_service *sv);
/* Stop and free (its log and directory removed). */
void pcost_service_release(struct pcost_service *sv);

#endif
