/*
 * test_vsuite.c - the short validation suite and its options.
 *
 * Runs pmon-validate ($PMON_VALIDATE; reports under $PMON_VALIDATE_OUT):
 *   1. the quick suite on a small emulated machine with the prefetchers on
 *      (the default): exit 0, no FAIL, no skip (--strict), every kernel
 *      group present, the prefetchers' bounds checked; again with the same
 *      seed: the same counts;
 *   2. --strict, the record (report.json's run and shape), --list and
 *      --break=lose (the plan's guard).
 * Its siblings run at the same time: test_vshapes (other machine shapes)
 * and test_vbreak (the deliberate breakages, --record-known, --known and
 * --compare).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "vsuite.h"

/* The four prefetchers, on by default as on silicon (the quick suite's
 * shape): STREAM, the channel probe and both chase orders are checked,
 * none skipped. */
static void check_prefetch_default(json_t *j)
{
	/* Line order: each hop fetches its line, its pair and what the
	 * streamer and DCU may add: lookups and DRAM reads are 1 to
	 * chase_pf_line_hi (above 2, below 3 on this shape) a hop. */
	const char *lbound[][2] = { { "chase-line-mem", "CAS_COUNT.RD s0 all ch" },
				    { "chase-line-mem", "TOR_INSERTS.MISS_OPCODE(DRd) s0" },
				    { "chase-line-mem", "LLC_LOOKUP.DATA_READ s0 all CBo" },
				    { "chase-line-llc", "LLC_LOOKUP.DATA_READ s0 all CBo" } };
	for (int b = 0; b < 4; b++) {
		json_t *k = find_check(j, lbound[b][0], lbound[b][1]);
		CHECK(k && num(k, "expected") == 1 && num(k, "high") > 2 && num(k, "high") < 3 &&
		      num(k, "low") > 0.4,
		      "prefetch: %s %s checked within [1 - size/WS, chase_pf_line_hi] per hop",
		      lbound[b][0], lbound[b][1]);
	}
	CHECK(count_skips(j, "chase-", "", NULL) == 0, "prefetch: no chase check skipped");
	json_t *c = find_check(j, "chase-line-mem", "OFFCORE DMND_DATA_RD.LOCAL_DRAM cpu0");
	CHECK(c && num(c, "expected") == 1 && num(c, "low") > 0.5 && num(c, "low") < 1,
	      "prefetch: line chase demand DRAM reads checked, at most one a hop (low %g)",
	      c ? num(c, "low") : -1);
	c = find_check(j, "chase-page-mem", "OFFCORE DMND_DATA_RD.LOCAL_DRAM cpu0");
	CHECK(c && num(c, "expected") == 1 && num(c, "low") > 0 && num(c, "low") <= 1.0 / 64,
	      "prefetch: page chase demand share at least a page's first line (low %g)",
	      c ? num(c, "low") : -1);
	size_t i, ahead = 0;
	json_array_foreach(json_object_get(j, "checks"), i, c)
		ahead += strcmp(str(c, "kernel"), "chan") == 0 &&
			 strcmp(str(c, "event"), "CAS_COUNT.RD s0 ch1") != 0 &&
			 num(c, "expected") > 0;
	CHECK(ahead > 0, "prefetch: the channel probe bounds the fetched lines of its pages");
}

