/* SPDX-License-Identifier: MIT */
/*
 * lttng_tp: the LTTng-UST tracepoint provider of the stanford kernels' lttng
 * build (provider pcost_stanford, one event per kernel, two integer fields,
 * as the SDT probes of the other builds) and of the uprobe workload's lttng
 * target (pcost_uprobe:hit).  Built only into the shared object
 * build/lttng/pcost-lttng.so (mk/probes.mk), which the workloads dlopen, so
 * liblttng-ust never loads into probecost itself.  The usual provider-header
 * layout of lttng-ust(3): included again by lttng/tracepoint-event.h.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER pcost_stanford

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "workloads/stanford/lttng_tp.h"

#if !defined(PCOST_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define PCOST_LTTNG_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT_CLASS(pcost_stanford, site, LTTNG_UST_TP_ARGS(long, a, long, b),
				 LTTNG_UST_TP_FIELDS(lttng_ust_field_integer(long, a, a)
							     lttng_ust_field_integer(long, b, b)))

#define PCOST_LTTNG_EVENT(name)                                                                    \
	LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(pcost_stanford, site, pcost_stanford, name,            \
					    LTTNG_UST_TP_ARGS(long, a, long, b))
PCOST_LTTNG_EVENT(perm)
PCOST_LTTNG_EVENT(towers)
PCOST_LTTNG_EVENT(queens)
PCOST_LTTNG_EVENT(intmm)
PCOST_LTTNG_EVENT(puzzle)
PCOST_LTTNG_EVENT(quick)
PCOST_LTTNG_EVENT(bubble)
PCOST_LTTNG_EVENT(tree)
PCOST_LTTNG_EVENT(fft)
/* The uprobe workload's target: an event without fields. */
LTTNG_UST_TRACEPOINT_EVENT(pcost_stanford, hit, LTTNG_UST_TP_ARGS(), LTTNG_UST_TP_FIELDS())

#endif

#include <lttng/tracepoint-event.h>
