/* SPDX-License-Identifier: MIT */
/*
 * injected: the inject monitor's known costs (monitors/inject.c) as one run of
 * a workload draws them from its environment:
 *   PCOST_INJECT_EVENT_NS, PCOST_INJECT_FIXED_NS   the mean cost per event and once
 *   PCOST_INJECT_DIST=const|normal|lognormal      how the run's cost varies
 *   PCOST_INJECT_COV=C                            ... its coefficient of variation
 *   PCOST_INJECT_HICCUP=P, PCOST_INJECT_HICCUP_NS=H  with probability P the run
 *                                                 spins H ns more once, mid-run
 * A run draws one factor (mean 1, CoV C) that scales both its costs: a monitor
 * whose cost varies from run to run (a buffer flush, a map resize).
 */
#ifndef PCOST_WL_INJECTED_H
#define PCOST_WL_INJECTED_H

#include <stdbool.h>
#include <stdint.h>

struct pcost_wl_injected {
	uint64_t event_ns;  /* this run's spin per event (the mean x factor) */
	uint64_t fixed_ns;  /* this run's spin once before the timed region */
	uint64_t hiccup_ns; /* this run's hiccup, 0 when it drew none */
	double factor;	    /* the factor drawn (1 for const) */
};

/* Fill *j for this run from the environment (random draws from getrandom). */
void pcost_wl_injected_draw(struct pcost_wl_injected *j);

/* Is any cost injected? */
bool pcost_wl_injected_any(const struct pcost_wl_injected *j);

#endif
