// SPDX-License-Identifier: MIT
/*
 * workloads/taskspawn: the `spawn` workload, task creation (fork+exit+wait, vfork+exec,
 * pthread create+join), where monitors that follow tasks hurt most.
 *
 * Check (check=ok|bad): every task ends as it must: task i of fork exits with
 * i % 100, a thread returns its own number, true exits 0, and all loops of
 * them end; one that does not (a signal, another status) fails it, naming it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/timed.h"
#include "workloads/workload.h"

enum { KIND_FORK, KIND_VFORK_EXEC, KIND_THREAD };

/* The tiny binary vfork-exec runs: coreutils' true, the smallest exec we can count on. */
static const char *const true_paths[] = { "/usr/bin/true", "/bin/true" };

static const char *true_path(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(true_paths); i++)
		if (access(true_paths[i], X_OK) == 0)
			return true_paths[i];
	return NULL;
}

static void *nothing(void *arg)
{
	return arg;
}

/* Task i: 0, 1 when it ended otherwise than it must (*why says how), -errno when it could not start. */
static int spawn_one(int kind, const char *exe, uint64_t i, char *why, size_t len)
{
	char *const argv[] = { (char *)"true", NULL };
	char *const envp[] = { NULL };
	pthread_t th;
	pid_t pid;
	int status, e;

	switch (kind) {
	case KIND_THREAD: {
		void *ret = NULL;

		e = pthread_create(&th, NULL, nothing, (void *)(uintptr_t)(i + 1));
		if (e)
			return error("could not create thread: %s", strerror(e)), -e;
		if (pthread_join(th, &ret))
			return -EINVAL;
		snprintf(why, len, "thread %llu returned %p", (unsigned long long)i + 1, ret);
		return ret == (void *)(uintptr_t)(i + 1) ? 0 : 1;
	}
	case KIND_VFORK_EXEC:
		pid = vfork();
		if (pid == 0) {
			execve(exe, argv, envp);
			_exit(127);
		}
		break;
	default:
		pid = fork();
		if (pid == 0)
			_exit((int)(i % 100));
	}
	if (pid < 0)
		return error("could not fork: %s", strerror(errno)), -errno;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	snprintf(why, len, "task %llu ended with status %#x, not exit %d",
		 (unsigned long long)i + 1, status, kind == KIND_FORK ? (int)(i % 100) : 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == (kind == KIND_FORK ? (int)(i % 100) : 0)
		       ? 0
		       : 1;
}

static int spawn_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	uint64_t loops = pcost_param_get(p, "loops");
	int kind = (int)pcost_param_get(p, "kind");
	const char *exe = true_path();
	pcost_ns t0, t1;

	if (kind == KIND_VFORK_EXEC && !exe)
		return error("kind=vfork-exec needs /usr/bin/true (install coreutils)"), -ENOENT;
	t0 = pcost_now_ns();
	for (uint64_t i = 0; i < loops; i++) {
		char why[96];
		int rc = spawn_one(kind, exe, i, why, sizeof(why));

		if (rc < 0)
			return rc;
		if (rc) {
			pcost_wl_check(res, false, "%s", why);
			return -ECHILD;
		}
	}
	t1 = pcost_now_ns();
	res->events = loops;
	res->timed_ns = t1 - t0;
	pcost_wl_check(res, true, "every task ended as it must");
	return 0;
}

static const struct pcost_param_desc spawn_params[] = {
	{ "kind", PCOST_PARAM_ENUM, KIND_FORK, 0, 0, "fork|vfork-exec|thread",
	  "fork+_exit+waitpid, vfork+execve(/usr/bin/true)+waitpid, or pthread_create+join" },
	{ "loops", PCOST_PARAM_U64, 10000, 1, 100000000, NULL, "tasks created" },
	{ 0 },
};

const struct pcost_workload pcost_wl_spawn = {
	.name = "spawn",
	.summary = "task creation: fork+exit+wait, vfork+exec of true, thread create+join",
	.unit = "task",
	.size_key = "loops",
	.params = spawn_params,
	.run = spawn_run,
};
