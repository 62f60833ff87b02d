// SPDX-License-Identifier: MIT
/* cmd/cmd-run-count: `probecost run --count -- COMMAND`: count its events once and print them. */
#include "cmd/cmd-run-count.h"

#include <errno.h>
#include <stdio.h>

#include "core/cleanup.h"
#include "core/util.h"
#include "report/counts.h"
#include "run/count_hits.h"

int pcost_run_count(char **command, uint64_t cpu_mask, double timeout_s, enum pcost_format f)
{
	struct pcost_evcount_opts o = {
		.cpu_mask = cpu_mask, .timeout_s = timeout_s, .out_fd = -1, .err_fd = 2
	};
	struct pcost_evcount c;
	char err[512] = "", changed[256];
	int rc;

	if (f != PCOST_FMT_TEXT && f != PCOST_FMT_JSON && f != PCOST_FMT_CSV)
		return usage_error("--count prints text, json or csv, not %s",
				   pcost_format_name(f));
	rc = pcost_count_hits(command, &o, &c, changed, sizeof(changed), err, sizeof(err));
	if (rc < 0 && rc != -EINTR) {
		pcost_evcount_release(&c);
		error("%s", err);
		return PCOST_EXIT_FAIL;
	}
	pcost_report_evcount(&c, f, stdout);
	fflush(stdout);
	if (rc == -EINTR) {
		pcost_evcount_release(&c);
		return 128 + (pcost_interrupted ? pcost_interrupted : 2);
	}
	if (changed[0]) {
		error("'%s' ran differently with its probes armed (%s) than without (%s): the hits "
		      "are those of a changed program",
		      command[0], changed, c.fail[0] ? c.fail : "exit 0");
		rc = PCOST_EXIT_FAIL;
	} else if (c.fail[0]) {
		error("'%s' failed in the counting run (%s): its counts are printed all the same",
		      command[0], c.fail);
		rc = PCOST_EXIT_FAIL;
	}
	pcost_evcount_release(&c);
	return rc;
}
