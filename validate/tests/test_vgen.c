/*
 * test_vgen.c - the short suite on the second generation: the emulated
 * Nehalem-EP and Westmere-EP machines (PMON_SIM gen=nhm-ep, gen=wsm-ep), a
 * small shape, the local STREAM kernels with and without streaming stores,
 * the remote Triad, the chase, DGEMM and the clock, and the breakages that
 * must fail exactly the checks they mis-program; every metric of the
 * generation's pmon stat tables (src/nhm/metrics.c) checked and passing,
 * and each failing with its formula's constant doubled (--break=metric).
 */
#include <math.h>
#include <string.h>

#include <pmon/metric.h>

#include "vsuite.h"

/* 2 cores, a 512 KiB LLC, 16 KiB L1 and 64 KiB L2: the chase's levels
 * apart, small arrays; DGEMM n = 64 fits the LLC (0.2 x), n = 192 exceeds
 * it (1.7 x).  (A 1 MiB LLC with n = 128 and 256 took 1.8 times the CPU.) */
#define NSHAPE ",cores=2,llc=512K,l1=16K,l2=64K"
#define NKERNELS "--kernels=stream,numa,chase,dgemm,clock"

/* Every check passes; each kernel group is there; the events are the
 * generation's own (its uncore PMU, its core PMU), none of SNB-EP's. */
/* The metric a check is of (its event's first word), of generation
 * gname; -1 if the check is of counts. */
static int metric_of(json_t *c, const char *gname)
{
	char name[64];
	const char *ev = str(c, "event");
	size_t l = strcspn(ev, " ");
	if (l >= sizeof(name))
		return -1;
	memcpy(name, ev, l);
	name[l] = 0;
	for (int i = 0; i < pmon_metric_count(); i++) {
		pmon_metric_info_t mi;
		pmon_metric_get(i, &mi);
		if (!strcmp(mi.generation, gname) && !strcmp(mi.name, name))
			return i;
	}
	return -1;
}

