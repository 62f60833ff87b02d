// SPDX-License-Identifier: MIT
/*
 * null: does nothing, so a monitor's start-up and shut-down cost stands alone
 * (and the inject monitor's fixed one).  Check: none (it computes nothing: a
 * check there could not fail), so its report has no check= at all.
 */
#include "workloads/timed.h"
#include "workloads/workload.h"

static int null_run(const struct pcost_params *p, struct pcost_wl_result *res)
{
	pcost_ns fixed = pcost_wl_inject_ns("PCOST_INJECT_FIXED_NS"), t0;

	/* The inject monitor's fixed cost, the only cost it adds here. */
	if (fixed)
		pcost_wl_spin_ns(fixed);
	t0 = pcost_now_ns();

	res->events = 0;
	res->timed_ns = pcost_now_ns() - t0;
	return 0;
}

static const struct pcost_param_desc null_params[] = { { 0 } };

const struct pcost_workload pcost_wl_null = {
	.name = "null",
	.summary = "does nothing: harness and monitor start-up cost",
	.unit = "none",
	.size_key = NULL,
	.params = null_params,
	.run = null_run,
};
