/*
 * test_vsuite.c - the short validation suite and the breakage test.
 *
 * Runs pmon-validate ($PMON_VALIDATE; reports under $PMON_VALIDATE_OUT):
 *   1. the quick suite on a small emulated machine: exit 0, no FAIL, every
 *      kernel group present;
 *   2. DGEMM whose C exceeds the LLC, every kernel's memory on the remote
 *      socket, and a one-socket, six-core, three-channel machine: exit 0;
 *   3. each deliberate breakage (--break=umask|channel|socket|wrap|metric): exit 1,
 *      and the checks that FAIL are exactly the ones the breakage affects,
 *      named here from what was broken (not from the run's output).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <math.h>

#include <jansson.h>

#include "check.h"
#include "vtest.h"

extern char **environ;

/* A small machine: 4 cores, 2 MiB LLC, 16 KiB L1, 64 KiB L2 (the chase's
 * levels stay apart), two sockets, four channels. */
#define QSHAPE "cores=4,llc=2M,l1=16K,l2=64K"
/* The shapes that check conflict-set derivations and tiny caches count
 * demand traffic: the prefetchers (on by default) off there; theirs are
 * the shape-prefetch* runs. */
#define PF_OFF "prefetch=off"

static const char *prog, *outdir;

static int run(const char *sub, const char *const *args)
{
	char out[4096];
	const char *argv[32];
	int n = 0, status;
	pid_t pid;

	snprintf(out, sizeof(out), "%s/%s", outdir, sub);
	argv[n++] = prog;
	argv[n++] = "--quick";
	argv[n++] = "--output";
	argv[n++] = out;
	for (int i = 0; args[i] && n < 30; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	fprintf(stderr, "test_vsuite: run %s:", sub);
	for (int i = 1; i < n; i++)
		fprintf(stderr, " %s", argv[i]);
	fprintf(stderr, "\n");
	if (posix_spawn(&pid, prog, NULL, NULL, (char *const *)argv, environ) != 0)
		return -1;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* run() with the program's stdout in outdir/sub.out; its text (malloc'd)
 * in *text. */
static int run_out(const char *sub, const char *const *args, char **text)
{
	static const char *const pre[] = { "--quick", NULL };
	return vtest_run(prog, outdir, "test_vsuite", sub, pre, args, text);
}

static json_t *load(const char *sub)
{
	return vtest_load(outdir, sub);
}

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	return s ? s : "";
}

static int prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static size_t count_kernel(json_t *checks, const char *kprefix)
{
	size_t i, n = 0;
	json_t *c;
	json_array_foreach(checks, i, c)
		n += prefix(str(c, "kernel"), kprefix);
	return n;
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
	json_decref(j);
}

/* DGEMM whose C does not fit: a 512 KiB LLC and n = 512 (C alone 2 MiB).
 * Inside a panel the two threads are not in step (one may run a whole panel
 * ahead of the other), so only a thread's own 256 rows of C, its rows of A's
 * panels and a B panel surely come between two uses of a C line: 1.375 MiB,
 * more than twice the LLC.  C is read and written once per panel whatever
 * the threads' timing.  (n = 384 gives 864 KiB: a C line may stay cached
 * from one panel to the next, and the write count is no longer pinned.) */
static void test_dgemm_exceeds(void)
{
	const char *args[] = { "--shape", "cores=4,llc=512K,l1=16K,l2=64K", "--kernels=dgemm",
			       "--dgemm=128,512", NULL };
	int rc = run("dgemm-exceeds", args);
	CHECK_EQ_INT(rc, 0, "dgemm exceeding the LLC: exit status");
	json_t *j = load("dgemm-exceeds");
	if (!j)
		return;
	CHECK_EQ_INT(json_integer_value(json_object_get(j, "failed")), 0, "dgemm exceeding: failed");
	CHECK(count_kernel(json_object_get(j, "checks"), "dgemm-512-exceeds") == 3,
	      "dgemm-512-exceeds: compulsory, reads and writes");
	json_decref(j);
}

/* Every kernel's memory on the remote socket, threads on chosen CPUs (the
 * first threads of cores 1 and 3). */
