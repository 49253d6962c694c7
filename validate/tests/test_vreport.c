/*
 * test_vreport.c - the runner's own pieces, without running kernels:
 *   - a check's event list is kept whole at any length and reaches the JSON
 *     report whole (a TOR latency check of an 8-core socket names 16 events,
 *     about 1000 characters);
 *   - the table keeps its columns aligned when a value is very large (the
 *     wrap breakage's 7036867706881 per hop);
 *   - the backend comes from --backend, else $PMON_BACKEND, else auto, and a
 *     bad value is refused naming it and the valid ones;
 *   - shape screening: load= and noise= accepted, clock= forced to wall
 *     with a note, other keys kept.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "../report.h"
#include "../vrun.h"

static pmon_sim_t *sim;

/* A context on the default emulated machine (report_json names it). */
static struct vctx *ctx(void)
{
	struct pmon_sim_shape sh;
	char why[256];
	struct vctx *c = calloc(1, sizeof(*c));
	if (!c || pmon_sim_shape_parse("", &sh, why, sizeof(why)) != 0)
		return NULL;
	sim = pmon_sim_create(&sh);
	if (!sim)
		return NULL;
	pmon_sim_set_current(sim);
	if (pmon_machine_open(&c->m, "sim", why, sizeof(why)) != 0) {
		fprintf(stderr, "open sim: %s\n", why);
		return NULL;
	}
	c->sim = sim;
	c->o.outdir = "unused";
	return c;
}

static void ctx_free(struct vctx *c)
{
	pmon_machine_close(c->m);
	pmon_sim_set_current(NULL);
	pmon_sim_destroy(c->sim);
	vchecks_free(&c->checks);
	free(c);
}

static void test_events_whole(void)
{
	struct vctx *c = ctx();
	CHECK(c != NULL, "context on the emulated machine");
	if (!c)
		return;
	struct vevents e;
	int num[8], den[8];
	char want[4096] = "";
	memset(&e, 0, sizeof(e));
	e.m = c->m;
	/* Occupancy of the 8 CBos, then their inserts: the quotient's list. */
	for (int i = 0; i < 16; i++) {
		snprintf(e.name[i], sizeof(e.name[i]), "snbep_unc_cbo%d::UNC_C_TOR_%s:MISS_OPCODE:OPC_DRD:socket=0",
			 i % 8, i < 8 ? "OCCUPANCY" : "INSERTS");
		e.val[i] = i < 8 ? 1000 : 10;
		if (i < 8)
			num[i] = i;
		else
			den[i - 8] = i;
	}
	e.n = 16;
	for (int i = 0; i < 16; i++) {
		strcat(want, i ? ";" : "");
		strcat(want, e.name[i]);
	}
	CHECK(strlen(want) > 1000, "the list is long: %zu characters", strlen(want));
	struct vcheck *k = vcheck_quot(c, &e, "chase-line-mem", "TOR latency", "cycles", num, den, 8,
				       100, (struct vband){ 0.9, 1.1, "test" });
	CHECK(k != NULL, "check made");
	if (k) {
		CHECK(k->events && strcmp(k->events, want) == 0, "check keeps the whole list (%zu of %zu)",
		      k->events ? strlen(k->events) : 0, strlen(want));
		CHECK(k->pass, "1000/10 against 100 passes");
	}
	char path[256], why[256];
	snprintf(path, sizeof(path), "/tmp/test_vreport-%ld.json", (long)getpid());
	CHECK_EQ_INT(report_json(path, c, 1.0, why, sizeof(why)), 0, "report_json");
	json_error_t err;
	json_t *j = json_load_file(path, 0, &err);
	unlink(path);
	CHECK(j != NULL, "report parses");
	if (j) {
		json_t *ck = json_array_get(json_object_get(j, "checks"), 0);
		const char *ev = json_string_value(json_object_get(ck, "events"));
		CHECK(ev && strcmp(ev, want) == 0, "JSON events whole: %zu of %zu characters",
		      ev ? strlen(ev) : 0, strlen(want));
		CHECK(json_is_array(json_object_get(j, "notes")), "JSON has notes");
		json_decref(j);
	}
	/* The helper itself: any count, joined by ';', none is "". */
	struct vcheck z = { 0 };
	const char *names[] = { "a", "bc", "def" };
	CHECK(vcheck_set_events(&z, names, 3) == 0 && strcmp(z.events, "a;bc;def") == 0, "a;bc;def");
	CHECK(vcheck_set_events(&z, names, 0) == 0 && strcmp(z.events, "") == 0, "empty list");
	free(z.events);
	ctx_free(c);
}

/* Display column of the first occurrence of s in line (UTF-8 aware), -1. */
static int col_of(const char *line, const char *s)
{
	const char *p = strstr(line, s);
	if (!p)
		return -1;
	int col = 0;
	for (const char *q = line; q < p; q++)
		col += ((unsigned char)*q & 0xc0) != 0x80;
	return col;
}

