/*
 * test_vbreak.c - the breakage runs of make check: each deliberate breakage
 * (--break=KIND, or an event's code, umask or filter changed as a wrong
 * table entry would) makes pmon-validate exit 1, and the checks that FAIL
 * are exactly the ones the breakage affects, named here from what was
 * broken (not from the run's output).  make validate-break changes the code
 * of every event the suite uses in turn; this is its sample.
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

/* Which checks a breakage must fail, from what it mis-programs (expected:
 * the check's expected value). */
static int affected(const char *kind, const char *kernel, const char *event, double expected)
{
	if (strcmp(kind, "umask") == 0)       /* Copy's CAS reads counted with the WR umask */
		return strcmp(kernel, "stream-copy") == 0 &&
		       (prefix(event, "CAS_COUNT.RD ") || prefix(event, "MEM_BW_READS "));
	if (strcmp(kind, "channel") == 0)     /* the probed channel read on the next one */
		return strcmp(kernel, "chan") == 0 && strcmp(event, "CAS_COUNT.RD s0 ch1") == 0;
	if (strcmp(kind, "socket") == 0)      /* the home socket's CAS counted on the requester */
		return strcmp(kernel, "numa-remote-triad") == 0 &&
		       (prefix(event, "CAS_COUNT.") || prefix(event, "MEM_BW_")) &&
		       strstr(event, " s1 ") != NULL;
	if (strcmp(kind, "metric") == 0)      /* every derived metric, its formula's constant doubled */
		return prefix(event, "MEM_BW_") || prefix(event, "QPI_TX_DATA_BW ") ||
		       prefix(event, "QPI_LINK_UTIL ") || prefix(event, "AVG_TOR_DRD_") ||
		       /* a miss percentage of 0 stays 0 whatever the constant */
		       (prefix(event, "LLC_DRD_MISS_PCT ") && expected > 0);
	if (strcmp(kind, "wrap") == 0)        /* CBo0's lookups read across a wrap, carelessly:
						 they and the miss percentage over them */
		return strcmp(kernel, "chase-line-mem") == 0 &&
		       (strcmp(event, "LLC_LOOKUP.DATA_READ s0 all CBo") == 0 ||
			strcmp(event, "LLC_LOOKUP.DATA_READ s0 CBo0") == 0 ||
			strcmp(event, "LLC_DRD_MISS_PCT s0 all CBo") == 0);
	if (strcmp(kind, "snoop") == 0)       /* HITM responses counted with another snoop bit */
		return prefix(kernel, "share-") && strstr(event, ".HITM ") &&
		       (strstr(event, "cpu B") || strstr(event, "consumer"));
	if (strcmp(kind, "state") == 0)       /* the home's I|E lookups counted as S|E; the
						 chase's misses (I) counted as E */
		return (strcmp(kernel, "share-pingpong-socket") == 0 && prefix(event, "LLC_LOOKUP.") &&
			strstr(event, ".I|E home") != NULL) ||
		       (prefix(kernel, "chase-") && prefix(event, "LLC_DRD_MISS_PCT "));
	if (strcmp(kind, "r3") == 0)          /* the home's R3QPI SNP entries counted as HOM */
		return strcmp(kernel, "share-pingpong-socket") == 0 &&
		       strcmp(event, "R3QPI RxR_INSERTS.SNP home") == 0;
	if (strcmp(kind, "pcu") == 0)         /* band 0 above the clock, C0 counted as C6 */
		return strcmp(kernel, "power") == 0 &&
		       (prefix(event, "PCU FREQ_BAND0_CYCLES") ||
			prefix(event, "PCU POWER_STATE_OCCUPANCY.CORES_C0"));
	if (strcmp(kind, "dram") == 0)        /* page misses as page closes, WPQ as RPQ */
		return (strcmp(kernel, "dram-rowhit") == 0 &&
			strcmp(event, "PRE_COUNT.PAGE_MISS all ch") == 0) ||
		       (strcmp(kernel, "dram-write") == 0 && strcmp(event, "WPQ_INSERTS all ch") == 0);
	if (strcmp(kind, "lock") == 0)        /* the split locks counted in the other UBox */
		return strcmp(kernel, "lock-split") == 0;
	if (strcmp(kind, "partial") == 0)     /* partial writes as full, underfills as regular */
		return strcmp(kernel, "partial-nt") == 0 &&
		       (strcmp(event, "HA IMC_WRITES.PARTIAL") == 0 ||
			strcmp(event, "CAS_COUNT.RD_UNDERFILL all ch") == 0);
	if (strcmp(kind, "pfreq") == 0)       /* the prefetches counted with the demand */
		return (strcmp(kernel, "pf-load-pairs") == 0 && prefix(event, "OFFCORE PF_DATA_RD")) ||
		       (strcmp(kernel, "pf-store-line") == 0 && prefix(event, "OFFCORE PF_RFO"));
	if (strcmp(kind, "victim") == 0)      /* Modified victims counted with the E umask */
		return strcmp(kernel, "share-prodcons") == 0 && strcmp(event, "LLC_VICTIMS.M home") == 0;
	return 0;
}