static void test_quick(void)
{
	const char *args[] = { "--shape", QSHAPE, "--dgemm=128,256", "--strict", NULL };
	int rc = run("quick", args);
	CHECK_EQ_INT(rc, 0, "quick suite exit status");
	json_t *j = load("quick");
	if (!j)
		return;
	json_t *checks = json_object_get(j, "checks");
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "failed")), 0, "quick suite: failed checks");
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "skipped_checks")), 0,
		     "quick suite (--strict): skipped checks");
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "planned_checks")), json_array_size(checks),
		     "quick suite: as many checks as planned");
	CHECK(json_array_size(checks) > 100, "quick suite: %zu checks", json_array_size(checks));
	const char *groups[] = { "stream-copy", "stream-triad-nt", "numa-remote-triad", "chase-line-l1",
				 "chase-page-mem", "chase-line-mem-remote", "dgemm-128-fits",
				 "dgemm-256-fits", "chan", "clock", "share-pingpong-core",
				 "share-pingpong-socket", "share-prodcons", "power",
				 "dram-rowhit", "dram-rowmiss", "dram-write", "lock-split",
				 "lock-aligned", "partial-nt", "pf-load-pairs", "pf-store-line" };
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
		CHECK(count_kernel(checks, groups[g]) > 0, "quick suite has checks of %s", groups[g]);
	size_t i, nonum = 0;
	json_t *c;
	json_array_foreach(checks, i, c)
		nonum += !json_is_number(json_object_get(c, "measured")) ||
			 (strcmp(str(c, "tolerance_kind"), "ratio") == 0 &&
			  !json_is_number(json_object_get(c, "ratio")));
	CHECK(nonum == 0, "quick suite: %zu checks without a number (nan)", nonum);
	check_prefetch_default(j);
	json_decref(j);
}

/* --measure-clocks (as on the hardware, where only the PCU's clock is
 * documented): UCLK, DCLK and QCLK measured before the plan are the shape's
 * (2.7 GHz, 800 MHz, 1 GHz) within the measurement's tolerance (1 ms of the
 * window), recorded in hardware.clocks_measured; the clock checks and the
 * QPI link utilisation (over QCLK) use them, with that tolerance added, and
 * pass. */
static void test_measured_clocks(void)
{
	const char *args[] = { "--shape", QSHAPE, "--measure-clocks", "--kernels=clock,numa", "--strict",
			       NULL };
	CHECK_EQ_INT(run("clocks-measured", args), 0, "--measure-clocks: exit status");
	json_t *j = load("clocks-measured");
	if (!j)
		return;
	json_t *m = json_object_get(json_object_get(j, "hardware"), "clocks_measured");
	double tol = num(m, "tolerance"), win = num(m, "window_s");
	CHECK(win >= 0.1 && tol > 0 && fabs(tol - 1e-3 / win) < 1e-9, "window %g s, tolerance %g", win, tol);
	const char *name[3] = { "uclk", "dclk", "qclk" };
	const double want[3] = { 2.7e9, 0.8e9, 1e9 };
	for (int i = 0; i < 3; i++) {
		json_t *k = json_object_get(m, name[i]);
		double hz = num(k, "hz");
		CHECK(json_is_true(json_object_get(k, "used")) && fabs(hz / want[i] - 1) <= tol,
		      "%s measured %g Hz, the shape's %g within %g", name[i], hz, want[i], tol);
	}
	size_t i, ok = 0, meas = 0;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c) {
		const char *ev = str(c, "event");
		meas += !strcmp(str(c, "kernel"), "clock") && strstr(ev, " measured") &&
			!strcmp(str(c, "result"), "PASS");
		/* the clocks checked against the measured frequencies, the
		 * tolerance widened by the measurement's below 1 - 0.1% */
		ok += !strcmp(str(c, "kernel"), "clock") && strstr(ev, " @ ") && !strstr(ev, "PCU") &&
		      num(c, "low") < 1 - 1e-3 - tol + 1e-9;
		ok += prefix(ev, "QPI_LINK_UTIL ") && !strcmp(str(c, "result"), "PASS");
	}
	CHECK_EQ_INT(meas, 3, "the three measurements are checks that pass");
	CHECK_EQ_INT(ok, 6, "5 clocks at the measured frequencies with their tolerance, 1 QPI link utilisation");
	json_decref(j);
}

/* --strict: a skip (here the NUMA kernel on one socket, known before
 * running) fails the run; without it the run passes and counts the skipped
 * checks (10 + 2 x 4 channels of the remote Triad, with its QPI link
 * utilisation; the remote chase's 7 + 4 cores run with the chase). */
