/*
 * vsuite.h - what the short suite's test programs share (test_vsuite: the
 * quick suite and its options; test_vshapes: machine shapes; test_vbreak:
 * the breakage runs): pmon-validate --quick run with given arguments, its
 * report loaded, and look-ups into the report.  The three run at once
 * (make check runs independent programs in parallel), each with its own
 * report directories under $PMON_VALIDATE_OUT.
 */
#ifndef PMON_VSUITE_H
#define PMON_VSUITE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "check.h"
#include "vtest.h"

/* A small machine: 4 cores, 2 MiB LLC, 16 KiB L1, 64 KiB L2 (the chase's
 * levels stay apart), two sockets, four channels. */
#define QSHAPE "cores=4,llc=2M,l1=16K,l2=64K"
/* The same machine with a quarter of the LLC (512 KiB), and DGEMM's sizes
 * halved to match (n = 128 is 0.75 x LLC there, as n = 256 is on QSHAPE):
 * for the runs whose point is not the cache sizes (the breakages, the
 * same-seed pair, placement), at about 40% of QSHAPE's CPU time.  The
 * quick suite itself stays on QSHAPE: there the chase's prefetch bound
 * (chase_pf_line_hi) is below 3 lines a hop; on 512 KiB it is 6. */
#define SSHAPE "cores=4,llc=512K,l1=16K,l2=64K"
#define SDGEMM "--dgemm=64,128"
/* The shapes that check conflict-set derivations and tiny caches count
 * demand traffic: the prefetchers (on by default) off there. */
#define PF_OFF "prefetch=off"

/* The program ($PMON_VALIDATE), where reports go ($PMON_VALIDATE_OUT), the
 * test's name. */
static const char *prog, *outdir, *tag;

/* Run the quick suite with args, reports in outdir/sub, stdout in
 * outdir/sub.out (its text, malloc'd, in *text when text is not NULL).
 * Exit status or -1. */
static inline int run_out(const char *sub, const char *const *args, char **text)
{
	/* STREAM's arrays twice the LLC, not the default 4 times: each still
	 * exceeds the LLC and is written back before each window; the same
	 * checks, their expected counts computed from the arrays' size, at
	 * about 60% of the CPU time of a STREAM run (make check's time) */
	static const char *const pre[] = { "--quick", "--stream-mult=2", NULL };
	return vtest_run(prog, outdir, tag, sub, pre, args, text);
}

static inline int run(const char *sub, const char *const *args)
{
	return run_out(sub, args, NULL);
}

static inline json_t *load(const char *sub)
{
	return vtest_load(outdir, sub);
}

static inline const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static inline int prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static inline double num(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* Checks whose kernel starts with kprefix. */
static inline size_t count_kernel(json_t *checks, const char *kprefix)
{
	size_t i, n = 0;
	json_t *c;
	json_array_foreach(checks, i, c)
		n += prefix(str(c, "kernel"), kprefix);
	return n;
}

/* The check kernel/event, or NULL. */
static inline json_t *find_check(json_t *j, const char *kernel, const char *event)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c)
		if (strcmp(str(c, "kernel"), kernel) == 0 && strcmp(str(c, "event"), event) == 0)
			return c;
	return NULL;
}

/* Skips whose text holds all of a, b (and c if given). */
static inline size_t count_skips(json_t *j, const char *a, const char *b, const char *c)
{
	size_t i, n = 0;
	json_t *s;
	json_array_foreach(json_object_get(j, "skipped"), i, s) {
		const char *t = json_string_value(s);
		n += t && strstr(t, a) && strstr(t, b) && (!c || strstr(t, c));
	}
	return n;
}

/* main's start: the environment read and the output directory made; 0, or
 * -1 (a failed check) when the environment lacks them. */
static inline int vsuite_init(const char *name)
{
	char cmd[4200];
	tag = name;
	prog = getenv("PMON_VALIDATE");
	outdir = getenv("PMON_VALIDATE_OUT");
	if (!prog || !outdir) {
		fprintf(stderr, "%s: set PMON_VALIDATE (the program) and PMON_VALIDATE_OUT\n", name);
		CHECK(0, "environment");
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", outdir);
	CHECK(system(cmd) == 0, "mkdir %s", outdir);
	return 0;
}

#endif