/* The breakage kind on shape, running kernels, with the arguments extra
 * (NULL-terminated, or NULL), reports in sub: exit 1, and exactly the want
 * checks affected() names FAIL, marked broken. */
static void test_break_run(const char *sub, const char *shape, const char *kind, const char *kernels,
			   size_t want, const char *const *extra)
{
	char opt[64], kopt[64];
	snprintf(opt, sizeof(opt), "--break=%s", kind);
	snprintf(kopt, sizeof(kopt), "--kernels=%s", kernels);
	const char *args[16] = { "--shape", shape, opt, kopt };
	for (int i = 0; extra && extra[i] && i < 11; i++)
		args[4 + i] = extra[i];
	int rc = run(sub, args);
	CHECK_EQ_INT(rc, 1, "breakage exit status");
	json_t *j = load(sub);
	if (!j)
		return;
	size_t i, nfail = 0, naff = 0, wrong = 0;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c) {
		int fail = strcmp(str(c, "result"), "FAIL") == 0;
		int aff = affected(kind, str(c, "kernel"), str(c, "event"), num(c, "expected"));
		int broken = json_is_true(json_object_get(c, "broken"));
		nfail += fail;
		naff += aff;
		if (fail != aff || broken != aff) {
			wrong++;
			fprintf(stderr, "  break %s: %s %s: %s, broken %d, affected %d\n", kind,
				str(c, "kernel"), str(c, "event"), str(c, "result"), broken, aff);
		}
	}
	CHECK(wrong == 0, "break %s: %zu checks not as the breakage implies", kind, wrong);
	CHECK(naff == want && nfail == want, "break %s: %zu affected, %zu failed, want %zu", kind,
	      naff, nfail, want);
	if (strcmp(kind, "wrap") == 0) {
		size_t across = 0;
		json_array_foreach(json_object_get(j, "checks"), i, c)
			across += strstr(str(c, "event"), "across a wrap") &&
				  strcmp(str(c, "result"), "PASS") == 0;
		CHECK_EQ_INT(across, 1, "libpmon's total across the wrap passes");
	}
	json_decref(j);
}

/* --break=clock with the clocks measured as on the hardware
 * (--measure-clocks): UCLK recorded 10% high.  Exactly the checks that use
 * the UCLK frequency FAIL (the UBox, CBo and HA clocks against it, the TOR
 * latencies in UCLK cycles of the chase's four LLC and memory sets), the
 * measurement's own range check and everything else PASS. */