static void test_strict(void)
{
	const char *loose[] = { "--shape", "sockets=1," QSHAPE, "--kernels=numa", NULL };
	const char *strict[] = { "--shape", "sockets=1," QSHAPE, "--kernels=numa", "--strict", NULL };
	CHECK_EQ_INT(run("skip-loose", loose), 0, "one socket, numa: exit status");
	json_t *j = load("skip-loose");
	if (j) {
		CHECK_EQ_INT(json_integer_value(json_object_get(j, "skipped_checks")), 18,
			     "one socket, numa: skipped checks");
		json_decref(j);
	}
	CHECK_EQ_INT(run("skip-strict", strict), 1, "one socket, numa, --strict: exit status");
}

/* --list prints the plan (one line a check, the events it counts) and runs
 * nothing: as many lines as the same run makes checks (quick suite: its
 * report's planned_checks), and no report written. */
static void test_list(void)
{
	const char *args[] = { "--shape", QSHAPE, "--dgemm=128,256", "--list", NULL };
	char *text;
	int rc = run_out("list", args, &text);
	CHECK_EQ_INT(rc, 0, "--list: exit status");
	json_t *q = load("quick");
	size_t lines = 0, cas = 0;
	for (char *p = text; p && *p; p++)
		if (*p == '\n')
			lines++;
	for (char *p = text; p && (p = strstr(p, "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0")); p++)
		cas++;
	json_int_t planned = q ? json_integer_value(json_object_get(q, "planned_checks")) : -1;
	CHECK(text && lines == (size_t)planned + 1, "--list: %zu lines, %lld checks planned + summary",
	      lines, (long long)planned);
	CHECK(cas > 10, "--list names the events behind the checks (%zu with iMC0 CAS reads)", cas);
	CHECK(text && strstr(text, "checks planned, 0 skipped, 0 events refused"), "--list summary");
	char path[4200];
	snprintf(path, sizeof(path), "%s/list/report.json", outdir);
	CHECK(access(path, F_OK) != 0, "--list writes no report");
	json_decref(q);
	free(text);
}

/* The record: the shape from $PMON_SIM is written whole (was null), with
 * the run's version, date, command line and seed. */
static void test_record(void)
{
	const char *args[] = { "--kernels=clock", "--seed=7", NULL };
	setenv("PMON_SIM", "cores=4,llc=2M,l2ways=4,prefetch=on,lat_dram=90,noise=1M", 1);
	int rc = run("record", args);
	unsetenv("PMON_SIM");
	CHECK_EQ_INT(rc, 0, "record run: exit status");
	json_t *j = load("record");
	if (!j)
		return;
	json_t *r = json_object_get(j, "run"), *sh = json_object_get(json_object_get(j, "machine"), "shape");
	CHECK(strcmp(str(r, "pmon_version"), "") != 0, "version recorded");
	CHECK(strlen(str(r, "date")) == 20 && str(r, "date")[10] == 'T', "date %s", str(r, "date"));
	CHECK_EQ_INT(json_integer_value(json_object_get(r, "seed")), 7, "seed recorded");
	json_t *cl = json_object_get(r, "command_line");
	/* the program, --quick --stream-mult=2 (vsuite.h), --output DIR and
	 * the two above */
	CHECK(json_array_size(cl) == 7 && !strcmp(json_string_value(json_array_get(cl, 6)), "--seed=7"),
	      "command line recorded whole");
	CHECK(json_is_object(sh), "shape from $PMON_SIM recorded");
	CHECK(!strcmp(str(sh, "spec_from"), "$PMON_SIM") &&
	      json_integer_value(json_object_get(sh, "cores")) == 4 &&
	      json_integer_value(json_object_get(sh, "l2_ways")) == 4 &&
	      json_integer_value(json_object_get(sh, "prefetch")) == 0 &&
	      json_integer_value(json_object_get(json_object_get(sh, "latency_ns"), "dram")) == 90 &&
	      json_integer_value(json_object_get(json_object_get(sh, "clocks"), "uclk_hz")) == 2700000000,
	      "shape fields: cores, ways, prefetch, latencies, clocks");
	/* the background and the generation too (they were left out: a run on
	 * noise= or gen=nhm-ep said so only in the spec string) */
	CHECK(json_integer_value(json_object_get(sh, "noise_bps")) == 1000000 &&
	      !strcmp(str(sh, "gen"), "snb-ep") && json_is_null(json_object_get(sh, "nt_erratum")),
	      "shape fields: noise_bps 1000000, gen snb-ep, nt_erratum null (not a key of SNB-EP)");
	/* The raw count behind each check: the clock's one event. */
	json_t *k = json_array_get(json_object_get(j, "checks"), 0);
	json_t *cnt = json_array_get(json_object_get(k, "counts"), 0);
	CHECK(cnt && json_integer_value(json_object_get(cnt, "count")) == (json_int_t)num(k, "measured") &&
	      !strcmp(str(cnt, "event"), str(k, "events")), "the check's raw count");
	json_decref(j);
}

