/*
 * test_vbase.c - the idle baseline, --repeat, --compare's spread, the
 * chart's order and the boxes not validated.
 *
 * Runs pmon-validate ($PMON_VALIDATE; reports under $PMON_VALIDATE_OUT):
 *   1. noise= (background reads and writes on every socket): the run passes
 *      with the background subtracted; with --break=baseline (measured, not
 *      subtracted) the same run FAILs, and every check that fails is one
 *      with a background; on the quiet default shape every background is 0;
 *   2. --repeat=3 with the umask breakage in the first run only
 *      (--break-once): the median run passes, the spread is the broken
 *      run's distance; --repeat=2 checks the lower middle run: FAIL;
 *   3. --compare: a ratio moved within the check's spread is not "moved",
 *      beyond it is;
 *   4. the chart lists the failures first, then the checks by kernel;
 *   5. R2PCIe is "not validated" with its reason, in the table and JSON.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "vtest.h"

#define QSHAPE "cores=4,llc=2M,l1=16K,l2=64K"
/* A quarter of its LLC (vsuite.h's SSHAPE): the windows of the noise and
 * --repeat runs a quarter as long, at about 40% of the CPU time; the
 * background's rate four times noise=1M's, so that a window holds as many
 * background lines as on QSHAPE. */
#define SSHAPE "cores=4,llc=512K,l1=16K,l2=64K"
#define SNOISE ",noise=4M,prefetch=off"

static const char *prog, *outdir;

/* Run the quick suite on the emulated machine with args; its stdout in
 * outdir/sub.out (the text, malloc'd, in *text when text is not NULL).
 * Exit status or -1. */
static int run(const char *sub, const char *const *args, char **text)
{
	/* STREAM's arrays twice the LLC (as vsuite.h's runs, for make
	 * check's time) */
	static const char *const pre[] = { "--quick", "--backend=sim", "--stream-mult=2", NULL };
	return vtest_run(prog, outdir, "test_vbase", sub, pre, args, text);
}

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *find_check(json_t *j, const char *kernel, const char *event)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c)
		if (!strcmp(str(c, "kernel"), kernel) && !strcmp(str(c, "event"), event))
			return c;
	CHECK(0, "no check %s %s", kernel, event);
	return NULL;
}

/* 1. noise=: subtracted, the run passes; not subtracted, it fails. */
static void test_noise(void)
{
	const char *a[] = { "--kernels=stream,numa,dgemm", "--shape", SSHAPE SNOISE,
			    "--dgemm=64,128", NULL };
	CHECK_EQ_INT(run("base-noise", a, NULL), 0, "noise=4M, background subtracted: exit 0");
	json_t *j = vtest_load(outdir, "base-noise");
	if (j) {
		json_t *c = find_check(j, "stream-copy", "CAS_COUNT.RD s0 all ch");
		if (c) {
			/* noise=4M: 62500 lines a second per socket, half of them
			 * reads: a window of tens of ms has hundreds. */
			double bg = num(c, "background"), sum = 0;
			size_t i;
			json_t *x;
			json_array_foreach(json_object_get(c, "counts"), i, x)
				sum += num(x, "count");
			CHECK(bg > 100, "stream-copy reads: background %g lines (> 100)", bg);
			CHECK(fabs(sum - bg - num(c, "measured")) < 1e-6 * sum,
			      "measured %g = raw %g - background %g", num(c, "measured"), sum, bg);
			CHECK(num(c, "background_spread") > 0, "background spread %g > 0",
			      num(c, "background_spread"));
		}
		json_t *b = json_object_get(j, "baseline");
		CHECK(num(b, "windows") > 0 && json_is_true(json_object_get(b, "subtracted")),
		      "baseline: %g idle windows, subtracted", num(b, "windows"));
		json_decref(j);
	}
	const char *brk[] = { "--kernels=stream,numa,dgemm", "--shape", SSHAPE SNOISE,
			      "--dgemm=64,128", "--break=baseline", NULL };
	CHECK_EQ_INT(run("base-noise-break", brk, NULL), 1, "noise=4M, --break=baseline: exit 1");
	j = vtest_load(outdir, "base-noise-break");
	if (j) {
		size_t i, failed = 0, without = 0;
		json_t *c;
		json_array_foreach(json_object_get(j, "checks"), i, c) {
			if (strcmp(str(c, "result"), "FAIL"))
				continue;
			failed++;
			without += !(num(c, "background") > 0);
		}
		/* at least STREAM's eight windows' socket totals (reads,
		 * writes, HA reads and writes) */
		CHECK(failed >= 32, "--break=baseline: %zu checks fail (>= 32)", failed);
		CHECK_EQ_INT(without, 0, "--break=baseline: every failing check has a background");
		CHECK(json_is_false(json_object_get(json_object_get(j, "baseline"), "subtracted")),
		      "--break=baseline: JSON says not subtracted");
		json_decref(j);
	}
	/* The quiet default shape: idle windows count nothing. */
	const char *q[] = { "--kernels=chan,stream", "--shape", QSHAPE, NULL };
	CHECK_EQ_INT(run("base-quiet", q, NULL), 0, "default shape: exit 0");
	j = vtest_load(outdir, "base-quiet");
	if (j) {
		size_t i, nonzero = 0, taken = 0;
		json_t *c;
		json_array_foreach(json_object_get(j, "checks"), i, c) {
			json_t *bg = json_object_get(c, "background");
			taken += json_is_number(bg);
			nonzero += json_is_number(bg) && (json_number_value(bg) != 0 ||
							  num(c, "background_spread") != 0);
		}
		CHECK(taken > 100, "default shape: %zu checks with a baseline", taken);
		CHECK_EQ_INT(nonzero, 0, "default shape: no background");
		json_decref(j);
	}
}

