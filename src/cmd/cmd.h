/* SPDX-License-Identifier: MIT */
/* cmd: one function per subcommand, int cmd_NAME(int argc, char **argv); argv[0] is NAME. */
#ifndef PCOST_CMD_H
#define PCOST_CMD_H

struct pcost_command {
	const char *name;
	int (*fn)(int argc, char **argv); /* returns an exit code (0, 1, 2); < 0 means 1 */
	const char *summary;
};

/*
 * A command not built into this tree is a weak NULL symbol: main() skips rows
 * whose fn is NULL, so areas land one at a time.
 */
#define PCOST_CMD(name) int cmd_##name(int argc, char **argv) __attribute__((weak))
PCOST_CMD(run);
PCOST_CMD(counters);
PCOST_CMD(probes);
PCOST_CMD(workload);
PCOST_CMD(list);
PCOST_CMD(env);
PCOST_CMD(history);
PCOST_CMD(show);
PCOST_CMD(compare);
PCOST_CMD(report);
PCOST_CMD(export);
PCOST_CMD(import);

#endif
