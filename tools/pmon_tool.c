#define _GNU_SOURCE
/*
 * pmon - list, encode and locate SNB-EP uncore and offcore-response events.
 *
 *   pmon [--help | --version]
 *   pmon list [--json] [PATTERN]    events (and umasks) per PMU
 *   pmon list --metrics [--json] [PATTERN]   derived metrics (stat_out.c)
 *   pmon stat [options] -- COMMAND  count metrics and events while COMMAND
 *                                   runs (stat.c; its row has no run: it
 *                                   parses its own options)
 *   pmon encode [--json] EVENT...   event= box= ctl= filter= counters= per event
 *   pmon info [--json]              backend, CPU, sockets, boxes and their registers
 *   pmon reset [--socket N] [--all [--force]]
 *                                   put the registers back after a crashed count
 *
 * list and encode need no hardware access; info opens the machine
 * ($PMON_BACKEND, e.g. PMON_BACKEND=sim).  --json writes one JSON document
 * (jansson) instead of the text.
 *
 * This file is the command line: the commands[] table, usage and option
 * parsing.  The subcommands live beside it: cmd_list.c, cmd_encode.c,
 * cmd_info.c (info and reset), stat.c and stat_out.c; tool.h is what they
 * share.
 *
 * Subcommands are rows of the commands[] table: a name, its synopsis, a
 * one-line summary, which options it takes, how many operands, and the
 * function that runs it with its operands.  Within a command, options and
 * operands come in any order (GNU style); "--" ends the options.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"
#include "tool.h"

struct command {
	const char *name, *synopsis, *summary;
	int takes_json, takes_socket;
	int min_operands, max_operands;   /* max -1: no limit */
	const char *operands;             /* what it takes, for the usage errors */
	int (*run)(int argc, char **argv, const struct opts *o);
	const char *detail;               /* more for pmon COMMAND --help, or NULL */
};

/* -------------------------------------------------------------------- main */

static const struct command commands[] = {
	{ "list", "[--json] [--metrics] [PATTERN]", "events, umasks and modifiers per PMU; "
	  "--metrics: the derived metrics", 1, 0, 0, 1, "one PATTERN at most", cmd_list, NULL },
	{ "stat", "[options] [--] COMMAND [ARGS]", "run COMMAND and count uncore metrics (-M) and "
	  "events (-e) meanwhile; pmon stat --help", 0, 0, 1, -1, "a COMMAND", NULL, NULL },
	{ "encode", "[--json] EVENT...", "control and filter values, counters of each event", 1, 0,
	  1, -1, "at least one EVENT", cmd_encode, NULL },
	{ "info", "[--json]", "backend, CPU, sockets, boxes with their MSRs / PCI addresses", 1, 0,
	  0, 0, "no operand", cmd_info, NULL },
	{ "reset", "[--socket N] [--all] [--force]", "put back the registers a crashed count left "
	  "programmed (from its journal); refused while a process counts there", 0, 1,
	  0, 0, "no operand (--socket N chooses one socket)", cmd_reset,
	  "reset restores from the journals in the run directory ($PMON_RUN_DIR, default\n"
	  "  /run/pmon; one file per socket, socketN.journal, written before pmon changes a\n"
	  "  register).  Every line is checked first (its sum, box, CPU, register in the PMON\n"
	  "  set, writable bits): a bad line is named, skipped and removed.  A register that\n"
	  "  holds what pmon wrote gets its original value back; one that holds something else\n"
	  "  is another agent's and is left (--force writes it).  Without a journal nothing is\n"
	  "  written.  --all also sets the PMON controls, fixed controls, filters and box\n"
	  "  controls of every uncore box the journal does not name to their power-on value 0,\n"
	  "  but leaves a box with an enabled control (another agent counting; --force clears\n"
	  "  it too); the core PMU is never cleared so.  Refused, writing nothing, while a\n"
	  "  process counts on the socket.  Exit status 1 when a register stayed changed, a\n"
	  "  journal line was skipped, or reset was refused." },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: pmon [--help | --version]\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "       pmon %s %s\n", commands[i].name, commands[i].synopsis);
	fprintf(f, "\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\noptions (after the command, before or after its operands; -- ends them):\n"
		   "  -j, --json      write one JSON document instead of the text (list, encode, info)\n"
		   "  -s, --socket N  only socket N (reset)\n"
		   "  -m, --metrics   list the derived metrics: formula, unit, guide line (list)\n"
		   "      --all       also clear the PMON registers pmon has no record of (reset)\n"
		   "      --force     with reset: write registers another agent holds too\n"
		   "  -h, --help      this text; pmon COMMAND --help describes one command\n"
		   "  -V, --version   the version (before any command)\n"
		   "\nPATTERN is a shell glob matched against PMU::EVENT (case-insensitive);\n"
		   "a plain word matches any name containing it.  man pmon has the rest.\n");
}

