/* SPDX-License-Identifier: MIT */
/*
 * cleanup: everything probecost changes on the system is undone on every exit
 * path.  A stack of undo actions run by atexit() and by fatal signals, plus the
 * set of live child process groups that a signal kills first.
 *
 * Signals: the first SIGINT/SIGTERM/SIGHUP kills every registered child process
 * group and sets pcost_interrupted; commands poll it, stop measuring, print what
 * they measured so far and return normally (atexit then unwinds the stack).  A
 * second signal unwinds the stack from the handler and _exit()s 128+sig, so
 * undo functions must be async-signal-safe enough: write()/close()/kill()/
 * unlink()/ioctl(), no stdio, no malloc.  The same signal twice within
 * PCOST_SIGNAL_REPEAT_MS counts once (timeout(1) signals the process, then its
 * group).
 *
 * Children: every process probecost starts calls pcost_child_die_with_parent()
 * between fork and exec, so a SIGKILLed probecost takes them along; their
 * groups are also written to the journal (journal.h), whose sweep kills what
 * is left of them (grandchildren) at the next start.
 */
#ifndef PCOST_CLEANUP_H
#define PCOST_CLEANUP_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#define PCOST_SIGNAL_REPEAT_MS 250

typedef void (*pcost_cleanup_fn)(void *arg);

/* Set (to the signal number) by the first SIGINT/SIGTERM/SIGHUP. */
extern volatile sig_atomic_t pcost_interrupted;

/* Install the atexit hook and signal handlers (once, from main). */
void pcost_cleanup_init(void);

/* Push an undo action; returns a handle (>= 0) or -1 when the stack is full. */
int pcost_cleanup_push(pcost_cleanup_fn fn, void *arg);
/* Remove the action behind handle; run it first when run != 0. */
void pcost_cleanup_pop(int handle, int run);

/* Is the stack being unwound from a signal handler (second Ctrl-C)?  Undo
 * functions that need stdio or malloc skip their work then. */
bool pcost_cleanup_in_signal(void);

/* In a child between fork and exec: SIGKILL when the parent dies (the parent's
 * pid, taken before the fork: when it is gone already, _exit at once). */
void pcost_child_die_with_parent(pid_t parent);

/* In a child between its fork or vfork and its exec: a process group of its own,
 * pcost_child_die_with_parent(parent), and the default action for the signals
 * probecost catches (SIGINT, SIGTERM, SIGHUP).  Syscalls only. */
void pcost_child_setup(pid_t parent);

/* Child process groups killed (SIGKILL) on interrupt and at exit, and
 * handed to the recorder. */
void pcost_child_add(pid_t pgid);
void pcost_child_remove(pid_t pgid);

/* Who writes each group added and removed down: the journal, once open
 * (pcost_journal_open sets pcost_journal_child), so that the journal sits on
 * the undo stack and not the stack on the journal.  NULL: nobody. */
void pcost_child_set_recorder(void (*record)(pid_t pgid, bool add));

#endif
