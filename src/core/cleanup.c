// SPDX-License-Identifier: MIT
/* cleanup: undo stack run at exit and on fatal signals; child groups killed on Ctrl-C. */
#include "core/cleanup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_ACTIONS 256
#define MAX_CHILDREN 256

struct action {
	pcost_cleanup_fn fn;
	void *arg;
	volatile int live;
};

static struct action actions[MAX_ACTIONS];
static volatile int nactions;
static volatile pid_t children[MAX_CHILDREN];
static volatile sig_atomic_t unwinding, in_signal;
volatile sig_atomic_t pcost_interrupted;
static struct timespec first_signal_at;
static void (*child_recorder)(pid_t pgid, bool add);

static void kill_children(void)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		pid_t p = children[i];

		if (p > 0)
			kill(-p, SIGKILL);
	}
}

/* Run and remove every action, newest first (atexit does this). */
static void cleanup_run_all(void)
{
	if (unwinding)
		return;
	unwinding = 1;
	kill_children();
	for (int i = nactions - 1; i >= 0; i--) {
		if (actions[i].live) {
			actions[i].live = 0;
			actions[i].fn(actions[i].arg);
		}
	}
	nactions = 0;
	unwinding = 0;
}

/* ms since the first signal (clock_gettime is async-signal-safe). */
static long since_first_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - first_signal_at.tv_sec) * 1000 +
	       (now.tv_nsec - first_signal_at.tv_nsec) / 1000000;
}

static void on_signal(int sig)
{
	if (pcost_interrupted) {
		/*
		 * The same signal again at once is one event delivered twice:
		 * timeout(1) signals the process and then its whole group.
		 */
		if (sig == pcost_interrupted && since_first_ms() < PCOST_SIGNAL_REPEAT_MS)
			return;
		/*
		 * Second signal: the user insists.  Undo everything and go, unless
		 * an unwind is already running (atexit): then let it finish.
		 */
		if (unwinding)
			return;
		in_signal = 1;
		cleanup_run_all();
		_exit(128 + sig);
	}
	clock_gettime(CLOCK_MONOTONIC, &first_signal_at);
	pcost_interrupted = sig;
	kill_children();
}

bool pcost_cleanup_in_signal(void)
{
	return in_signal;
}

void pcost_child_die_with_parent(pid_t parent)
{
	/* PDEATHSIG is cleared by fork, kept by exec; the parent may be gone already. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
}

/* The signals probecost was started with ignored (SigIgn of /proc/self/status at init). */
static unsigned long long inherited_ignored;

static void read_inherited_ignored(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[128];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SigIgn: %llx", &inherited_ignored) == 1)
			break;
	fclose(f);
}

/*
 * Signals ignored when probecost started stay ignored in what it starts, as a
 * shell hands them on, even when a library has since caught one (exec resets
 * a caught signal to its default): glibc's own 32 and 33, which its sigaction()
 * refuses to touch, so the kernel's is called.
 */
static void restore_inherited_ignored(void)
{
	struct {
		void *handler;
		unsigned long flags;
		void *restorer;
		unsigned long long mask;
	} ign = { .handler = (void *)SIG_IGN };

	for (int sig = 1; sig <= 64; sig++)
		if (inherited_ignored & (1ULL << (sig - 1)))
			syscall(SYS_rt_sigaction, sig, &ign, NULL, sizeof(ign.mask));
}

void pcost_child_setup(pid_t parent)
{
	/* What probecost catches, and SIGPIPE, which it ignores: a program it starts gets
	 * the default dispositions, as from a shell (an ignored signal stays ignored
	 * across exec). */
	static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction dfl;

	setpgid(0, 0);
	pcost_child_die_with_parent(parent);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	restore_inherited_ignored();
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaction(caught[i], &dfl, NULL);
}

static void at_exit(void)
{
	cleanup_run_all();
}

void pcost_cleanup_init(void)
{
	static int done;
	struct sigaction sa;

	if (done)
		return;
	done = 1;
	read_inherited_ignored();
	atexit(at_exit);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: blocking waits return EINTR so loops notice the flag. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int pcost_cleanup_push(pcost_cleanup_fn fn, void *arg)
{
	int i;

	/* Reuse a dead slot at the top first to keep the stack short. */
	while (nactions > 0 && !actions[nactions - 1].live)
		nactions--;
	if (nactions >= MAX_ACTIONS)
		return -1;
	i = nactions;
	actions[i].fn = fn;
	actions[i].arg = arg;
	actions[i].live = 1;
	nactions = i + 1;
	return i;
}

void pcost_cleanup_pop(int handle, int run)
{
	if (handle < 0 || handle >= MAX_ACTIONS || !actions[handle].live)
		return;
	actions[handle].live = 0;
	if (run)
		actions[handle].fn(actions[handle].arg);
}

void pcost_child_add(pid_t pgid)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		if (children[i] == 0) {
			children[i] = pgid;
			if (child_recorder)
				child_recorder(pgid, true);
			return;
		}
	}
}

void pcost_child_remove(pid_t pgid)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		if (children[i] == pgid) {
			children[i] = 0;
			if (child_recorder)
				child_recorder(pgid, false);
		}
	}
}

void pcost_child_set_recorder(void (*record)(pid_t pgid, bool add))
{
	child_recorder = record;
}
