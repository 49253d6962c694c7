/* tool.h - what the parts of the pmon program share: the options a
 * subcommand is parsed with (pmon_tool.c), the subcommands (cmd_list.c,
 * cmd_encode.c, cmd_info.c; stat.h has pmon stat) and the output helpers
 * (tool_out.c). */
#ifndef PMON_TOOL_H
#define PMON_TOOL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "pmon/pmon.h"

/* Options every subcommand is parsed with. */
struct opts {
	int json;
	int socket;               /* --socket N, -1 when not given */
	unsigned reset;           /* reset: --all, --force (PMON_RESET_*) */
	int metrics;              /* list --metrics */
};

/* The subcommands: run with their operands (argv[0] the first). */
int cmd_list(int argc, char **argv, const struct opts *o);
int cmd_encode(int argc, char **argv, const struct opts *o);
int cmd_info(int argc, char **argv, const struct opts *o);
int cmd_reset(int argc, char **argv, const struct opts *o);

/* tool_out.c */
/* Print a JSON document on stdout and free it; 1 if it could not be built. */
int emit_json(json_t *doc);
json_t *hex(uint64_t v);
/* Does name match the PATTERN operand (a glob, or a word it contains)? */
int matches(const char *pattern, const char *name);
/* A counter mask as "0-3", or "fixed". */
void counters_text(uint32_t mask, int fixed, char *buf, size_t len);
json_t *counters_json(uint32_t mask, int fixed);

#endif
