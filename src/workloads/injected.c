// SPDX-License-Identifier: MIT
/* injected: the inject monitor's costs as one run draws them (injected.h). */
#include "workloads/injected.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "core/util.h"
#include "stats/stats.h"

static uint64_t env_u64(const char *key)
{
	const char *v = getenv(key);
	uint64_t n;

	return v && pcost_parse_u64(v, 0, 10000000000ULL, &n) == 0 ? n : 0;
}

static double env_double(const char *key, double max)
{
	const char *v = getenv(key);
	double d;

	return v && pcost_parse_double(v, 0, max, &d) == 0 ? d : 0;
}

/* Uniform in (0, 1): 53 random bits, never 0 (for the logarithm). */
static double uniform(uint64_t *rng)
{
	return ((double)(pcost_rand_next(rng) >> 11) + 0.5) / 9007199254740992.0;
}

/* A standard normal deviate (Box-Muller). */
static double normal(uint64_t *rng)
{
	double u = uniform(rng), v = uniform(rng);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

void pcost_wl_injected_draw(struct pcost_wl_injected *j)
{
	const char *dist = getenv("PCOST_INJECT_DIST");
	double cov = env_double("PCOST_INJECT_COV", 10), p = env_double("PCOST_INJECT_HICCUP", 1);
	uint64_t rng;

	/* Each run its own draw: the runs of a study are independent. */
	if (getrandom(&rng, sizeof(rng), 0) != sizeof(rng))
		rng = (uint64_t)time(NULL) ^ (uint64_t)pcost_now_ns();
	memset(j, 0, sizeof(*j));
	j->factor = 1;
	if (dist && !strcmp(dist, "normal") && cov > 0) {
		j->factor = fmax(0, 1 + cov * normal(&rng)); /* cut at 0: no negative cost */
	} else if (dist && !strcmp(dist, "lognormal") && cov > 0) {
		double s2 = log1p(cov * cov); /* mean 1: exp(mu + s2 / 2) = 1 */

		j->factor = exp(sqrt(s2) * normal(&rng) - s2 / 2);
	}
	j->event_ns = (uint64_t)llround((double)env_u64("PCOST_INJECT_EVENT_NS") * j->factor);
	j->fixed_ns = (uint64_t)llround((double)env_u64("PCOST_INJECT_FIXED_NS") * j->factor);
	if (p > 0 && uniform(&rng) < p)
		j->hiccup_ns = env_u64("PCOST_INJECT_HICCUP_NS");
}

bool pcost_wl_injected_any(const struct pcost_wl_injected *j)
{
	return j->event_ns || j->fixed_ns || j->hiccup_ns;
}
