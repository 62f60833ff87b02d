// SPDX-License-Identifier: MIT
/*
 * lttng_tp: the LTTng-UST probes of lttng_tp.h, and the uprobe workload's
 * lttng target; linked into build/lttng/pcost-lttng.so only.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "workloads/stanford/lttng_tp.h"

/* A function whose body is one tracepoint: what the uprobe workload calls for lttng. */
void pcost_lttng_hit(void);
void pcost_lttng_hit(void)
{
	lttng_ust_tracepoint(pcost_stanford, hit);
}
