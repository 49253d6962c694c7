/*
 * test_vgen_small.c - the smaller experiments' Nehalem-EP / Westmere-EP
 * expectations (gen_nhm_partial.c, gen_dram.c, gen_nhm_share.c, gen_chan.c,
 * gen_nhm_pfreq.c)
 * on the emulated machines (PMON_SIM gen=nhm-ep, gen=wsm-ep): every check
 * passes and counts the generation's own PMUs, and the per-box lines are
 * the generation's (its uncore PMU, the core; no SNB-EP box); and each breakage fails
 * exactly the checks it mis-programs (the report's broken mark), no other.
 */
#include <string.h>

#include "vsuite.h"

/* 2 cores, a 1 MiB LLC: the suite's small shape of the generation. */
#define NSHAPE ",cores=2,llc=1M,l1=16K,l2=64K"

static void test_pass(const char *gen, const char *kernels, const char *unc, const char *core,
		      const char *const *groups, size_t ngroups, size_t want)
{
	char shape[96], sub[48], kopt[64];
	snprintf(shape, sizeof(shape), "gen=%s" NSHAPE, gen);
	snprintf(sub, sizeof(sub), "small-%s", gen);
	snprintf(kopt, sizeof(kopt), "--kernels=%s", kernels);
	const char *args[] = { "--shape", shape, kopt, "--strict", NULL };
	int rc = run(sub, args);
	CHECK(rc == 0, "%s: exit status %d, want 0", gen, rc);
	json_t *j = load(sub);
	if (!j)
		return;
	json_t *checks = json_object_get(j, "checks"), *c;
	long long nf = json_integer_value(json_object_get(j, "failed"));
	CHECK(nf == 0, "%s: %lld failed checks", gen, nf);
	CHECK(json_array_size(checks) == want, "%s: %zu checks, want %zu", gen, json_array_size(checks),
	      want);
	for (size_t g = 0; g < ngroups; g++)
		CHECK(count_kernel(checks, groups[g]) > 0, "%s: checks of %s", gen, groups[g]);
	size_t i, other = 0;
	json_array_foreach(checks, i, c)
		if (!prefix(str(c, "events"), unc) && !prefix(str(c, "events"), core)) {
			other++;
			fprintf(stderr, "  %s: %s %s counts %s\n", gen, str(c, "kernel"), str(c, "event"),
				str(c, "events"));
		}
	CHECK(other == 0, "%s: %zu checks counting another PMU's events", gen, other);
	/* the per-box lines are the generation's: its uncore PMU (as many
	 * checks as count its events) and the core PMU, no SNB-EP box */
	size_t nunc = 0, nb = 0;
	json_array_foreach(checks, i, c)
		nunc += strstr(str(c, "events"), unc) != NULL;
	char type[32];
	snprintf(type, sizeof(type), "%.*s", (int)strcspn(unc, ":"), unc);
	json_array_foreach(json_object_get(j, "boxes"), i, c) {
		const char *b = str(c, "box");
		long long n = json_integer_value(json_object_get(c, "checks"));
		nb++;
		if (!strcmp(b, type))
			CHECK(n == (long long)nunc && nunc > 0, "%s: box %s: %lld checks, want %zu", gen, b, n,
			      nunc);
		else
			CHECK(!strcmp(b, "core"), "%s: box %s is not this generation's", gen, b);
	}
	CHECK(nb == 2, "%s: %zu per-box lines, want 2 (%s and core)", gen, nb, type);
	json_decref(j);
}

/* The breakage brk on gen running kernels: exit 1, every check that counts
 * a mis-programmed event (broken) FAILs, every other passes; want broken. */
static void test_break(const char *gen, const char *kernels, const char *brk, size_t want)
{
	char shape[96], sub[96], kopt[64], bopt[96];
	snprintf(shape, sizeof(shape), "gen=%s" NSHAPE, gen);
	snprintf(sub, sizeof(sub), "small-break-%s-%s", gen, brk);
	for (char *p = sub; *p; p++)
		if (*p == ':')
			*p = '-';
	snprintf(kopt, sizeof(kopt), "--kernels=%s", kernels);
	snprintf(bopt, sizeof(bopt), "--break=%s", brk);
	const char *args[] = { "--shape", shape, kopt, bopt, NULL };
	int rc = run(sub, args);
	CHECK(rc == 1, "%s %s: exit status %d, want 1", gen, brk, rc);
	json_t *j = load(sub);
	if (!j)
		return;
	size_t i, broken = 0, wrong = 0;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c) {
		int b = json_is_true(json_object_get(c, "broken"));
		int fail = strcmp(str(c, "result"), "FAIL") == 0;
		broken += b;
		if (b != fail) {
			wrong++;
			fprintf(stderr, "  %s %s: %s %s: %s, broken %d\n", gen, brk, str(c, "kernel"),
				str(c, "event"), str(c, "result"), b);
		}
	}
	CHECK(wrong == 0, "%s %s: %zu checks not as the breakage implies", gen, brk, wrong);
	CHECK(broken == want, "%s %s: %zu checks it mis-programs, want %zu", gen, brk, broken, want);
	json_decref(j);
}

int main(void)
{
	if (vsuite_init("test_vgen_small") == 0) {
		static const char *const groups[] = { "partial-nt", "dram-rowhit", "dram-rowmiss",
						      "dram-write", "share-pingpong-core",
						      "share-pingpong-socket", "share-prodcons", "chan",
						      "pf-load-pairs", "pf-store-line" };
		/* partial 5; dram 4 + 2 (the row-miss CAS and reads not
		 * checked with the prefetchers on) + 4; share 5 + 4 + 12 + 8;
		 * chan one a channel; pfreq 4 */
		test_pass("nhm-ep", "partial,dram,share,chan,pfreq", "nhm_unc::", "nhm::", groups, 10, 51);
		test_pass("wsm-ep", "partial,dram,share,chan,pfreq", "wsm_unc::", "wsm_dp::", groups, 10,
			  51);
		/* partial writes programmed as full ones; the merge reads'
		 * channel 0 dropped from the umask */
		test_break("nhm-ep", "partial", "partial", 1);
		test_break("wsm-ep", "partial", "umask:UNC_DRAM_READ_CAS", 1);
		/* the write CAS counted as read CAS; channel 0's activates
		 * dropped from the umask (of the row-miss probe: none left) */
		test_break("nhm-ep", "dram", "dram", 1);
		test_break("wsm-ep", "dram", "umask:UNC_DRAM_OPEN", 3);
		/* a core's HITM reads counted as clean hits, the home's HITM
		 * responses as the remote home's; the snoops' transitions
		 * with their umask's bit cleared (none left) */
		test_break("nhm-ep", "share", "snoop", 2);
		test_break("wsm-ep", "share", "umask:UNC_GQ_SNOOP", 4);
		/* the producer's Modified victims counted as Exclusive ones */
		test_break("wsm-ep", "share", "victim", 1);
		/* the probed channel's reads counted on the next channel; each
		 * channel's umask bit cleared (none left) */
		test_break("nhm-ep", "chan", "channel", 1);
		test_break("wsm-ep", "chan", "umask:NORMAL_READS", 3);
		/* the prefetches counted with the demand; the prefetched
		 * reads' request bit cleared from the offcore filter */
		test_break("nhm-ep", "pfreq", "pfreq", 2);
		test_break("wsm-ep", "pfreq", "filter:PF_DATA_RD", 1);
	}
	return check_done("test_vgen_small");
}