/* 2. --repeat: the median run. */
static void test_repeat(void)
{
	const char *r3[] = { "--kernels=stream", "--shape", SSHAPE, "--break=umask", "--break-once",
			     "--repeat=3", NULL };
	CHECK_EQ_INT(run("base-repeat3", r3, NULL), 0, "--repeat=3, umask broken in run 1: exit 0");
	json_t *j = vtest_load(outdir, "base-repeat3");
	if (j) {
		json_t *c = find_check(j, "stream-copy", "CAS_COUNT.RD s0 all ch");
		json_t *runs = c ? json_object_get(c, "runs") : NULL;
		CHECK_EQ_INT(json_array_size(runs), 3, "3 runs recorded");
		if (json_array_size(runs) == 3) {
			double e = num(c, "expected"), v[3];
			for (int i = 0; i < 3; i++)
				v[i] = json_number_value(json_array_get(runs, i));
			/* Copy's reads counted as writes in run 1: half. */
			CHECK(fabs(v[0] / e - 0.5) < 0.01, "run 1 (broken): ratio %g", v[0] / e);
			CHECK(v[1] == e && v[2] == e, "runs 2, 3: %g %g of %g", v[1], v[2], e);
			CHECK(num(c, "measured") == e, "the median checked: %g", num(c, "measured"));
			CHECK(fabs(num(c, "spread") - (e - v[0])) < 1e-9 * e, "spread %g = %g",
			      num(c, "spread"), e - v[0]);
			CHECK(!strcmp(str(c, "result"), "PASS"), "PASS");
		}
		CHECK_EQ_INT(json_integer_value(json_object_get(j, "repeat")), 3, "JSON repeat");
		json_decref(j);
	}
	const char *r2[] = { "--kernels=stream", "--shape", SSHAPE, "--break=umask", "--break-once",
			     "--repeat=2", NULL };
	CHECK_EQ_INT(run("base-repeat2", r2, NULL), 1, "--repeat=2: the lower middle (broken) run: exit 1");
	j = vtest_load(outdir, "base-repeat2");
	if (j) {
		size_t i, failed = 0;
		json_t *c;
		json_array_foreach(json_object_get(j, "checks"), i, c)
			failed += !strcmp(str(c, "result"), "FAIL");
		/* as --break=umask alone: Copy's 5 CAS read checks and its
		 * read bandwidth */
		CHECK_EQ_INT(failed, 6, "--repeat=2: the umask breakage's 6 checks fail");
		json_decref(j);
	}
}