static void test_break_clock(void)
{
	const char *args[] = { "--shape", SSHAPE, "--measure-clocks", "--break=clock",
			       "--kernels=clock,chase", NULL };
	CHECK_EQ_INT(run("break-clock", args), 1, "--break=clock: exit status");
	json_t *j = load("break-clock");
	if (!j)
		return;
	size_t i, fail = 0, wrong = 0;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c) {
		const char *k = str(c, "kernel"), *ev = str(c, "event");
		int aff = (!strcmp(k, "clock") && strstr(ev, "UCLK") && strstr(ev, " @ ")) ||
			  (prefix(k, "chase-") && prefix(ev, "TOR_OCC/TOR_INSERTS."));
		int f = !strcmp(str(c, "result"), "FAIL");
		fail += f;
		if (f != aff) {
			wrong++;
			fprintf(stderr, "  break clock: %s %s: %s, affected %d\n", k, ev, str(c, "result"), aff);
		}
	}
	CHECK(wrong == 0 && fail == 7, "--break=clock: %zu FAIL (want the 3 UCLK clocks and 4 latencies), "
	      "%zu not as the breakage implies", fail, wrong);
	json_t *u = json_object_get(json_object_get(json_object_get(j, "hardware"), "clocks_measured"), "uclk");
	double hz = json_number_value(json_object_get(u, "hz"));
	CHECK(fabs(hz / 2.97e9 - 1) < 0.01 && json_is_true(json_object_get(u, "used")),
	      "the recorded UCLK is 10%% above the shape's 2.7 GHz: %g", hz);
	json_decref(j);
}

static void test_break_on(const char *shape, const char *suffix, const char *kind, const char *kernels,
			  size_t want)
{
	char sub[64];
	snprintf(sub, sizeof(sub), "break-%s%s", kind, suffix);
	test_break_run(sub, shape, kind, kernels, want, NULL);
}

/* The file's text (malloc'd), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = f ? calloc(1, 1 << 16) : NULL;
	if (s && fread(s, 1, (1 << 16) - 1, f) == 0 && ferror(f)) {
		free(s);
		s = NULL;
	}
	if (f)
		fclose(f);
	return s;
}

/* --record-known writes the failures of the umask breakage (Copy's 5 CAS
 * read checks at ratio 0.5, and the read bandwidth metric computed from the
 * same CAS reads: 6) with '?' reasons, which --known refuses (exit 2,
 * naming the line); with reasons filled in the same run exits 0 with those
 * 6 checks KNOWN (reason) and nothing else changed; --compare of the two
 * reports names the 6 flips (5 CAS, 1 metric) and exits 1, of a report with
 * itself 0. */