static void test_gen(const char *gen, const char *unc, const char *core, const char *gname)
{
	char shape[96], sub[32];
	snprintf(shape, sizeof(shape), "gen=%s" NSHAPE, gen);
	snprintf(sub, sizeof(sub), "gen-%s", gen);
	const char *args[] = { "--shape", shape, NKERNELS, "--dgemm=64,192", "--strict", NULL };
	CHECK_EQ_INT(run(sub, args), 0, "short suite exit status");
	json_t *j = load(sub);
	if (!j)
		return;
	json_t *checks = json_object_get(j, "checks");
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "failed")), 0, "failed checks");
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "planned_checks")), json_array_size(checks),
		     "as many checks as planned");
	const char *groups[] = { "stream-copy", "stream-add", "stream-triad-nt", "stream-scale-nt",
				 "numa-remote-triad", "chase-line-l1", "chase-line-llc", "chase-page-mem",
				 "chase-line-mem-remote", "dgemm-64-fits", "dgemm-192-exceeds", "clock" };
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
		CHECK(count_kernel(checks, groups[g]) > 0, "%s: checks of %s", gen, groups[g]);
	size_t i, i_, other = 0;
	json_t *c;
	json_array_foreach(checks, i, c) {
		const char *ev = str(c, "events");
		other += strstr(ev, "snbep_") != NULL || strstr(ev, "snb_ep::") != NULL;
		if (!prefix(ev, unc) && !prefix(ev, core)) {
			other++;
			fprintf(stderr, "  %s: %s %s counts %s\n", gen, str(c, "kernel"), str(c, "event"), ev);
		}
	}
	CHECK_EQ_INT(other, 0, "checks counting another generation's events");
	/* the guide's quantities, each checked and passing */
	const char *want[][2] = {
		{ "stream-copy", "uncacheable writes (QHL_RD local+remote - IMC_RD) s0" },
		/* streaming stores: their InvItoE among the QHL reads, none
		 * among the local writes (Table 39), and the offcore erratum */
		{ "stream-copy-nt", "uncacheable writes (QHL_RD local+remote - IMC_RD) s0" },
		{ "stream-copy-nt", "QHL_REQUESTS.LOCAL_WRITES s0" },
		{ "stream-triad-nt", "OFFCORE OTHER.OTHER_CORE_HIT_SNP (0x280) streaming stores, kernel CPUs" },
		{ "numa-remote-triad", "QHL_REQUESTS.REMOTE_READS s1 (home)" },
		{ "numa-remote-triad", "IMC_NORMAL_READS.CH2 s1 (quarter)" },
		{ "numa-remote-triad", "uncacheable writes (QHL_RD local+remote - IMC_RD) s1" },
		{ "chase-line-mem", "LLC_MISS.READ s0" },
		{ "chase-line-mem", "QHL_OCCUPANCY.LOCAL/QHL_REQUESTS.LOCAL_READS s0 latency" },
		/* pmon stat's metrics: bandwidth from the kernel's bytes, the
		 * guide's identity in bytes, the home's latencies */
		{ "stream-copy", "MEM_BW_READS s0" },
		{ "stream-triad-nt", "UNCACHEABLE_WRITE_BYTES s0" },
		{ "numa-remote-triad", "QHL_PCT_REMOTE_REQUESTS s1" },
		{ "numa-remote-triad", "MEM_BW_TOTAL_CH2 s1 (quarter)" },
		{ "chase-page-mem", "QHL_LOCAL_READ_LATENCY s0" },
		{ "chase-line-mem-remote", "QHL_REMOTE_READ_LATENCY s1" },
		{ "chase-page-mem", "GQ_READ_LATENCY s0" },
		{ "clock", NULL },
	};
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		if (!want[k][1])
			continue;
		c = find_check(j, want[k][0], want[k][1]);
		CHECK(c && strcmp(str(c, "result"), "PASS") == 0, "%s: %s %s: %s", gen, want[k][0],
		      want[k][1], c ? str(c, "result") : "missing");
	}
	/* every metric of the generation checked, and passing */
	int nm = 0, unchecked = 0;
	for (int i = 0; i < pmon_metric_count(); i++) {
		pmon_metric_info_t mi;
		pmon_metric_get(i, &mi);
		if (strcmp(mi.generation, gname))
			continue;
		nm++;
		size_t passed = 0;
		json_array_foreach(checks, i_, c)
			passed += metric_of(c, gname) == i && !strcmp(str(c, "result"), "PASS");
		if (!passed) {
			unchecked++;
			fprintf(stderr, "  %s: metric %s not checked\n", gen, mi.name);
		}
	}
	CHECK(nm >= 27, "%s: %d metrics of %s", gen, nm, gname);
	CHECK(unchecked == 0, "%s: %d metrics no check validates", gen, unchecked);
	json_decref(j);
}

/* --break=metric: every metric computed with its formula's first constant
 * doubled (a wrong 64 B a line, ns conversion, 100 %): each metric check
 * that expects a value FAILs, marked broken; every other check PASSes
 * (a metric expecting none reads 0 either way). */
static void test_gen_break_metric(const char *gen, const char *gname, int want_fail)
{
	char shape[96], sub[48];
	snprintf(shape, sizeof(shape), "gen=%s" NSHAPE, gen);
	snprintf(sub, sizeof(sub), "gen-break-metric-%s", gen);
	const char *args[] = { "--shape", shape, "--kernels=stream,numa,chase", "--break=metric", NULL };
	int rc = run(sub, args);
	CHECK(rc == 1, "%s: metric breakage exit status %d, want 1", gen, rc);
	json_t *j = load(sub);
	if (!j)
		return;
	size_t i, nfail = 0, wrong = 0;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c) {
		int fail = strcmp(str(c, "result"), "FAIL") == 0;
		int metric = metric_of(c, gname) >= 0, expects = num(c, "expected") != 0;
		int broken = json_is_true(json_object_get(c, "broken"));
		nfail += fail;
		if (fail != (metric && expects) || broken != (metric && expects)) {
			wrong++;
			fprintf(stderr, "  break metric %s: %s %s: %s broken %d\n", gen, str(c, "kernel"),
				str(c, "event"), str(c, "result"), broken);
		}
	}
	CHECK(wrong == 0, "%s: metric breakage: %zu checks not as it implies", gen, wrong);
	CHECK((int)nfail == want_fail, "%s: metric breakage: %zu failed checks, want %d", gen, nfail,
	      want_fail);
	json_decref(j);
}

