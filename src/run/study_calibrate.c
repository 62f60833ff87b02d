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

/* One placement's monitor terms into t, each entry saying where it ran; 0, -EINTR or -errno. */
static int calibrate_placed(const struct pcost_calibrate_opts *o, unsigned place,
			    const char *cpu_text, struct pcost_cost_table *t, char *err, size_t len)
{
	struct pcost_calibrate_opts po = *o;
	struct pcost_cost_table part;
	int rc;

	po.cpu_mask = place == PCOST_PLACE_PINNED ? o->cpu_mask : 0;
	pcost_cost_table_init(&part);
	if (pcost_verbosity > 0)
		fprintf(stderr, "probecost %s: measuring the monitors' costs (%s, %s%s)...\n",
			pcost_command, t->level,
			place == PCOST_PLACE_PINNED ? "pinned to CPU " : "unpinned",
			place == PCOST_PLACE_PINNED ? cpu_text : "");
	rc = pcost_calibrate(&po, &part, err, len);
	pcost_cost_table_take(t, &part, place == PCOST_PLACE_PINNED ? cpu_text : NULL);
	return rc;
}

int pcost_study_calibrate(const struct pcost_calibrate_opts *o, const char *level,
			  const char *cpu_text, struct pcost_cost_table *t, char *err, size_t len)
{
	const struct pcost_env *env = pcost_env_self();
	unsigned want = o->placements ? o->placements : PCOST_PLACE_UNPINNED | PCOST_PLACE_PINNED;
	bool pinned = want & PCOST_PLACE_PINNED;
	struct pcost_calibrate_opts last = *o;
	pcost_ns t0 = pcost_now_ns();
	size_t from;
	int rc = 0;

	pcost_cost_table_init(t);
	t->created = (int64_t)time(NULL);
	t->level = xstrdup(level);
	t->version = xstrdup(PCOST_VERSION);
	t->host = pcost_study_host_name();
	t->kernel = xstrdup(env->kernel_release);
	t->cpu = xstrdup(pinned && cpu_text ? cpu_text : "");
	t->env_json = pcost_env_to_json_text(env);
	/* Unpinned first: the placement of run's default, and of every service. */
	if (want & PCOST_PLACE_UNPINNED)
		rc = calibrate_placed(o, PCOST_PLACE_UNPINNED, cpu_text, t, err, len);
	if (pinned && rc == 0)
		rc = calibrate_placed(o, PCOST_PLACE_PINNED, cpu_text, t, err, len);
	if (rc < 0 && rc != -EINTR)
		return rc;
	/* Probe hits and counter reads are paid in the task itself: measured once, as said. */
	last.cpu_mask = pinned ? o->cpu_mask : 0;
	from = t->n;
	if (!o->nmonitors && rc == 0) {
		if (pcost_verbosity > 0)
			fprintf(stderr,
				"probecost %s: measuring the probe methods' and counter "
				"interfaces' costs...\n",
				pcost_command);
		if ((rc = pcost_calibrate_probes(&last, t, err, len)) < 0 && rc != -EINTR)
			warning("probe methods not calibrated: %s", err);
		if (rc != -EINTR)
			rc = pcost_calibrate_counters(&last, t);
	}
	pcost_cost_set_placement(t, from, pinned ? cpu_text : NULL);
	t->seconds = (double)(pcost_now_ns() - t0) / 1e9;
	t->complete = rc != -EINTR && !pcost_interrupted;
	return t->complete ? 0 : -EINTR;
}