/* 3. --compare against the spread: B is A with two ratios moved. */
static int compare_moved(const char *sub, double dx, double dy, char **out)
{
	char a[4200], b[4200], o[4200], cmd[13000];
	snprintf(a, sizeof(a), "%s/base-repeat3/report.json", outdir);
	snprintf(b, sizeof(b), "%s/%s.json", outdir, sub);
	snprintf(o, sizeof(o), "%s/%s.out", outdir, sub);
	json_error_t err;
	json_t *j = json_load_file(a, 0, &err);
	if (!j)
		return -1;
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c) {
		if (strcmp(str(c, "kernel"), "stream-copy"))
			continue;
		double d = !strcmp(str(c, "event"), "CAS_COUNT.RD s0 all ch") ? dx :
			   !strcmp(str(c, "event"), "CAS_COUNT.WR s0 all ch") ? dy : 0;
		if (d)
			json_object_set_new(c, "ratio", json_real(num(c, "ratio") + d));
	}
	json_dump_file(j, b, 0);
	json_decref(j);
	snprintf(cmd, sizeof(cmd), "'%s' --compare '%s' '%s' > '%s'", prog, a, b, o);
	int st = system(cmd);
	*out = NULL;
	FILE *f = fopen(o, "r");
	if (f) {
		*out = calloc(1, 1 << 16);
		if (*out && fread(*out, 1, (1 << 16) - 1, f) == 0)
			(*out)[0] = 0;
		fclose(f);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_compare_spread(void)
{
	char *out;
	/* Copy's reads: spread 0.5 (the broken run); writes: spread 0. */
	int rc = compare_moved("base-cmp-within", 0.3, 0.001, &out);
	CHECK_EQ_INT(rc, 1, "--compare: exit 1");
	CHECK(out && !strstr(out, "moved: stream-copy CAS_COUNT.RD s0 all ch") &&
	      strstr(out, "moved: stream-copy CAS_COUNT.WR s0 all ch") &&
	      strstr(out, "0 flipped, 1 moved"),
	      "--compare: a move within the spread is not reported, one of 0.1%% beyond a spread of 0 is: %s",
	      out ? out : "");
	free(out);
	rc = compare_moved("base-cmp-beyond", 0.7, 0, &out);
	CHECK_EQ_INT(rc, 1, "--compare beyond: exit 1");
	CHECK(out && strstr(out, "moved: stream-copy CAS_COUNT.RD s0 all ch") && strstr(out, "0 flipped, 1 moved"),
	      "--compare: a move beyond the spread is reported: %s", out ? out : "");
	free(out);
}

/* 4. The chart: every FAIL before any PASS; the checks of a kernel
 * together within each result. */
static void test_svg_order(void)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/base-repeat2/chart.svg", outdir);
	FILE *f = fopen(path, "r");
	CHECK(f != NULL, "%s", path);
	if (!f)
		return;
	char line[4096], res[16] = "", kern[64] = "", seen[64][64];
	int nseen = 0, fails = 0, passes = 0, fail_after_pass = 0, split = 0;
	while (fgets(line, sizeof(line), f)) {
		char *k = strstr(line, "<g class=\"check\" data-kernel=\"");
		if (!k)
			continue;
		char kk[64] = "", rr[16] = "";
		sscanf(k, "<g class=\"check\" data-kernel=\"%63[^\"]\" data-box=\"%*[^\"]\" data-result=\"%15[^\"]\"",
		       kk, rr);
		if (!strcmp(rr, "FAIL")) {
			fails++;
			fail_after_pass += passes > 0;
		} else {
			passes++;
		}
		if (strcmp(rr, res)) {        /* a new result group */
			nseen = 0;
			kern[0] = 0;
			snprintf(res, sizeof(res), "%s", rr);
		}
		if (strcmp(kk, kern)) {
			for (int i = 0; i < nseen; i++)
				split += !strcmp(seen[i], kk);
			if (nseen < 64)
				snprintf(seen[nseen++], sizeof(seen[0]), "%s", kk);
			snprintf(kern, sizeof(kern), "%s", kk);
		}
	}
	fclose(f);
	CHECK_EQ_INT(fails, 6, "chart: the 6 failures");
	CHECK(passes > 50, "chart: %d passes", passes);
	CHECK_EQ_INT(fail_after_pass, 0, "chart: failures first");
	CHECK_EQ_INT(split, 0, "chart: each kernel's checks together");
}

/* 5. R2PCIe not validated, and why. */
static void test_r2pcie(void)
{
	char *text = NULL;
	const char *a[] = { "--kernels=clock", "--shape", QSHAPE, NULL };
	CHECK_EQ_INT(run("base-r2pcie", a, &text), 0, "clock kernel: exit 0");
	CHECK(text && strstr(text, "box r2pcie") && strstr(text, "not validated: no kernel drives PCIe traffic"),
	      "table: R2PCIe not validated, with the reason");
	free(text);
	json_t *j = vtest_load(outdir, "base-r2pcie");
	if (!j)
		return;
	size_t i, found = 0;
	json_t *b;
	json_array_foreach(json_object_get(j, "boxes"), i, b)
		if (!strcmp(str(b, "box"), "r2pcie")) {
			found = 1;
			CHECK(strstr(str(b, "not_validated"), "PCIe traffic") != NULL, "JSON: r2pcie's reason: %s",
			      str(b, "not_validated"));
			CHECK_EQ_INT(json_integer_value(json_object_get(b, "checks")), 0, "JSON: r2pcie 0 checks");
		}
	CHECK(found, "JSON: boxes has r2pcie");
	json_decref(j);
}

int main(void)
{
	prog = getenv("PMON_VALIDATE");
	outdir = getenv("PMON_VALIDATE_OUT");
	if (!prog || !outdir) {
		fprintf(stderr, "test_vbase: set PMON_VALIDATE (the program) and PMON_VALIDATE_OUT\n");
		CHECK(0, "environment");
		return check_done("test_vbase");
	}
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", outdir);
	CHECK(system(cmd) == 0, "mkdir %s", outdir);
	test_noise();
	test_repeat();
	test_compare_spread();
	test_svg_order();
	test_r2pcie();
	return check_done("test_vbase");
}
