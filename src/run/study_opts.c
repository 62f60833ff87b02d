// SPDX-License-Identifier: MIT
/* run/study_opts: the values of run's own options and what goes with what, for cmd-run.c. */
#include <arpa/inet.h>
#include <errno.h>
#include <regex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "run/study.h"

/*
 * --ready-port [ADDRESS:]PORT: an IPv4 address, an IPv6 one in brackets
 * ("[::1]:6379") or localhost before the port; numeric only, so nothing is
 * looked up (and nothing waits on a resolver) while the service starts.
 */
int pcost_study_ready_port(struct pcost_study_opts *o, const char *v)
{
	const char *colon = strrchr(v, ':');
	char host[64] = "", buf[INET6_ADDRSTRLEN > 16 ? INET6_ADDRSTRLEN : 16];
	uint64_t u;

	if (colon) {
		size_t n = (size_t)(colon - v);

		if (n >= sizeof(host))
			return usage_error("--ready-port '%s': the address is too long", v),
			       -EINVAL;
		memcpy(host, v, n);
		host[n] = 0;
		if (host[0] == '[' && n >= 2 && host[n - 1] == ']') {
			host[n - 1] = 0;
			memmove(host, host + 1, n - 1);
			if (inet_pton(AF_INET6, host, buf) != 1)
				return usage_error("--ready-port '%s': '%s' is not an IPv6 address",
						   v, host),
				       -EINVAL;
		} else if (!strcmp(host, "localhost")) {
			host[0] = 0;
		} else if (strchr(host, ':')) {
			return usage_error("--ready-port '%s': an IPv6 address goes in brackets, "
					   "as [::1]:PORT",
					   v),
			       -EINVAL;
		} else if (inet_pton(AF_INET, host, buf) != 1) {
			return usage_error(
				       "--ready-port '%s': expected PORT or ADDRESS:PORT, ADDRESS "
				       "an IPv4 address, [an IPv6 one] or localhost",
				       v),
			       -EINVAL;
		}
	}
	if (pcost_parse_u64(colon ? colon + 1 : v, 1, 65535, &u) < 0)
		return usage_error(
			       "--ready-port '%s': expected [ADDRESS:]PORT, PORT a whole number "
			       "in 1..65535",
			       v),
		       -EINVAL;
	o->service_port = (int)u;
	snprintf(o->service_addr, sizeof(o->service_addr), "%s", host);
	return 0;
}

int pcost_study_scales(struct pcost_study_opts *o, const char *v)
{
	char *copy = xstrdup(v), *save = NULL;
	int rc = 0;

	o->nscales = 0;
	if (!pcost_list_well_formed(v))
		rc = usage_error("--scale '%s': expected up to 8 numbers in 0.001..1000, "
				 "comma separated (e.g. 1,2,4)",
				 v);
	for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		double d;

		if (o->nscales >= ARRAY_SIZE(o->scales) ||
		    pcost_parse_double(tok, 0.001, 1000, &d) < 0) {
			rc = usage_error("--scale '%s': expected up to 8 numbers in 0.001..1000, "
					 "comma separated (e.g. 1,2,4)",
					 v);
			break;
		}
		for (size_t k = 0; k < o->nscales && !rc; k++)
			if (o->scales[k] == d)
				rc = usage_error("--scale '%s': %g is given twice; each scale once",
						 v, d);
		o->scales[o->nscales++] = d;
	}
	free(copy);
	return rc ? -EINVAL : 0;
}

int pcost_study_placement_list(struct pcost_study_opts *o, const char *v)
{
	char *copy = xstrdup(v), *save = NULL;
	int rc = 0;

	o->placement[0] = o->placement[1] = false;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "same")) {
			o->placement[0] = true;
		} else if (!strcmp(tok, "split")) {
			o->placement[1] = true;
		} else {
			rc = usage_error("--placement '%s': expected same, split or same,split", v);
			break;
		}
	}
	free(copy);
	if (!rc && !o->placement[0] && !o->placement[1])
		rc = usage_error("--placement '%s': expected same, split or same,split", v);
	return rc ? -EINVAL : 0;
}

/* A word of -m or --attach that holds {pid}, or NULL. */
static const char *pid_word(const struct pcost_study_opts *o)
{
	for (size_t i = 0; i < o->nmonitors; i++)
		if (strstr(o->monitors[i], "{pid}"))
			return o->monitors[i];
	return o->attach && strstr(o->attach, "{pid}") ? o->attach : NULL;
}

int pcost_study_check_service(const struct pcost_study_opts *o)
{
	const char *w = pid_word(o);
	regex_t re;

	if (w && !o->service && !o->service_pid)
		return usage_error("'%s': {pid} is the pid of --service CMD or --service-pid; "
				   "give one (or write the pid)",
				   w),
		       -EINVAL;
	if (o->service && o->service_pid)
		return usage_error("give either --service CMD (a server probecost starts) or "
				   "--service-pid (one already running), not both"),
		       -EINVAL;
	if (o->service_per_block && o->service_pid)
		return usage_error("--service-per-block restarts the service: probecost never "
				   "restarts one it did not start (--service-pid)"),
		       -EINVAL;
	if (o->service_per_block && !o->service)
		return usage_error("--service-per-block needs --service CMD"), -EINVAL;
	if (o->service_port && !o->service)
		return usage_error("--ready-port %d says when --service CMD is ready: give "
				   "--service (a --service-pid runs already)",
				   o->service_port),
		       -EINVAL;
	if (o->metrics.n && !o->command)
		return usage_error("--metric reads what your command prints: give '-- COMMAND' "
				   "(a built-in workload's figures come by themselves)"),
		       -EINVAL;
	if (o->service_ready && regcomp(&re, o->service_ready, REG_EXTENDED | REG_NOSUB) != 0)
		return usage_error("--ready '%s' is not a valid extended regular expression",
				   o->service_ready),
		       -EINVAL;
	if (o->service_ready)
		regfree(&re);
	return 0;
}

int pcost_study_placement(struct pcost_study_opts *o)
{
	cpu_set_t set;
	uint64_t allowed = 0;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return error("could not read the CPUs allowed: %s", strerror(errno)), -EIO;
	for (int c = 0; c < 64; c++)
		if (CPU_ISSET(c, &set))
			allowed |= 1ULL << c;
	if (!o->ro.cpu_mask) {
		o->ro.cpu_mask = allowed & -allowed;
		pcost_format_cpumask(o->ro.cpu_mask, o->cpu_text, sizeof(o->cpu_text));
	}
	o->split_mask = allowed & ~o->ro.cpu_mask;
	o->split_mask &= -o->split_mask;
	if (o->placement[1] && !o->split_mask)
		return usage_error(
			       "--placement split needs a CPU besides --cpu %s to put the monitor "
			       "on; this machine lets probecost use only %s",
			       o->cpu_text, o->cpu_text),
		       -EINVAL;
	return 0;
}
