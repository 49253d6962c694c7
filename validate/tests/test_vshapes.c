/*
 * test_vshapes.c - the short suite on machine shapes whose expectations
 * must follow the geometry (each gave false FAILs once).
 *
 * Runs pmon-validate ($PMON_VALIDATE; reports under $PMON_VALIDATE_OUT):
 * DGEMM whose C exceeds the LLC, every kernel's memory on the remote
 * socket, a one-socket, six-core, three-channel machine, small and
 * few-way caches, and the adjacent-line prefetcher alone: exit 0, no FAIL,
 * and the expectations and skips the shape implies.
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

/* DGEMM whose C does not fit: a 64 KiB LLC and n = 192 (C alone 288 KiB).
 * Inside a panel the two threads are not in step (one may run a whole panel
 * ahead of the other), so only a thread's own 96 rows of C (144 KiB), its
 * rows of A's panels (48 KiB) and a B panel (96 KiB) surely come between
 * two uses of a C line: 288 KiB, more than twice the LLC.  C is read and
 * written once per panel whatever the threads' timing: the write count is
 * pinned (within 1%, the model's set overflow).  (It ran with a 512 KiB LLC
 * and n = 512, then a 128 KiB LLC and n = 256: C four times the LLC there
 * too, at 19 and 2.4 times the multiply-adds.) */
static void test_dgemm_exceeds(void)
{
	const char *args[] = { "--shape", "cores=4,llc=64K,l1=4K,l2=16K", "--kernels=dgemm",
			       "--dgemm=64,192", NULL };
	int rc = run("dgemm-exceeds", args);
	CHECK_EQ_INT(rc, 0, "dgemm exceeding the LLC: exit status");
	json_t *j = load("dgemm-exceeds");
	if (!j)
		return;
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "failed")), 0, "dgemm exceeding: failed");
	CHECK(count_kernel(json_object_get(j, "checks"), "dgemm-192-exceeds") == 3,
	      "dgemm-192-exceeds: compulsory, reads and writes");
	json_t *w = find_check(j, "dgemm-192-exceeds", "CAS_COUNT.WR s0 nest formula");
	CHECK(w && num(w, "expected") == 192.0 * 192 / 8 * 3 && num(w, "high") <= 1.01 && num(w, "low") >= 0.99,
	      "dgemm-192-exceeds: C written once per panel (3 panels), pinned within 1%%");
	json_decref(j);
}

/* Every kernel's memory on the remote socket, threads on chosen CPUs (the
 * first threads of cores 1 and 3); the smaller SSHAPE: placement does not
 * depend on the cache sizes. */
static void test_place_remote(void)
{
	const char *args[] = { "--shape", SSHAPE, "--place=remote", "--kernels=stream,chase,dgemm,chan",
			       SDGEMM, "--cpus=2,6", NULL };
	int rc = run("place-remote", args);
	CHECK_EQ_INT(rc, 0, "--place=remote: exit status");
	json_t *j = load("place-remote");
	if (!j)
		return;
	json_t *checks = json_object_get(j, "checks"), *c;
	size_t i, remote_dram = 0;
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "failed")), 0, "--place=remote: failed");
	CHECK(count_kernel(checks, "stream-remote-copy") > 0, "remote STREAM checks present");
	CHECK(count_kernel(checks, "dgemm-128-fits-remote") > 0, "remote DGEMM checks present");
	json_array_foreach(checks, i, c)
		remote_dram += strcmp(str(c, "kernel"), "chase-line-mem-remote") == 0 &&
			       strcmp(str(c, "event"), "OFFCORE DMND_DATA_RD.REMOTE_DRAM cpu2") == 0;
	CHECK_EQ_INT(remote_dram, 1, "the memory-level chase counts remote DRAM responses");
	json_decref(j);
}

/* One socket, six cores (six LLC slices of 128 KiB), three channels (the
 * checks it made with a 3 MiB LLC, and later 1.5 MiB, in a quarter of the
 * first's time). */
