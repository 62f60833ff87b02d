/* SPDX-License-Identifier: MIT */
/*
 * src/cmd/: the command line.  One file per subcommand, cmd-NAME.c with
 * cmd_NAME(argc, argv), that parses its options, calls the code of the other
 * folders and prints; each describes its options as one table that
 * parse-options.c parses (cmd-options.c: the store commands' --db, --format,
 * session IDs).  Only code here picks exit
 * codes (0 success, 1 runtime failure, 2 bad usage or input).
 *
 * cmd: one function per subcommand, int cmd_NAME(int argc, char **argv); argv[0] is NAME.
 */
#ifndef PCOST_CMD_H
#define PCOST_CMD_H

struct pcost_command {
	const char *name;
	int (*fn)(int argc, char **argv); /* returns an exit code (0, 1, 2); < 0 means 1 */
	const char *summary;
};

int cmd_run(int argc, char **argv);
int cmd_counters(int argc, char **argv);
int cmd_probes(int argc, char **argv);
int cmd_workload(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_env(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_costs(int argc, char **argv);
int cmd_predict(int argc, char **argv);

#endif
