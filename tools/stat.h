/* stat.h - `pmon stat` (stat.c: options, the command and the counting
 * loop; stat_out.c: text, CSV, JSON and SVG output, `pmon list --metrics`). */
#ifndef PMON_TOOL_STAT_H
#define PMON_TOOL_STAT_H

#include <stdio.h>

#include <jansson.h>

#include "pmon/pmon.h"
#include "pmon/metric.h"

enum stat_aggr { AGGR_SOCKET = 0, AGGR_MACHINE, AGGR_BOX };

struct stat_opts {
	const char **events, **metrics;   /* as given, split at commas */
	int nevents, nmetrics;
	int aggr;                 /* enum stat_aggr */
	long interval_ms;         /* -I, 0: none */
	const char *sep;          /* -x, NULL: text */
	int json;
	const char *out_path, *svg_path;
	char **cmd;
	char *bufs[64];           /* the split copies of -e and -M values */
	int nbufs;
};

struct stat_ctx {
	const struct stat_opts *o;
	pmon_machine_t *m;
	pmon_mset_t *set;
	FILE *out;
	json_t *doc, *intervals;  /* --json */
	double mtime;             /* machine seconds at the end of the last interval */
	int nsock;
	/* --svg: per sample its machine time and each item's value per socket */
	int nsamples, cap;
	double *svg_t, *svg_v;
};

/* The outcome of the command. */
struct stat_status {
	int exited, code;         /* exited: code is its exit status */
	int signaled, sig;        /* killed by signal sig */
	int waited;               /* 0: still running, not waited for */
	int interrupted;          /* pmon stat got SIGINT/SIGTERM/SIGHUP */
	double wall;              /* wall-clock seconds */
};

int stat_main(int argc, char **argv);
int stat_list_metrics(const char *pattern, int json);

/* stat_out.c */
int stat_out_begin(struct stat_ctx *c);
void stat_out_interval(struct stat_ctx *c);
int stat_out_end(struct stat_ctx *c, const struct stat_status *st);
void stat_out_free(struct stat_ctx *c);

#endif