static void test_known_compare(void)
{
	char rec[4200], filled[4200], a[4200], b[4200], cmd[17000];
	snprintf(rec, sizeof(rec), "%s/known-rec.txt", outdir);
	snprintf(filled, sizeof(filled), "%s/known-filled.txt", outdir);
	unlink(rec);
	/* the umask breakage (exactly Copy's 6 checks FAIL), recording them */
	const char *r1[] = { "--record-known", rec, NULL };
	test_break_run("known-a", SSHAPE, "umask", "stream", 6, r1);
	char *before = slurp(rec);
	/* another run's failures (the channel breakage's) not written over it:
	 * refused before anything runs (exit 2, no report), as is a run that
	 * would pass (it exited 0 with nothing recorded) */
	const char *r1b[] = { "--shape", SSHAPE, "--kernels=chan", "--break=channel", "--record-known",
			      rec, NULL };
	snprintf(cmd, sizeof(cmd), "%s/known-a2/report.json", outdir);
	unlink(cmd);
	CHECK_EQ_INT(run("known-a2", r1b), 2, "channel breakage, --record-known of an existing file: exit 2");
	const char *r1c[] = { "--shape", SSHAPE, "--kernels=lock", "--record-known", rec, NULL };
	CHECK_EQ_INT(run("known-a3", r1c), 2, "a passing run, --record-known of an existing file: exit 2");
	snprintf(cmd, sizeof(cmd), "%s/known-a2/report.json", outdir);
	CHECK(access(cmd, F_OK) != 0, "--record-known of an existing file: refused before the run (no report)");
	char *after = slurp(rec);
	CHECK(before && after && strcmp(before, after) == 0 && strstr(after, "stream-copy\tCAS_COUNT.RD") &&
	      !strstr(after, "\nchan\t"),
	      "--record-known does not overwrite: the file still holds the umask run's lines only");
	free(before);
	free(after);
	const char *r2[] = { "--shape", SSHAPE, "--kernels=stream", "--break=umask", "--known", rec, NULL };
	CHECK_EQ_INT(run("known-placeholder", r2), 2, "--known with '?' reasons refused");
	snprintf(cmd, sizeof(cmd), "sed 's/?$/WR umask: counts the writes, half of Copy'\\''s reads/' '%s' > '%s'",
		 rec, filled);
	CHECK(system(cmd) == 0, "fill the reasons");
	const char *r3[] = { "--shape", SSHAPE, "--kernels=stream", "--break=umask", "--known", filled,
			     NULL };
	CHECK_EQ_INT(run("known-b", r3), 0, "--known: understood deviations do not fail the run");
	json_t *j = load("known-b");
	if (j) {
		size_t i, known = 0, other = 0;
		json_t *c;
		json_array_foreach(json_object_get(j, "checks"), i, c) {
			int k = !strcmp(str(c, "result"), "KNOWN");
			known += k && strstr(str(c, "known"), "half of Copy's reads") &&
				 !strcmp(str(c, "kernel"), "stream-copy");
			other += !k && strcmp(str(c, "result"), "PASS");
		}
		CHECK_EQ_INT(known, 6, "--known: Copy's 5 CAS read checks and its read bandwidth KNOWN with the reason");
		CHECK_EQ_INT(other, 0, "--known: no other check not PASS");
		CHECK_EQ_INT(json_integer_value(json_object_get(j, "known")), 6, "JSON known count");
		json_decref(j);
	}
	snprintf(a, sizeof(a), "%s/known-a/report.json", outdir);
	snprintf(b, sizeof(b), "%s/known-b/report.json", outdir);
	snprintf(cmd, sizeof(cmd), "'%s' --compare '%s' '%s' > '%s/compare.out'", prog, a, b, outdir);
	int st = system(cmd);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1, "--compare A B: exit 1 (something changed)");
	snprintf(cmd, sizeof(cmd), "grep -c '^flipped: stream-copy CAS_COUNT.RD .*FAIL -> KNOWN' '%s/compare.out' "
		 "| grep -qx 5 && grep -q '^flipped: stream-copy MEM_BW_READS .*FAIL -> KNOWN' '%s/compare.out' "
		 "&& grep -q '6 flipped, 0 moved' '%s/compare.out'", outdir, outdir, outdir);
	CHECK(system(cmd) == 0, "--compare names the 6 flips and nothing moved");
	snprintf(cmd, sizeof(cmd), "'%s' --compare '%s' '%s' > /dev/null", prog, a, a);
	st = system(cmd);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "--compare A A: exit 0");
	snprintf(cmd, sizeof(cmd), "'%s' --compare '%s' '%s/nonexistent.json' 2>/dev/null", prog, a, outdir);
	st = system(cmd);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2, "--compare with a missing report: exit 2");
}

/* A field of an event changed as a wrong table entry would program it
 * (--break=FIELD:PATTERN): exit 1, nothing skipped, every check whose
 * events include a changed one FAILs (the emulated machine refuses it:
 * the check says why, naming the event), every other check PASSes. */