static void test_table_aligned(void)
{
	struct vctx *c = calloc(1, sizeof(*c));
	CHECK(c != NULL, "context");
	if (!c)
		return;
	vcheck_rel(&c->checks, "chase-line-mem", "LLC_LOOKUP.DATA_READ s0 all CBo", "per hop", 1,
		   7036867706881.0, 0.875, 1, "t");
	vcheck_rel(&c->checks, "chase-line-mem", "LLC_LOOKUP.DATA_READ s0 CBo0", "per hop", 0.25,
		   0.2501, 0.9831, 1.0169, "t");
	vcheck_rel(&c->checks, "stream-copy", "CAS_COUNT.RD s0 sum ch", "lines", 1048576,
		   1048600, 0.99, 1.01, "t");
	vcheck_abs(&c->checks, "chase-line-l1", "a very long event name that is wider than forty columns",
		   "per hop", 0, 0.01, "t");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	report_table(f, c);
	fclose(f);
	/* Every line: the measured value ends where the header's "measured"
	 * ends, and the result starts in the header's result column. */
	char *save = NULL, *line = strtok_r(buf, "\n", &save);
	int mend = col_of(line, "measured") + 8, rcol = col_of(line, "result"), n = 0;
	static const char *const meas[] = { "7036867706881.0000", "0.2501", "1048600", "0.0000" };
	while ((line = strtok_r(NULL, "\n", &save))) {
		int rc = col_of(line, strstr(line, "PASS") ? "PASS" : "FAIL");
		CHECK(rc == rcol, "line %d: result at column %d, header's at %d", n, rc, rcol);
		int m = col_of(line, meas[n]);
		CHECK(m >= 0 && m + (int)strlen(meas[n]) == mend, "line %d: measured %s ends at %d, header at %d",
		      n, meas[n], m + (int)strlen(meas[n]), mend);
		n++;
	}
	CHECK_EQ_INT(n, 4, "table rows");
	free(buf);
	vchecks_free(&c->checks);
	free(c);
}

static void test_backend(void)
{
	char why[256];
	const char *b;
	CHECK((b = vbackend_choose(NULL, NULL, why, sizeof(why))) && !strcmp(b, "auto"), "none: auto");
	CHECK((b = vbackend_choose(NULL, "", why, sizeof(why))) && !strcmp(b, "auto"), "empty: auto");
	CHECK((b = vbackend_choose(NULL, "sim", why, sizeof(why))) && !strcmp(b, "sim"), "env sim");
	CHECK((b = vbackend_choose(NULL, "msr", why, sizeof(why))) && !strcmp(b, "msr"), "env msr");
	CHECK((b = vbackend_choose(NULL, "HW", why, sizeof(why))) && !strcmp(b, "msr"), "env HW: msr");
	CHECK((b = vbackend_choose("sim", "msr", why, sizeof(why))) && !strcmp(b, "sim"),
	      "--backend wins over the environment");
	why[0] = 0;
	CHECK(vbackend_choose(NULL, "foo", why, sizeof(why)) == NULL, "env foo refused");
	CHECK(strstr(why, "PMON_BACKEND=foo") && strstr(why, "sim, msr or auto"), "why: %s", why);
	why[0] = 0;
	CHECK(vbackend_choose("foo", "sim", why, sizeof(why)) == NULL, "--backend=foo refused");
	CHECK(strstr(why, "--backend=foo") && strstr(why, "auto, sim or msr"), "why: %s", why);
}

static void test_shape_screen(void)
{
	struct pmon_sim_shape sh;
	char note[256], why[256];

	/* Background traffic is accepted (the idle baseline subtracts it),
	 * kept as given, without a note. */
	CHECK(vshape_screen("cores=4,load=100M", "$PMON_SIM", &sh, note, sizeof(note), why, sizeof(why)) == 0 &&
	      sh.load_bps == 100000000ull && note[0] == 0, "load=100M accepted");
	CHECK(vshape_screen("noise=10M", "--shape", &sh, note, sizeof(note), why, sizeof(why)) == 0 &&
	      sh.noise_bps == 10000000ull && note[0] == 0, "noise=10M accepted");
	CHECK(vshape_screen("noise=0", "--shape", &sh, note, sizeof(note), why, sizeof(why)) == 0 &&
	      sh.noise_bps == 0, "noise=0 is fine");
	CHECK(vshape_screen("load=0", "--shape", &sh, note, sizeof(note), why, sizeof(why)) == 0 &&
	      sh.load_bps == 0 && note[0] == 0, "load=0 is fine, no note");
	CHECK(vshape_screen("cores=4,clock=manual", "--shape", &sh, note, sizeof(note), why, sizeof(why)) == 0,
	      "clock=manual accepted");
	CHECK_EQ_INT(sh.clock, PMON_SIM_CLOCK_WALL, "clock=manual becomes wall");
	CHECK_EQ_INT(sh.cores, 4, "other keys kept");
	CHECK(strstr(note, "--shape clock=manual") && strstr(note, "clock=wall"), "note: %s", note);
	CHECK(vshape_screen("nodeids=1,0,clock=auto", "$PMON_SIM", &sh, note, sizeof(note), why,
			    sizeof(why)) == 0 && sh.clock == PMON_SIM_CLOCK_WALL &&
	      strstr(note, "$PMON_SIM clock=auto"), "clock=auto after nodeids: %s", note);
	CHECK(vshape_screen("clock=wall", "--shape", &sh, note, sizeof(note), why, sizeof(why)) == 0 &&
	      sh.clock == PMON_SIM_CLOCK_WALL && note[0] == 0, "clock=wall: no note");
	CHECK(vshape_screen(NULL, "$PMON_SIM", &sh, note, sizeof(note), why, sizeof(why)) == 0 &&
	      sh.clock == PMON_SIM_CLOCK_WALL && note[0] == 0 && sh.cores == 8, "no shape: default, wall");
	why[0] = 0;
	CHECK(vshape_screen("bogus=1", "--shape", &sh, note, sizeof(note), why, sizeof(why)) == -1 &&
	      strstr(why, "--shape") && strstr(why, "bogus"), "unknown key: %s", why);
}

int main(void)
{
	test_events_whole();
	test_table_aligned();
	test_backend();
	test_shape_screen();
	return check_done("test_vreport");
}