static void command_usage(FILE *f, const struct command *c)
{
	fprintf(f, "usage: pmon %s %s\n  %s\n", c->name, c->synopsis, c->summary);
	if (c->detail)
		fprintf(f, "\n  %s\n", c->detail);
}

/* A usage error of command c: one line saying what is wrong, then the
 * command's usage, on stderr; returns the exit status 2. */
static int usage_error(const struct command *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int usage_error(const struct command *c, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "pmon %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	command_usage(stderr, c);
	return 2;
}

/* The commands that take an option, as "list, encode and info". */
static void takers(int socket, char *buf, size_t len)
{
	size_t n = 0, k = 0, total = 0;
	for (size_t i = 0; i < NCOMMANDS; i++)
		total += socket ? commands[i].takes_socket : commands[i].takes_json;
	buf[0] = 0;
	for (size_t i = 0; i < NCOMMANDS && n < len; i++) {
		if (!(socket ? commands[i].takes_socket : commands[i].takes_json))
			continue;
		k++;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", k == 1 ? "" : k == total ? " and " : ", ",
				      commands[i].name);
	}
}

/*
 * Parse a subcommand's options (argv[0] is its name) and run it.  Options
 * and operands come in any order (GNU style; "-" makes getopt_long hand back
 * each operand in place, whatever POSIXLY_CORRECT says); "--" ends the
 * options.  Every usage error says what is wrong in one line.
 */
static int run_command(const struct command *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "socket", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'A' },
		{ "force", no_argument, NULL, 'F' },
		{ "metrics", no_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { 0, -1, 0, 0 };
	char *end, prog[64], who[64];
	int ch, nops = 0, rc;
	char **ops = calloc((size_t)argc + 1, sizeof(*ops));
	if (!ops) {
		fprintf(stderr, "pmon: out of memory\n");
		return 1;
	}
	snprintf(prog, sizeof(prog), "pmon %s", c->name);
	argv[0] = prog;                   /* getopt's messages name "pmon list" */
	optind = 0;                       /* a fresh scan of the command's own argv */
	while ((ch = getopt_long(argc, argv, "-jhs:m", longopts, NULL)) != -1) {
		switch (ch) {
		case 1:                   /* an operand, in its place */
			ops[nops++] = optarg;
			break;
		case 's': {
			long v;
			if (!c->takes_socket) {
				takers(1, who, sizeof(who));
				rc = usage_error(c, "--socket is an option of %s only", who);
				goto out;
			}
			errno = 0;
			v = strtol(optarg, &end, 10);
			if (*end || end == optarg || errno || v < 0 || v > INT_MAX) {
				rc = usage_error(c, "--socket '%s' is not a socket number (0, 1, ...)", optarg);
				goto out;
			}
			o.socket = (int)v;
			break;
		}
		case 'A':
		case 'F':
			if (strcmp(c->name, "reset")) {
				rc = usage_error(c, "--%s is an option of reset only", ch == 'A' ? "all" : "force");
				goto out;
			}
			o.reset |= ch == 'A' ? PMON_RESET_ALL : PMON_RESET_FORCE;
			break;
		case 'j':
			if (!c->takes_json) {
				takers(0, who, sizeof(who));
				rc = usage_error(c, "--json is an option of %s only", who);
				goto out;
			}
			o.json = 1;
			break;
		case 'm':
			if (c->run != cmd_list) {
				rc = usage_error(c, "--metrics is an option of list only");
				goto out;
			}
			o.metrics = 1;
			break;
		case 'h':
			command_usage(stdout, c);
			rc = 0;
			goto out;
		default:                  /* getopt_long said which option and why */
			command_usage(stderr, c);
			rc = 2;
			goto out;
		}
	}
	while (optind < argc)             /* after "--" */
		ops[nops++] = argv[optind++];
	if (nops < c->min_operands)
		rc = usage_error(c, "give %s", c->operands);
	else if (c->max_operands >= 0 && nops > c->max_operands)
		rc = usage_error(c, "unexpected operand '%s': %s takes %s", ops[c->max_operands],
				 c->name, c->operands);
	else
		rc = c->run(nops, ops, &o);
out:
	free(ops);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int ch;
	argv[0] = "pmon";                 /* getopt's messages start "pmon:" like the others */
	while ((ch = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("pmon %s\n", PMON_VERSION_STRING);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "pmon: no command given\n");
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[optind], "help")) {
		usage(stdout);
		return 0;
	}
	const struct command *c = find_command(argv[optind]);
	if (!c) {
		fprintf(stderr, "pmon: unknown command '%s'\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (!c->run)                      /* stat: options of its own */
		return stat_main(argc - optind, argv + optind);
	return run_command(c, argc - optind, argv + optind);
}