static void test_shape(void)
{
	const char *args[] = { "--shape", "sockets=1,cores=6,llc=768K,channels=3,l1=16K,l2=64K",
			       "--kernels=stream,chase,chan,clock", NULL };
	int rc = run("shape-1s6c3ch", args);
	CHECK_EQ_INT(rc, 0, "one socket, 6 cores, 3 channels: exit status");
	json_t *j = load("shape-1s6c3ch");
	if (!j)
		return;
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "failed")), 0, "6-core shape: failed");
	/* Three channels: the per-channel checks name ch2 but no ch3. */
	size_t i, ch2 = 0, ch3 = 0;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c) {
		ch2 += strstr(str(c, "event"), " ch2") != NULL;
		ch3 += strstr(str(c, "event"), " ch3") != NULL;
	}
	CHECK(ch2 > 0 && ch3 == 0, "3 channels: %zu ch2 checks, %zu ch3", ch2, ch3);
	json_decref(j);
}

/* A skip counts each check it stands for: on one socket the sharing
 * kernel's parts between sockets (share-pingpong-socket, share-prodcons)
 * are skipped, as many checks as they make on two sockets; with one thread
 * too, every share check.  (Each part was one skip, "1 skipped" for 52
 * checks on the default shape.) */
static void test_share_skips(void)
{
	const char *two[] = { "--shape", QSHAPE, "--kernels=share", NULL };
	const char *one[] = { "--shape", "sockets=1," QSHAPE, "--kernels=share", NULL };
	const char *lone[] = { "--shape", "sockets=1," QSHAPE, "--kernels=share", "--threads=1", NULL };
	CHECK_EQ_INT(run("share-2s", two), 0, "share on two sockets: exit status");
	CHECK_EQ_INT(run("share-1s", one), 0, "share on one socket: exit status");
	CHECK_EQ_INT(run("share-1s1t", lone), 0, "share on one socket, one thread: exit status");
	json_t *j2 = load("share-2s"), *j1 = load("share-1s"), *j0 = load("share-1s1t");
	if (j2 && j1 && j0) {
		json_t *c2 = json_object_get(j2, "checks");
		size_t core = count_kernel(c2, "share-pingpong-core");
		size_t between = count_kernel(c2, "share-pingpong-socket") + count_kernel(c2, "share-prodcons");
		CHECK(core > 0 && between > 0, "two sockets: %zu core and %zu socket/prodcons checks",
		      core, between);
		CHECK_EQ_INT(json_array_size(c2), core + between, "two sockets: only share checks");
		CHECK_EQ_INT(json_integer_value(json_object_get(j2, "skipped_checks")), 0,
			     "two sockets: nothing skipped");
		CHECK_EQ_INT(count_kernel(json_object_get(j1, "checks"), "share-pingpong-core"), core,
			     "one socket: the core ping-pong's checks run");
		CHECK_EQ_INT(json_integer_value(json_object_get(j1, "skipped_checks")), between,
			     "one socket: each check between sockets skipped");
		CHECK_EQ_INT(json_integer_value(json_object_get(j1, "failed")), 0, "one socket: failed");
		CHECK_EQ_INT(json_array_size(json_object_get(j0, "checks")), 0,
			     "one socket, one thread: nothing runs");
		CHECK_EQ_INT(json_integer_value(json_object_get(j0, "skipped_checks")), core + between,
			     "one socket, one thread: each share check skipped");
	} else {
		CHECK(0, "share reports: %s", j2 ? j1 ? "share-1s1t" : "share-1s" : "share-2s");
	}
	json_decref(j2);
	json_decref(j1);
	json_decref(j0);
}

/* Shapes whose expectations must follow the geometry (each gave false FAILs
 * once): exit 0, no FAIL, no check without a measured value or ratio, and
 * the skips that name what about the shape makes a check meaningless. */
