/* SPDX-License-Identifier: MIT */
/*
 * run/figure_values: the figures of each run besides its times, into its sample:
 * the --metric values parsed from what the command printed (metric.h) and the
 * facts a built-in workload reports (server: throughput, p99_us); and the
 * session's list of them (session->metrics).  stats/figures.h analyses them.
 *
 * Use (cmd-run, then the runner after each run):
 *   pcost_figures_declare_set(&session, &set);        the --metric set, in order
 *   pcost_figures_declare_workload(&session, wl, args); per built-in workload added
 *   pcost_figures_extract(&session, &set, out, outlen, report, &sample);
 */
#ifndef PCOST_RUN_FIGURES_H
#define PCOST_RUN_FIGURES_H

#include <stddef.h>

#include "core/result.h"

struct pcost_metric_set;
struct pcost_workload;

/* How many metrics set has (0 for NULL). */
size_t pcost_figures_set_size(const struct pcost_metric_set *set);
/* Each metric of set (NULL: none) becomes a figure of s, in order. */
void pcost_figures_declare_set(struct pcost_session *s, const struct pcost_metric_set *set);
/*
 * The figures of a built-in workload's table (none when it has none), each once;
 * one with a `when` parameter only when args (its "k=v k=v" list) gives it.
 */
void pcost_figures_declare_workload(struct pcost_session *s, const struct pcost_workload *wl,
				    const char *args);

/*
 * After one run: smp->metrics gets one value per figure of s (NaN where the
 * run gave none): set's metrics from out[0..outlen) (NULL: not captured), the
 * workload's facts from its report line (NULL or "": none).  A run that
 * failed gets no values.  A required metric that is not in the output, or a
 * value whose unit does not convert to the figure's: the sample fails, its
 * reason naming the metric and the output's last lines.  The first value of a
 * figure without a declared unit or direction sets them.
 */
void pcost_figures_extract(struct pcost_session *s, const struct pcost_metric_set *set,
			   const char *out, size_t outlen, const char *report,
			   struct pcost_run_sample *smp);

/*
 * Did required metric i of set match in no measured run of s?  true + why:
 * "metric 'tps' matched in no run: <a failed run's reason: its last lines>".
 */
bool pcost_figures_unmatched(const struct pcost_session *s, const struct pcost_metric_set *set,
			     size_t i, char *why, size_t len);

#endif