/* --break=socket: the remote Triad's home events counted on the
 * requester (marked broken): each such check that expects traffic FAILs,
 * every check without a broken event PASSes.  (A broken check expecting
 * none, the identity or the home's local requests, reads 0 on either
 * socket.)  --break=umask:UNC_LLC_MISS: the LLC misses' umask cleared as a
 * wrong table entry would program it; the emulated machine refuses it, and
 * exactly the checks that count it FAIL. */
static void test_gen_break(void)
{
	const char *a1[] = { "--shape", "gen=nhm-ep" NSHAPE, "--kernels=numa", "--break=socket", NULL };
	CHECK_EQ_INT(run("gen-break-socket", a1), 1, "socket breakage exit status");
	json_t *j = load("gen-break-socket");
	size_t i, nfail = 0, wrong = 0;
	json_t *c;
	if (j) {
		json_array_foreach(json_object_get(j, "checks"), i, c) {
			int fail = strcmp(str(c, "result"), "FAIL") == 0;
			int broken = json_is_true(json_object_get(c, "broken"));
			/* a share of the home's requests has no value (0 / 0)
			 * when they are all counted on the wrong socket */
			int traffic = num(c, "expected") > 0 || json_is_null(json_object_get(c, "measured"));
			nfail += fail;
			if (fail != (broken && traffic)) {
				wrong++;
				fprintf(stderr, "  break socket: %s %s: %s broken %d\n", str(c, "kernel"),
					str(c, "event"), str(c, "result"), broken);
			}
		}
		CHECK_EQ_INT(wrong, 0, "socket breakage: checks not as it implies");
		/* IMC reads and writes, QHL remote reads and writes at the
		 * home, 3 + 3 channels; their metrics: MEM_BW_READS, _WRITES,
		 * _TOTAL, QHL_BW_REMOTE_READS, _WRITES, QHL_BW_REMOTE, the
		 * three QHL_PCT_* (no value: no request counted) and 9 of the
		 * channels */
		CHECK_EQ_INT(nfail, 28, "socket breakage: failed checks");
		json_decref(j);
	}
	const char *a2[] = { "--shape", "gen=wsm-ep" NSHAPE, "--kernels=chase",
			     "--break=umask:UNC_LLC_MISS", NULL };
	CHECK_EQ_INT(run("gen-break-umask", a2), 1, "umask breakage exit status");
	j = load("gen-break-umask");
	size_t uses = 0;
	wrong = 0;
	if (j) {
		json_array_foreach(json_object_get(j, "checks"), i, c) {
			int use = strstr(str(c, "events"), "UNC_LLC_MISS") != NULL;
			int fail = strcmp(str(c, "result"), "FAIL") == 0;
			uses += use;
			if (use != fail || (use && !strstr(str(c, "refused"), "UNC_LLC_MISS"))) {
				wrong++;
				fprintf(stderr, "  break umask: %s %s: %s\n", str(c, "kernel"),
					str(c, "event"), str(c, "result"));
			}
		}
		CHECK_EQ_INT(wrong, 0, "umask breakage: checks not as it implies");
		/* lookups (hits + misses) and misses of each of the 8 chases
		 * (line and page orders, 4 levels; the remote one needs numa),
		 * and LLC_READ_MISS_PCT of the 4 whose lookups reach the LLC */
		CHECK_EQ_INT(uses, 20, "umask breakage: checks that count UNC_LLC_MISS");
		CHECK_EQ_INT(json_integer_value(json_object_get(j, "skipped_checks")), 0, "skipped");
		json_decref(j);
	}
}

int main(void)
{
	if (vsuite_init("test_vgen") == 0) {
		test_gen("nhm-ep", "nhm_unc::", "nhm::", "nhm");
		test_gen("wsm-ep", "wsm_unc::", "wsm_dp::", "wsm");
		test_gen_break();
		test_gen_break_metric("nhm-ep", "nhm", 177);
		test_gen_break_metric("wsm-ep", "wsm", 168);
	}
	return check_done("test_vgen");
}
