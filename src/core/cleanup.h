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
 * unlink()/ioctl(), no stdio, no malloc.
 */
#ifndef PCOST_CLEANUP_H
#define PCOST_CLEANUP_H

#include <signal.h>
#include <sys/types.h>

typedef void (*pcost_cleanup_fn)(void *arg);

/* Set (to the signal number) by the first SIGINT/SIGTERM/SIGHUP. */
extern volatile sig_atomic_t pcost_interrupted;

/* Install the atexit hook and signal handlers (once, from main). */
void pcost_cleanup_init(void);

/* Push an undo action; returns a handle (>= 0) or -1 when the stack is full. */
int pcost_cleanup_push(pcost_cleanup_fn fn, void *arg);
/* Remove the action behind handle; run it first when run != 0. */
void pcost_cleanup_pop(int handle, int run);
/* Run and remove every action, newest first (atexit does this). */
void pcost_cleanup_run_all(void);

/* Child process groups killed (SIGKILL) on interrupt and at exit. */
void pcost_child_add(pid_t pgid);
void pcost_child_remove(pid_t pgid);

#endif