/* A fixed seed makes emulated runs identical: the quick suite run twice
 * gives every count of every check the same (the clocks and the PCU's power
 * kernel aside: they count wall time), as the threads take turns in the
 * seed's order.  Both runs on the smaller SSHAPE: every kernel, the same
 * threads, a quarter of the lines. */
static void test_same_seed(void)
{
	const char *args[] = { "--shape", SSHAPE, SDGEMM, "--strict", NULL };
	CHECK_EQ_INT(run("seed-a", args), 0, "quick suite, small shape: exit status");
	CHECK_EQ_INT(run("seed-b", args), 0, "quick suite, small shape, again: exit status");
	json_t *a = load("seed-a"), *b = load("seed-b");
	if (!a || !b) {
		json_decref(a);
		json_decref(b);
		return;
	}
	json_t *ca = json_object_get(a, "checks"), *cb = json_object_get(b, "checks");
	size_t i, same = 0, differ = 0;
	CHECK_EQ_INT(json_array_size(ca), json_array_size(cb), "same checks");
	for (i = 0; i < json_array_size(ca) && i < json_array_size(cb); i++) {
		json_t *x = json_array_get(ca, i), *y = json_array_get(cb, i);
		/* Clocks and the PCU's frequency bands and C-state residency
		 * count wall time, and so do the UBox clock behind the TOR
		 * latency metrics (ns from its UCLK ticks) and the QPI clock
		 * of the link utilisation. */
		if (!strcmp(str(x, "kernel"), "clock") || !strcmp(str(x, "kernel"), "power") ||
		    strstr(str(x, "events"), "UNC_U_CLOCKTICKS") || strstr(str(x, "events"), "UNC_Q_CLOCKTICKS"))
			continue;
		if (json_equal(json_object_get(x, "counts"), json_object_get(y, "counts")) &&
		    json_array_size(json_object_get(x, "counts")) > 0)
			same++;
		else {
			differ++;
			fprintf(stderr, "  same seed: %s %s differs\n", str(x, "kernel"), str(x, "event"));
		}
	}
	CHECK(differ == 0 && same > 150, "same seed: %zu checks' counts identical, %zu differ", same,
	      differ);
	json_decref(a);
	json_decref(b);
}

/* --break=lose: the run drops each step's first check; the plan's guard
 * FAILs the step, naming the lost check. */
static void test_lose(void)
{
	const char *args[] = { "--shape", QSHAPE, "--kernels=chan,clock", "--break=lose", NULL };
	CHECK_EQ_INT(run("break-lose", args), 1, "--break=lose: exit status");
	json_t *j = load("break-lose");
	if (!j)
		return;
	size_t i, guards = 0, others = 0;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c) {
		int g = strstr(str(c, "event"), "planned") != NULL;
		if (g && strcmp(str(c, "result"), "FAIL") == 0 && strstr(str(c, "why"), "was lost: "))
			guards++;
		others += !g && strcmp(str(c, "result"), "PASS") != 0;
	}
	CHECK_EQ_INT(guards, 2, "--break=lose: one guard FAIL per step");
	CHECK_EQ_INT(others, 0, "--break=lose: the checks made pass");
	json_decref(j);
}

int main(void)
{
	if (vsuite_init("test_vsuite") != 0)
		return check_done("test_vsuite");
	test_quick();
	test_same_seed();
	test_measured_clocks();
	test_strict();
	test_record();
	test_list();
	test_lose();
	return check_done("test_vsuite");
}
