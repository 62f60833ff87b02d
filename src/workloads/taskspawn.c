// SPDX-License-Identifier: MIT
/* workloads/taskspawn: the `spawn` workload, task creation (fork+exit+wait, vfork+exec, pthread create+join), where monitors that follow tasks hurt most. */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/common.h"
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

static int spawn_one(int kind, const char *exe)
{
	char *const argv[] = { (char *)"true", NULL };
	char *const envp[] = { NULL };
	pthread_t th;
	pid_t pid;
	int status, e;

	switch (kind) {
	case KIND_THREAD:
		e = pthread_create(&th, NULL, nothing, NULL);
		if (e)
			return error("could not create thread: %s", strerror(e)), -e;
		return pthread_join(th, NULL) ? -EINVAL : 0;
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
			_exit(0);
	}
	if (pid < 0)
		return error("could not fork: %s", strerror(errno)), -errno;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return error("spawned task failed (status %#x)", status), -ECHILD;
	return 0;
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
		int rc = spawn_one(kind, exe);

		if (rc)
			return rc;
	}
	t1 = pcost_now_ns();
	res->events = loops;
	res->timed_ns = t1 - t0;
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
