/* SPDX-License-Identifier: MIT */
/*
 * rerun: where a rerun of the same study on this machine would land.
 *
 * A session's own interval counts its runs' sampling only; two identical
 * studies minutes apart disagree by more (bench/results/compare-level.md).  The
 * runner splits the measured blocks into k sub-sessions, each a fresh,
 * time-separated launch (run/runner.c; options "subsessions" holds the first
 * block of each).  Each sub-session gives its own estimate Y_j of a figure; their
 * sd s_B counts the runs' sampling and the part of the machine's level between
 * sessions that the sub-sessions draw again.  A rerun of the same design lands in
 * Y +- t_(k-1) s_B sqrt(2/k) (the difference of two means of k sub-sessions),
 * Y the session's own estimate; ratios on the log scale, log(1 + change).
 */
#ifndef PCOST_STATS_RERUN_H
#define PCOST_STATS_RERUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

/* Fewer usable sub-sessions (4 df) and the rerun interval is not measured. */
#define PCOST_RERUN_MIN_SUBS 5
/* Sub-sessions a study is split into: at most, and the blocks one is given at least. */
#define PCOST_RERUN_MAX_SUBS 10
#define PCOST_RERUN_SUB_BLOCKS 4

/* Options key of the sub-sessions' first blocks (an array of block numbers). */
#define PCOST_RERUN_OPTION "subsessions"

/*
 * The first block of each of s's sub-sessions, ascending, into *first (malloc'd,
 * caller frees; NULL where none); how many (0: the session was not split).
 */
size_t pcost_rerun_subsessions(const struct pcost_session *s, uint32_t **first);

/*
 * The rerun interval of a figure from n pairs (x[i] with, y[i] without the
 * monitor, in block blocks[i]) grouped into the k sub-sessions that start at
 * first[]: ratio: est is mean(x)/mean(y) - 1 and the interval is of that,
 * from each sub-session's log(mean x / mean y); otherwise est is mean(x - y) and
 * the interval is of that, from each sub-session's mean difference; conf its
 * confidence.  *se (may be NULL): s_B / sqrt(k), the standard error of the
 * session's estimate over its sub-sessions (log scale for a ratio), with k - 1 df.
 * *lo, *hi, *se NAN and *used the usable sub-sessions (those with a pair) where
 * fewer than PCOST_RERUN_MIN_SUBS are; false then.
 */
bool pcost_rerun_ci(const uint32_t *first, size_t k, const double *x, const double *y,
		    const uint32_t *blocks, size_t n, bool ratio, double est, double conf,
		    double *lo, double *hi, double *se, size_t *used);

/*
 * The rerun interval of a ratio est (its log-scale standard error se over subs
 * sub-sessions) widened by the level between sessions the store measured, level
 * (the sd of log(1 + est) beyond each session's own noise): est's interval with
 * t_(subs-1) x sqrt(2 se^2 + 2 level^2), on *lo, *hi.  The sub-sessions see only
 * the part of that level they draw again, so the store's counts it whole; nothing
 * is written where either is not finite.
 */
void pcost_rerun_widen(double est, double se, size_t subs, double level, double conf, double *lo,
		       double *hi);

/*
 * How far a rerun interval reaches at least, in units of the session's own interval,
 * each side.  A rerun differs from this session's estimate by two samplings (sqrt 2)
 * and by the machine's level between launches, of which a study's sub-sessions, all
 * within its own minute, draw only a part again: sqrt(2 x own^2 + 2 x level^2) with the
 * level 1.46 x the sampling is 2.5.  Scored over 80 default studies (four sets of 20,
 * quiet and under load, bench/results/rerun.md), the sub-sessions with a floor of
 * sqrt 2 held 0.82-0.96 of later studies, with 2.5 0.88-1.00, at a median width 2.5
 * times the session interval's (the target allows 3).
 */
#define PCOST_RERUN_FLOOR 2.5

/*
 * A rerun carries its own runs' sampling and the level between launches: *lo and *hi
 * (a rerun interval) are taken at least PCOST_RERUN_FLOOR times as far from est, each
 * side, as the session's own interval [own_lo, own_hi] ends (on the log(1 + x) scale
 * for a ratio; each side its own distance, so a skewed interval stays skewed), where
 * the sub-sessions' s_B saw less spread: a study whose few sub-sessions happened to
 * agree.  Nothing is changed where any is not finite.
 */
void pcost_rerun_floor(double est, double own_lo, double own_hi, bool ratio, double *lo,
		       double *hi);

/*
 * The same floor for the change between two measured sessions a and b (b - a, on the
 * scale of their arms): *down and *up, the change's arms (each at least h, the
 * sub-sessions' t x sqrt(se_a^2 + se_b^2)), are taken at least PCOST_RERUN_FLOOR /
 * sqrt(2) times the sessions' own arms in quadrature, each side its own: b's lower
 * and a's upper arm below, b's upper and a's lower above.  Each session carries its
 * own sampling and its own draw of the level, so two sessions of equal own arms r
 * differ by up to 2.5 r, as a rerun lands from one session.  A NAN or negative arm
 * counts as 0.
 */
void pcost_rerun_change_floor(double h, double a_down, double a_up, double b_down, double b_up,
			      double *down, double *up);

#endif