static json_t *run_shape_with(const char *sub, const char *shape, const char *kernels, const char *extra)
{
	char kopt[64];
	snprintf(kopt, sizeof(kopt), "--kernels=%s", kernels);
	const char *args[] = { "--shape", shape, kopt, extra, NULL };
	int rc = run(sub, args);
	CHECK(rc == 0, "%s: exit status %d", shape, rc);
	json_t *j = load(sub);
	if (!j)
		return NULL;
	json_int_t nf = json_integer_value(json_object_get(j, "failed"));
	CHECK(nf == 0, "%s: %lld failed checks", shape, (long long)nf);
	size_t i, nonum = 0;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c) {
		if (strcmp(str(c, "result"), "FAIL") == 0)
			fprintf(stderr, "  %s: %s %s FAIL\n", shape, str(c, "kernel"), str(c, "event"));
		nonum += !json_is_number(json_object_get(c, "measured"));
		nonum += strcmp(str(c, "tolerance_kind"), "ratio") == 0 &&
			 !json_is_number(json_object_get(c, "ratio"));
	}
	CHECK(nonum == 0, "%s: %zu checks without a number (nan)", shape, nonum);
	/* Every skip's reason whole (the runner keeps 199 characters). */
	size_t longest = 0;
	json_t *sk;
	json_array_foreach(json_object_get(j, "skipped"), i, sk) {
		size_t len = strlen(json_string_value(sk) ? json_string_value(sk) : "");
		longest = len > longest ? len : longest;
	}
	CHECK(longest < 199, "%s: longest skip reason %zu characters", shape, longest);
	return j;
}

static json_t *run_shape(const char *sub, const char *shape, const char *kernels)
{
	return run_shape_with(sub, shape, kernels, NULL);
}