static void test_place_remote(void)
{
	const char *args[] = { "--shape", QSHAPE, "--place=remote", "--kernels=stream,chase,dgemm,chan",
			       "--dgemm=128,256", "--cpus=2,6", NULL };
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

static void test_shape(void)
{
	const char *args[] = { "--shape", "sockets=1,cores=6,llc=3M,channels=3,l1=16K,l2=64K",
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

/* Shapes whose expectations must follow the geometry (each gave false FAILs
 * once): exit 0, no FAIL, no check without a measured value or ratio, and
 * the skips that name what about the shape makes a check meaningless. */
static json_t *run_shape(const char *sub, const char *shape, const char *kernels)
{
	char kopt[64];
	snprintf(kopt, sizeof(kopt), "--kernels=%s", kernels);
	const char *args[] = { "--shape", shape, kopt, NULL };
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

/* Skips whose text holds all of a, b (and c if given). */
static size_t count_skips(json_t *j, const char *a, const char *b, const char *c)
{
	size_t i, n = 0;
	json_t *s;
	json_array_foreach(json_object_get(j, "skipped"), i, s) {
		const char *t = json_string_value(s);
		n += t && strstr(t, a) && strstr(t, b) && (!c || strstr(t, c));
	}
	return n;
}

/* The check kernel/event, or NULL. */
static json_t *find_check(json_t *j, const char *kernel, const char *event)
{
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(j, "checks"), i, c)
		if (strcmp(str(c, "kernel"), kernel) == 0 && strcmp(str(c, "event"), event) == 0)
			return c;
	return NULL;
}

static double num(json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
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
	j = run_shape("shape-llcways2", "llcways=2," PF_OFF "," QSHAPE, "chase,dgemm");
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
	j = run_shape("shape-prefetch-l2ways2", "prefetch=on,l2ways=2," QSHAPE, "stream");
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
	 * 0, or the pure-LLC latency, fails). */
	j = run_shape("shape-llc4m-ways4", "llc=4M,llcways=4," PF_OFF, "chase");
	if (j) {
		const char *ev[] = { "TOR_INSERTS.MISS_OPCODE(DRd) s0", "CAS_COUNT.RD s0 all ch",
				     "OFFCORE DMND_DATA_RD.LOCAL_DRAM cpu0",
				     "TOR_OCC/TOR_INSERTS.OPCODE(DRd) s0 latency" };
		for (int k = 0; k < 2; k++)
			for (int e = 0; e < 4; e++) {
				const char *kn = k ? "chase-page-llc" : "chase-line-llc";
				json_t *c = find_check(j, kn, ev[e]);
				CHECK(c && num(c, "expected") > 0 && num(c, "low") > 0.99,
				      "llc=4M,llcways=4: %s %s lower edge %g x %g", kn, ev[e],
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
	/* The four prefetchers (all on, silicon's default): STREAM, the
	 * channel probe and both chase orders are checked, none skipped. */
	j = run_shape("shape-prefetch", "prefetch=on," QSHAPE, "stream,dgemm,chase,numa,chan");
	if (j) {
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
		json_decref(j);
	}
	/* The adjacent-line prefetcher alone: the page chase's demand share
	 * and the channel probe's other channels are exact. */
	j = run_shape("shape-prefetch-adjacent", "prefetch=0xd," QSHAPE, "chase,chan");
	if (j) {
		json_t *c = find_check(j, "chase-page-mem", "OFFCORE DMND_DATA_RD.LOCAL_DRAM cpu0");
		CHECK(c && fabs(num(c, "expected") - 0.5) < 1e-9,
		      "adjacent alone: page chase demand share 1/2 (%g)", c ? num(c, "expected") : -1);
		json_decref(j);
	}
}

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

static void test_break_on(const char *shape, const char *tag, const char *kind, const char *kernels,
			  size_t want)
{
	char opt[64], kopt[64], sub[64];
	snprintf(opt, sizeof(opt), "--break=%s", kind);
	snprintf(kopt, sizeof(kopt), "--kernels=%s", kernels);
	snprintf(sub, sizeof(sub), "break-%s%s", kind, tag);
	const char *args[] = { "--shape", shape, opt, kopt, NULL };
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
	const char *args[] = { "--shape", QSHAPE, opt, kopt, "--dgemm=128,256", NULL };
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
	setenv("PMON_SIM", "cores=4,llc=2M,l2ways=4,prefetch=on,lat_dram=90", 1);
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
	CHECK(json_array_size(cl) == 6 && !strcmp(json_string_value(json_array_get(cl, 5)), "--seed=7"),
	      "command line recorded whole");
	CHECK(json_is_object(sh), "shape from $PMON_SIM recorded");
	CHECK(!strcmp(str(sh, "spec_from"), "$PMON_SIM") &&
	      json_integer_value(json_object_get(sh, "cores")) == 4 &&
	      json_integer_value(json_object_get(sh, "l2_ways")) == 4 &&
	      json_integer_value(json_object_get(sh, "prefetch")) == 0 &&
	      json_integer_value(json_object_get(json_object_get(sh, "latency_ns"), "dram")) == 90 &&
	      json_integer_value(json_object_get(json_object_get(sh, "clocks"), "uclk_hz")) == 2700000000,
	      "shape fields: cores, ways, prefetch, latencies, clocks");
	/* The raw count behind each check: the clock's one event. */
	json_t *k = json_array_get(json_object_get(j, "checks"), 0);
	json_t *cnt = json_array_get(json_object_get(k, "counts"), 0);
	CHECK(cnt && json_integer_value(json_object_get(cnt, "count")) == (json_int_t)num(k, "measured") &&
	      !strcmp(str(cnt, "event"), str(k, "events")), "the check's raw count");
	json_decref(j);
}

/* A fixed seed makes emulated runs identical: the quick suite again gives
 * every count of every check the same (the clocks and the PCU's power
 * kernel aside: they count wall time), as the threads take turns in the seed's order. */
static void test_same_seed(void)
{
	const char *args[] = { "--shape", QSHAPE, "--dgemm=128,256", "--strict", NULL };
	CHECK_EQ_INT(run("quick-again", args), 0, "quick suite again: exit status");
	json_t *a = load("quick"), *b = load("quick-again");
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
	const char *r1[] = { "--shape", QSHAPE, "--kernels=stream", "--break=umask", "--record-known",
			     rec, NULL };
	CHECK_EQ_INT(run("known-a", r1), 1, "umask breakage with --record-known: exit status");
	CHECK_EQ_INT(run("known-a2", r1), 1, "--record-known does not overwrite: still exit 1");
	const char *r2[] = { "--shape", QSHAPE, "--kernels=stream", "--break=umask", "--known", rec, NULL };
	CHECK_EQ_INT(run("known-placeholder", r2), 2, "--known with '?' reasons refused");
	snprintf(cmd, sizeof(cmd), "sed 's/?$/WR umask: counts the writes, half of Copy'\\''s reads/' '%s' > '%s'",
		 rec, filled);
	CHECK(system(cmd) == 0, "fill the reasons");
	const char *r3[] = { "--shape", QSHAPE, "--kernels=stream", "--break=umask", "--known", filled,
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

static void test_break(const char *kind, const char *kernels, size_t want)
{
	test_break_on(QSHAPE, "", kind, kernels, want);
}

int main(void)
{
	prog = getenv("PMON_VALIDATE");
	outdir = getenv("PMON_VALIDATE_OUT");
	if (!prog || !outdir) {
		fprintf(stderr, "test_vsuite: set PMON_VALIDATE (the program) and PMON_VALIDATE_OUT\n");
		CHECK(0, "environment");
		return check_done("test_vsuite");
	}
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", outdir);
	CHECK(system(cmd) == 0, "mkdir %s", outdir);
	test_quick();
	test_same_seed();
	test_dgemm_exceeds();
	test_place_remote();
	test_shape();
	test_shapes();
	/* 4 channels: Copy's RD total and 4 channel checks; the probe's ch1;
	 * the remote Triad's RD and WR totals and 4 + 4 channel checks at the
	 * home socket; the chase's slice sum and CBo0. */
	test_strict();
	test_record();
	test_list();
	test_lose();
	test_known_compare();
	/* The case: iMC CAS_COUNT's event code changed (was 109
	 * passed, 16 skipped, exit 0); and an offcore response's filter. */
	test_break_field("code", "UNC_M_CAS_COUNT", "stream,numa,chase,dgemm,chan", 100);
	test_break_field("filter", "OFFCORE_RESPONSE", "chase", 16);
	test_break("umask", "stream", 6);
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
	test_break_on("llc=2M,cores=2,sockets=1,prefetch=on,l2ways=4", "-pf", "umask", "stream", 6);
	test_break_on("llc=2M,cores=2,sockets=1,prefetch=on", "-pf", "wrap", "chase", 3);
	return check_done("test_vsuite");
}