static void test_break_field(const char *field, const char *pattern, const char *kernels,
			     size_t at_least)
{
	char opt[128], kopt[64], sub[128];
	snprintf(opt, sizeof(opt), "--break=%s:%s", field, pattern);
	snprintf(kopt, sizeof(kopt), "--kernels=%s", kernels);
	snprintf(sub, sizeof(sub), "break-%s-%s", field, pattern);
	const char *args[] = { "--shape", SSHAPE, opt, kopt, SDGEMM, NULL };
	int rc = run(sub, args);
	CHECK(rc == 1, "%s: exit status %d, want 1", opt, rc);
	json_t *j = load(sub);
	if (!j)
		return;
	size_t i, uses = 0, wrong = 0;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c) {
		int use = strstr(str(c, "events"), pattern) != NULL;
		int fail = strcmp(str(c, "result"), "FAIL") == 0;
		const char *refused = str(c, "refused");
		uses += use;
		if (use != fail || (use && (!strstr(refused, pattern) || !strstr(refused, "not modeled") ||
					    !json_is_true(json_object_get(c, "broken"))))) {
			wrong++;
			fprintf(stderr, "  %s: %s %s: %s, refused '%s'\n", opt, str(c, "kernel"),
				str(c, "event"), str(c, "result"), refused);
		}
	}
	CHECK(wrong == 0, "%s: %zu checks not as the breakage implies", opt, wrong);
	CHECK(uses >= at_least, "%s: %zu checks use it (want >= %zu)", opt, uses, at_least);
	json_int_t nf = json_integer_value(json_object_get(j, "failed"));
	json_int_t ns = json_integer_value(json_object_get(j, "skipped_checks"));
	CHECK(nf == (json_int_t)uses, "%s: %lld failed, %zu use it", opt, (long long)nf, uses);
	CHECK(ns == 0, "%s: %lld skipped", opt, (long long)ns);
	json_decref(j);
}

static void test_break(const char *kind, const char *kernels, size_t want)
{
	test_break_on(SSHAPE, "", kind, kernels, want);
}

int main(void)
{
	if (vsuite_init("test_vbreak") != 0)
		return check_done("test_vbreak");
	/* The case: iMC CAS_COUNT's event code changed (was 109
	 * passed, 16 skipped, exit 0), on the kernels that count most CAS
	 * (113 checks; the chase's and DGEMM's use it the same way: make
	 * validate-break runs it on every kernel); and an offcore response's
	 * filter. */
	test_break_field("code", "UNC_M_CAS_COUNT", "stream,numa,chan", 100);
	test_break_field("filter", "OFFCORE_RESPONSE", "chase", 16);
	/* the umask breakage (Copy's CAS reads counted with the WR umask),
	 * recorded, made known and compared */
	test_known_compare();
	test_break("channel", "chan", 1);
	test_break("socket", "numa", 12);
	test_break("wrap", "chase", 3);
	/* The sharing kernels: cpu B's HITM reads of both ping-pongs and the
	 * consumer's (counted with NO_FWD / SNP_FWD instead: 0, 0 and the
	 * clean forwards' count); the home's lookups I|E programmed S|E (the
	 * CBo's one state filter: both of its rows); M victims as E. */
	test_break("snoop", "share", 3);
	test_break("state", "share", 2);
	/* the chase's miss pass (LLC_DRD_MISS_PCT) counting state E for I:
	 * its four miss percentages, 0% (LLC sets) and 100% (memory sets) */
	test_break("state", "chase", 4);
	test_break("victim", "share", 1);
	/* the derived metrics' formulas with a wrong constant: the 28 metric
	 * checks of STREAM (bandwidth), NUMA (bandwidth, QPI data bandwidth
	 * and link utilisation) and the chase (TOR latency, the memory sets'
	 * 100% LLC miss percentage) fail, nothing else (an LLC set's 0% miss
	 * percentage stays 0: --break=state covers it) */
	test_break("metric", "stream,numa,chase", 28);
	test_break_clock();
	test_break("r3", "share", 1);
	test_break("pcu", "power", 2);
	test_break("dram", "dram", 2);
	test_break("lock", "lock", 1);
	test_break("partial", "partial", 2);
	test_break("pfreq", "pfreq", 2);
	test_break_field("code", "UNC_U_LOCK_CYCLES", "lock", 2);
	test_break_field("umask", "IMC_WRITES", "partial", 2);
	/* The same breakages with the four prefetchers on a small machine
	 * (once passed unnoticed): Copy's reads fail their lower bound (the
	 * writes counted instead: half the reads), the wrapped lookups their
	 * per-hop band. */
	test_break_on("llc=512K,cores=2,sockets=1,prefetch=on,l2ways=4", "-pf", "umask", "stream", 6);
	test_break_on("llc=512K,cores=2,sockets=1,prefetch=on", "-pf", "wrap", "chase", 3);
	return check_done("test_vbreak");
}