static void test_shapes(void)
{
	/* 1 MiB LLC: the LLC/4 set is the L2's size.  The L2 decides which
	 * lines reach the LLC: fewer than one a hop, per slice too. */
	json_t *j = run_shape("shape-llc1m", "llc=1M," PF_OFF, "chase");
	if (j) {
		json_t *c = find_check(j, "chase-line-llc", "LLC_LOOKUP.DATA_READ s0 all CBo");
		CHECK(c && num(c, "expected") > 0 && num(c, "expected") < 1 &&
		      strstr(str(c, "why"), "not apart from the L2"),
		      "llc=1M: LLC-level lookups from the L2's overfull sets (%g)",
		      c ? num(c, "expected") : -1);
		json_t *s7 = find_check(j, "chase-page-llc", "LLC_LOOKUP.DATA_READ s0 CBo7");
		CHECK(s7 && c && fabs(num(s7, "expected") * 8 - num(find_check(j, "chase-page-llc",
			"LLC_LOOKUP.DATA_READ s0 all CBo"), "expected")) < 1e-9,
		      "llc=1M: a slice expects an eighth of the lookups");
		json_decref(j);
	}
	j = run_shape("shape-2c-llc1m", "cores=2,llc=1M," PF_OFF, "chase");
	if (j) {
		CHECK(find_check(j, "chase-line-llc", "LLC_LOOKUP.DATA_READ s0 CBo1") != NULL,
		      "cores=2,llc=1M: per-slice checks kept");
		json_decref(j);
	}
	/* 64 KiB LLC, 32 KiB L2: the LLC/4 set (16 KiB) is half the L2:
	 * nothing reaches the LLC, per-slice shares and the latency are
	 * skipped with the reason, the totals expect 0.  Prefetchers on (the
	 * default): 6 LLC sets a slice hold up to 9 lines of a stream's span,
	 * so Add and Triad (3 fetched streams, 27 > 20 ways) have no upper
	 * bound on their reads, Copy with NT stores (1 stream) keeps one.
	 * share: its buffers are whole pages on the smallest LLC too (a
	 * half-page buffer had the rest of its page prefetched: 21 more
	 * forwards than its lines, 7 checks failed). */
	j = run_shape("shape-llc64k", "llc=64K,l2=32K,l1=8K", "stream,dgemm,chase,numa,chan,clock,share");
	if (j) {
		CHECK_EQ_INT(count_skips(j, "chase-line-llc latency", "no hop reaches the LLC", NULL), 1,
			     "llc=64K: line chase latency skipped with its reason");
		CHECK_EQ_INT(count_skips(j, "chase-page-llc latency", "no hop reaches the LLC", NULL), 1,
			     "llc=64K: page chase latency skipped with its reason");
		CHECK_EQ_INT(count_skips(j, "chase-line-llc LLC_LOOKUP", "CBo0-7", "misses the L2"), 1,
			     "llc=64K: per-slice shares skipped with their reason");
		json_t *c = find_check(j, "chase-line-llc", "LLC_LOOKUP.DATA_READ s0 all CBo");
		CHECK(c && strcmp(str(c, "tolerance_kind"), "absolute") == 0 && num(c, "expected") == 0,
		      "llc=64K: LLC-level lookups expected 0");
		CHECK(find_check(j, "chase-line-llc", "LLC_LOOKUP.DATA_READ s0 CBo0") == NULL,
		      "llc=64K: no per-slice check");
		c = find_check(j, "stream-triad", "CAS_COUNT.RD s0 all ch");
		CHECK(c && num(c, "low") == 1 && !json_is_number(json_object_get(c, "high")),
		      "llc=64K, prefetch: Triad's reads at least the compulsory, no upper bound");
		c = find_check(j, "stream-copy-nt", "CAS_COUNT.RD s0 all ch");
		CHECK(c && num(c, "high") > 1 && num(c, "high") < 1.1,
		      "llc=64K, prefetch: Copy NT's reads bounded (%g)", c ? num(c, "high") : -1);
		CHECK(find_check(j, "share-prodcons", "OFFCORE DATA_RD.REMOTE_DRAM.SNP_FWD consumer") != NULL,
		      "llc=64K, prefetch: the producer/consumer forwards checked");
		json_decref(j);
	}
	/* An LLC smaller than the L2: the inclusive LLC caps what the L2 keeps.
	 * 64 KiB: the L2/2 set (128 KiB) is twice the LLC, a memory set; 256
	 * KiB: between a quarter and twice the LLC, not run, with the reason. */
	j = run_shape("shape-llc64k-l2", "llc=64K", "chase");
	if (j) {
		json_t *c = find_check(j, "chase-line-l2", "TOR_INSERTS.MISS_OPCODE(DRd) s0");
		CHECK(c && num(c, "expected") == 1, "llc=64K: the L2/2 set misses the LLC every hop");
		json_decref(j);
	}
	j = run_shape("shape-llc256k", "llc=256K", "chase");
	if (j) {
		CHECK_EQ_INT(count_skips(j, "chase-line-l2: not run", "exceeds a quarter of the LLC", NULL),
			     1, "llc=256K: the L2 chase skipped with its reason");
		CHECK(find_check(j, "chase-line-l2", "TOR_INSERTS.MISS_OPCODE(DRd) s0") == NULL,
		      "llc=256K: no L2 chase check");
		json_decref(j);
	}
	/* Few LLC ways: lines of LLC sets holding more lines than ways miss
	 * every pass (the LLC-level chase expects them, from the page table and
	 * the documented slice hash); DGEMM's nest formula is skipped where the
	 * sets can move it. */
	j = run_shape_with("shape-llcways2", "llcways=2," PF_OFF "," SSHAPE, "chase,dgemm",
			   SDGEMM);
	if (j) {
		json_t *c = find_check(j, "chase-line-llc", "TOR_INSERTS.MISS_OPCODE(DRd) s0");
		CHECK(c && num(c, "expected") > 0 && num(c, "expected") < 0.5,
		      "llcways=2: the LLC-level chase expects misses of overfull LLC sets (%g)",
		      c ? num(c, "expected") : -1);
		c = find_check(j, "chase-line-llc", "TOR_OCC/TOR_INSERTS.OPCODE(DRd) s0 latency");
		CHECK(c && num(c, "expected") > 41 && num(c, "expected") < 216,
		      "llcways=2: latency mixes LLC hits and DRAM misses (%g)", c ? num(c, "expected") : -1);
		CHECK(count_skips(j, "dgemm-", "nest formula: not checked", "2-way LLC sets") >= 1,
		      "llcways=2: DGEMM's nest formula skipped with the reason");
		json_decref(j);
	}
	/* The prefetchers with 2-way L2 sets: a line of Triad's three fetched
	 * streams waits for its use while the others fetch a line into its
	 * set, so no upper bound on STREAM's reads: checked as at least the
	 * compulsory reads (3 arrays of lines: 2 read and an RFO); the writes
	 * stay checked.  (4 ways hold the three: stream_pf_extra's test.) */
	j = run_shape("shape-prefetch-l2ways2", "prefetch=on,l2ways=2," SSHAPE, "stream");
	if (j) {
		json_t *c = find_check(j, "stream-triad", "CAS_COUNT.RD s0 all ch");
		json_t *w = find_check(j, "stream-triad", "CAS_COUNT.WR s0 all ch");
		CHECK(c && w && num(c, "low") == 1 && !json_is_number(json_object_get(c, "high")) &&
		      fabs(num(c, "expected") - 3 * num(w, "expected")) < 1e-9,
		      "prefetch, 2 L2 ways: Triad's reads at least the compulsory 3 lines a line");
		CHECK(count_skips(j, "stream-", "reads", NULL) == 0,
		      "prefetch, 2 L2 ways: no STREAM read check skipped");
		CHECK(find_check(j, "stream-triad", "CAS_COUNT.WR s0 all ch") != NULL,
		      "prefetch, 2 L2 ways: Triad's writes checked");
		json_decref(j);
	}
	/* 4 LLC ways: the lines of overfull LLC sets (from the page table)
	 * miss every pass under the documented true LRU: the LLC level's
	 * misses, DRAM reads and latency have a lower edge above 0 (a measured
	 * 0, or the pure-LLC latency, fails).  A 2 MiB LLC has such sets as a
	 * 4 MiB one did (0.017 and 0.06 misses a hop), its memory-level chase a
	 * third of the CPU time. */
	j = run_shape("shape-llc2m-ways4", "llc=2M,llcways=4," PF_OFF, "chase");
	if (j) {
		const char *ev[] = { "TOR_INSERTS.MISS_OPCODE(DRd) s0", "CAS_COUNT.RD s0 all ch",
				     "OFFCORE DMND_DATA_RD.LOCAL_DRAM cpu0",
				     "TOR_OCC/TOR_INSERTS.OPCODE(DRd) s0 latency" };
		for (int k = 0; k < 2; k++)
			for (int e = 0; e < 4; e++) {
				const char *kn = k ? "chase-page-llc" : "chase-line-llc";
				json_t *c = find_check(j, kn, ev[e]);
				CHECK(c && num(c, "expected") > 0 && num(c, "low") > 0.99,
				      "llc=2M,llcways=4: %s %s lower edge %g x %g", kn, ev[e],
				      c ? num(c, "low") : -1, c ? num(c, "expected") : -1);
			}
		json_decref(j);
	}
	/* Both at once (1 MiB LLC, 2 ways): LLC evictions free L2 ways; the
	 * lookups get a band, the shares that depend on the order are skipped. */
	j = run_shape("shape-llc1m-ways2", "llc=1M,llcways=2," PF_OFF, "chase");
	if (j) {
		CHECK(count_skips(j, "chase-line-llc", "LLC evictions free L2 ways", NULL) >= 1,
		      "llc=1M,llcways=2: order-dependent shares skipped with the reason");
		json_decref(j);
	}
	/* The adjacent-line prefetcher alone: the page chase's demand share
	 * and the channel probe's other channels are exact. */
	j = run_shape("shape-prefetch-adjacent", "prefetch=0xd," SSHAPE, "chase,chan");
	if (j) {
		json_t *c = find_check(j, "chase-page-mem", "OFFCORE DMND_DATA_RD.LOCAL_DRAM cpu0");
		CHECK(c && fabs(num(c, "expected") - 0.5) < 1e-9,
		      "adjacent alone: page chase demand share 1/2 (%g)", c ? num(c, "expected") : -1);
		json_decref(j);
	}
}

int main(void)
{
	if (vsuite_init("test_vshapes") != 0)
		return check_done("test_vshapes");
	test_dgemm_exceeds();
	test_place_remote();
	test_shape();
	test_share_skips();
	test_shapes();
	return check_done("test_vshapes");
}
