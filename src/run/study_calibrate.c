// SPDX-License-Identifier: MIT
/* run/study_calibrate: this machine's cost table measured whole (calibrate, predict's first). */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "core/cleanup.h"
#include "core/env.h"
#include "core/util.h"
#include "run/calibrate.h"
#include "run/study.h"

char *pcost_study_host_name(void)
{
	char h[256] = "";

	if (gethostname(h, sizeof(h) - 1) < 0 || !h[0])
		snprintf(h, sizeof(h), "unknown");
	return xstrdup(h);
}

int pcost_study_calibrate(const struct pcost_calibrate_opts *o, const char *level,
			  const char *cpu_text, struct pcost_cost_table *t, char *err, size_t len)
{
	const struct pcost_env *env = pcost_env_self();
	pcost_ns t0 = pcost_now_ns();
	int rc;

	pcost_cost_table_init(t);
	t->created = (int64_t)time(NULL);
	t->level = xstrdup(level);
	t->version = xstrdup(PCOST_VERSION);
	t->host = pcost_study_host_name();
	t->kernel = xstrdup(env->kernel_release);
	t->cpu = xstrdup(cpu_text ? cpu_text : "");
	t->env_json = pcost_env_to_json_text(env);
	if (pcost_verbosity > 0)
		fprintf(stderr, "probecost %s: measuring the monitors' costs (%s)...\n",
			pcost_command, level);
	rc = pcost_calibrate(o, t, err, len);
	if (rc < 0 && rc != -EINTR)
		return rc;
	if (!o->nmonitors && rc == 0) {
		if (pcost_verbosity > 0)
			fprintf(stderr,
				"probecost %s: measuring the probe methods' and counter "
				"interfaces' costs...\n",
				pcost_command);
		if ((rc = pcost_calibrate_probes(o, t, err, len)) < 0 && rc != -EINTR)
			warning("probe methods not calibrated: %s", err);
		if (rc != -EINTR)
			rc = pcost_calibrate_counters(o, t);
	}
	t->seconds = (double)(pcost_now_ns() - t0) / 1e9;
	t->complete = rc != -EINTR && !pcost_interrupted;
	return t->complete ? 0 : -EINTR;
}
