// SPDX-License-Identifier: MIT
/* monitor: the pieces every monitor adapter shares (launch vectors, word splitting, helper processes). */
#include "monitors/monitor.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "core/cleanup.h"

const char *pcost_monitor_kind_name(enum pcost_monitor_kind k)
{
	static const char *const names[] = { "baseline", "wrap", "attach", "preload" };

	return (size_t)k < ARRAY_SIZE(names) ? names[k] : "?";
}

void pcost_launch_init(struct pcost_launch *l, char *const argv[])
{
	memset(l, 0, sizeof(*l));
	for (size_t n = 0; argv && argv[n]; n++) {
		xgrow((void **)&l->argv, &l->cap, l->argc + 2, sizeof(*l->argv));
		l->argv[l->argc++] = xstrdup(argv[n]);
	}
	xgrow((void **)&l->argv, &l->cap, l->argc + 1, sizeof(*l->argv));
	l->argv[l->argc] = NULL;
}

void pcost_launch_release(struct pcost_launch *l)
{
	for (size_t i = 0; i < l->argc; i++)
		free(l->argv[i]);
	for (size_t i = 0; i < l->nenv; i++)
		free(l->env[i]);
	free(l->argv);
	free(l->env);
	memset(l, 0, sizeof(*l));
}

void pcost_launch_insert(struct pcost_launch *l, size_t pos, char *const words[], size_t n)
{
	if (pos > l->argc)
		pos = l->argc;
	xgrow((void **)&l->argv, &l->cap, l->argc + n + 1, sizeof(*l->argv));
	memmove(l->argv + pos + n, l->argv + pos, (l->argc - pos + 1) * sizeof(*l->argv));
	for (size_t i = 0; i < n; i++)
		l->argv[pos + i] = xstrdup(words[i]);
	l->argc += n;
}

void pcost_launch_setenv(struct pcost_launch *l, const char *key, const char *value)
{
	size_t klen = strlen(key);

	for (size_t i = 0; i < l->nenv; i++) {
		if (!strncmp(l->env[i], key, klen) && l->env[i][klen] == '=') {
			free(l->env[i]);
			l->env[i] = xasprintf("%s=%s", key, value);
			return;
		}
	}
	xgrow((void **)&l->env, &l->cap_env, l->nenv + 1, sizeof(*l->env));
	l->env[l->nenv++] = xasprintf("%s=%s", key, value);
}

int pcost_argv_split(const char *line, char ***out)
{
	char **argv = NULL, *word = xmalloc(strlen(line) + 1);
	size_t argc = 0, cap = 0, wl = 0;
	bool in_word = false;
	char quote = 0;

	for (const char *p = line;; p++) {
		char c = *p;

		if (quote) {
			if (!c)
				break;
			if (c == quote)
				quote = 0;
			else
				word[wl++] = c;
			continue;
		}
		if (c == '\'' || c == '"') {
			quote = c;
			in_word = true;
			continue;
		}
		if (!c || c == ' ' || c == '\t' || c == '\n') {
			if (in_word) {
				word[wl] = 0;
				xgrow((void **)&argv, &cap, argc + 2, sizeof(*argv));
				argv[argc++] = xstrdup(word);
				wl = 0;
				in_word = false;
			}
			if (!c)
				break;
			continue;
		}
		word[wl++] = c;
		in_word = true;
	}
	free(word);
	if (quote || argc == 0) {
		if (argv) {
			argv[argc] = NULL;
			pcost_argv_free(argv);
		}
		return -EINVAL;
	}
	argv[argc] = NULL;
	*out = argv;
	return (int)argc;
}

char **pcost_argv_dup(char *const *argv)
{
	size_t n = 0;
	char **v;

	while (argv[n])
		n++;
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(argv[i]);
	return v;
}

void pcost_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

bool pcost_monitor_available(const struct pcost_monitor *m, char *why, size_t len)
{
	if (len)
		why[0] = 0;
	return !m->ops->available || m->ops->available(m, why, len);
}

void pcost_monitor_free(struct pcost_monitor *m)
{
	if (m && m->ops->free)
		m->ops->free(m);
}

struct pcost_monitor *pcost_monitor_create(const char *word, char *err, size_t len)
{
	const struct pcost_monitor_def *d;
	const char *colon = strchr(word, ':');
	size_t nlen = colon ? (size_t)(colon - word) : strlen(word);

	/* A table name then ':' takes a parameter, whatever is in it ("strace-seccomp:trace=a b"). */
	for_each_monitor_def(d) {
		if (colon && strlen(d->name) == nlen && !strncmp(d->name, word, nlen))
			return d->create(colon + 1, err, len);
	}
	/* A blank, a quote or a path: the user's own wrapper command. */
	if (strpbrk(word, " \t'\"/"))
		return pcost_monitor_def_custom.create(word, err, len);
	for_each_monitor_def(d) {
		if (strlen(d->name) == nlen && !strncmp(d->name, word, nlen))
			return d->create(colon ? colon + 1 : NULL, err, len);
	}
	snprintf(err, len, "unknown monitor '%s'; see 'probecost list monitors'", word);
	return NULL;
}

/*
 * bpftrace 0.17's handler for SIGINT and SIGTERM only sets a flag, which its
 * poll loop reads when epoll_wait(2) fails with EINTR (BPFtrace::poll_perf_events):
 * a signal that lands while it is elsewhere (preempted after its ready line, on
 * a loaded machine) is lost, and it polls on for ever.
 */
static bool bpftrace_polling(pid_t pid)
{
	char path[64], buf[256];
	long nr;

	snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
	if (pcost_read_file(path, buf, sizeof(buf)) <= 0 || sscanf(buf, "%ld", &nr) != 1)
		return false;
	return nr == SYS_epoll_wait || nr == SYS_epoll_pwait || nr == SYS_epoll_pwait2;
}

void pcost_proc_stop_as_bpftrace(struct pcost_proc *p)
{
	/* SIGTERM: once the loop has ended bpftrace puts SIGINT back to the default,
	 * which would kill it while it prints its maps or END output. */
	p->stop_sig = SIGTERM;
	p->signal_again = bpftrace_polling;
}
