/*
 * papi_read.c - what PAPI_read costs a PAPI user of the pmon component on
 * the emulated machine (PMON_BACKEND=sim, the machine from PMON_SIM), beside
 * PAPI's example component in the same PAPI and the same run: median ns per
 * PAPI_read for sets of 1..16 pmon events (iMC counters, in PCI space; CBo
 * counters, MSRs) and 1..3 example events; the cost of each further event;
 * and the resident memory of this program against a PAPI program that uses
 * the example component only (pmon disabled; a child process).  Then one
 * event of each kind of box the emulated machine serves (PCI blocks, CBo,
 * PCU and UBox MSRs, a core PMU's offcore response), each read alone.  Beside them,
 * what the fixed steps of every emulated read cost on this machine: a TSC
 * read (the machine's look at the wall clock) and an atomic add (its count
 * of accesses); a read takes no lock when nothing needs one (doc/internals.md), and
 * an uncontended mutex lock and unlock is printed for comparison.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "papi.h"
#include "bench.h"

#define BATCHES 9
#define READS 20000

static const char *const example_events[] = {
	"example:::EXAMPLE_CONSTANT", "example:::EXAMPLE_AUTOINC", "example:::EXAMPLE_ZERO",
};

/* The k-th iMC event (PCI): CAS RD, CAS WR, ACT, PRE PAGE_MISS on channels 0-3. */
static void imc_event(int k, char *buf, size_t len)
{
	static const char *const ev[] = {
		"UNC_M_CAS_COUNT:RD", "UNC_M_CAS_COUNT:WR", "UNC_M_ACT_COUNT", "UNC_M_PRE_COUNT:PAGE_MISS",
	};
	snprintf(buf, len, "pmon:::snbep_unc_imc%d::%s:socket=0", k % 4, ev[k / 4]);
}

/* The k-th CBo event (MSR): clockticks of CBo 0-7 on socket 0, then 1. */
static void cbo_event(int k, char *buf, size_t len)
{
	snprintf(buf, len, "pmon:::snbep_unc_cbo%d::UNC_C_CLOCKTICKS:socket=%d", k % 8, k / 8);
}

/* One event of each kind of box, read alone. */
static const char *const kind_events[][2] = {
	{ "iMC", "pmon:::snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0" },
	{ "CBo", "pmon:::snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0" },
	{ "PCU", "pmon:::snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0" },
	{ "UBox", "pmon:::snbep_unc_ubo::UNC_U_CLOCKTICKS:socket=0" },
	{ "offcore", "pmon:::snb_ep::OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM:cpu=0" },
};
#define NKINDS ((int)(sizeof(kind_events) / sizeof(kind_events[0])))

static void kind_event(int k, char *buf, size_t len)
{
	snprintf(buf, len, "%s", kind_events[k][1]);
}

static void example_event(int k, char *buf, size_t len)
{
	snprintf(buf, len, "%s", example_events[k]);
}

/* An event set of the first n events of gen, or -1 when it cannot be built. */
static int build(void (*gen)(int, char *, size_t), int n)
{
	int es = PAPI_NULL, rc;
	char name[PAPI_MAX_STR_LEN];

	if (PAPI_create_eventset(&es) != PAPI_OK)
		return -1;
	for (int k = 0; k < n; k++) {
		gen(k, name, sizeof name);
		if ((rc = PAPI_add_named_event(es, name)) != PAPI_OK) {
			fprintf(stderr, "papi_read: %s: %s\n", name, PAPI_strerror(rc));
			PAPI_cleanup_eventset(es);
			PAPI_destroy_eventset(&es);
			return -1;
		}
	}
	return es;
}

/* ns per PAPI_read of set es over READS reads (started, warmed up, then
 * stopped: one set of a component runs at a time); -1 when it cannot run. */
static double time_reads(int es)
{
	long long v[64];

	if (es < 0 || PAPI_start(es) != PAPI_OK)
		return -1;
	for (int i = 0; i < 1000; i++)
		PAPI_read(es, v);
	uint64_t t0 = bench_ns();
	for (int i = 0; i < READS; i++)
		PAPI_read(es, v);
	double ns = (double)(bench_ns() - t0) / READS;
	PAPI_stop(es, v);
	return ns;
}

/* Resident memory (KiB) of a PAPI program that counts with the example
 * component only, measured in a child; -1 on failure. */
static long example_only_rss(void)
{
	int fd[2];
	long kib = -1;
	pid_t pid;

	if (pipe(fd))
		return -1;
	if ((pid = fork()) == 0) {
		int es = PAPI_NULL;
		long long v[4];

		close(fd[0]);
		PAPI_disable_component_by_name("pmon");
		if (PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT &&
		    PAPI_create_eventset(&es) == PAPI_OK &&
		    PAPI_add_named_event(es, example_events[0]) == PAPI_OK &&
		    PAPI_start(es) == PAPI_OK && PAPI_read(es, v) == PAPI_OK)
			kib = bench_status_kib("VmRSS:");
		if (write(fd[1], &kib, sizeof kib) != sizeof kib)
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (pid > 0 && read(fd[0], &kib, sizeof kib) != sizeof kib)
		kib = -1;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return kib;
}

/* Median ns of one uncontended lock + unlock, of one TSC read (0 where
 * there is none) and of one atomic add. */
static void floor_ns(double *mutex_ns, double *tsc_ns, double *add_ns)
{
	enum { N = 1000000 };
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	double m[BATCHES], t[BATCHES], ad[BATCHES];
	volatile uint64_t sink = 0;
	uint64_t count = 0;

	for (int b = 0; b < BATCHES; b++) {
		uint64_t t0 = bench_ns();
		for (int i = 0; i < N; i++) {
			pthread_mutex_lock(&mu);
			sink++;
			pthread_mutex_unlock(&mu);
		}
		m[b] = (double)(bench_ns() - t0) / N;
		t0 = bench_ns();
#if defined(__x86_64__) || defined(__i386__)
		for (int i = 0; i < N; i++)
			sink += __builtin_ia32_rdtsc();
		t[b] = (double)(bench_ns() - t0) / N;
#else
		t[b] = 0;
#endif
		t0 = bench_ns();
		for (int i = 0; i < N; i++)
			__atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
		ad[b] = (double)(bench_ns() - t0) / N;
	}
	sink += count;
	*mutex_ns = bench_median(m, BATCHES);
	*tsc_ns = bench_median(t, BATCHES);
	*add_ns = bench_median(ad, BATCHES);
}

static void cell(double ns)
{
	if (ns < 0)
		printf(" %12s", "-");
	else
		printf(" %12.1f", ns);
}

int main(void)
{
	static const int sizes[] = { 1, 2, 3, 4, 8, 16 };
	/* sets[kind][size]: kind 0 iMC, 1 CBo, 2 example (sizes 1-3 only) */
	void (*const gen[3])(int, char *, size_t) = { imc_event, cbo_event, example_event };
	int sets[3][6];
	double t[3][6][BATCHES], med[3][6], r_imc[BATCHES], r_cbo[BATCHES];
	long base_kib = example_only_rss();

	setenv("PMON_BACKEND", "sim", 0);
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		fprintf(stderr, "papi_read: PAPI_library_init failed\n");
		return 1;
	}
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < 6; i++)
			sets[k][i] = k < 2 || sizes[i] <= 3 ? build(gen[k], sizes[i]) : -1;
	/* batch by batch, every set in turn: the host's speed drifts (runs
	 * and stretches of one run can be 30-45 % apart), so a ratio is taken
	 * within a batch, of times a few ms apart */
	for (int b = 0; b < BATCHES; b++)
		for (int i = 0; i < 6; i++)
			for (int k = 0; k < 3; k++)
				t[k][i][b] = time_reads(sets[k][i]);
	for (int b = 0; b < BATCHES; b++) {
		r_imc[b] = t[0][0][b] / t[2][0][b];
		r_cbo[b] = t[1][0][b] / t[2][0][b];
	}
	for (int k = 0; k < 3; k++)
		for (int i = 0; i < 6; i++) {
			med[k][i] = sets[k][i] < 0 ? -1 : bench_median(t[k][i], BATCHES);
			if (sets[k][i] >= 0) {
				PAPI_cleanup_eventset(sets[k][i]);
				PAPI_destroy_eventset(&sets[k][i]);
			}
		}
	double *imc = med[0], *cbo = med[1], *ex = med[2];
	printf("PAPI_read, median ns per call (PMON_BACKEND=%s, PMON_SIM=\"%s\")\n",
	       getenv("PMON_BACKEND"), getenv("PMON_SIM") ? getenv("PMON_SIM") : "");
	printf("%8s %12s %12s %12s\n", "events", "pmon iMC", "pmon CBo", "example");
	for (int i = 0; i < 6; i++) {
		printf("%8d", sizes[i]);
		cell(imc[i]);
		cell(cbo[i]);
		cell(ex[i]);
		printf("\n");
	}
	printf("%8s", "+1 event");
	cell(imc[5] >= 0 && imc[0] >= 0 ? (imc[5] - imc[0]) / 15 : -1);
	cell(cbo[5] >= 0 && cbo[0] >= 0 ? (cbo[5] - cbo[0]) / 15 : -1);
	cell(ex[2] >= 0 && ex[0] >= 0 ? (ex[2] - ex[0]) / 2 : -1);
	printf("   (1 to 16 events; example: 1 to 3)\n");
	if (ex[0] > 0 && imc[0] > 0 && cbo[0] > 0)
		printf("1 event, pmon / example (median of %d same-batch ratios): iMC %.1fx, CBo %.1fx"
		       "   (target: <= 3x; +1 event <= 15 ns)\n", BATCHES, bench_median(r_imc, BATCHES),
		       bench_median(r_cbo, BATCHES));
	/* one event of each kind, each alone, batch by batch in turns */
	double tk[NKINDS][BATCHES];
	int kset[NKINDS];
	for (int k = 0; k < NKINDS; k++) {
		char name[PAPI_MAX_STR_LEN];
		int es = PAPI_NULL;
		kind_event(k, name, sizeof name);
		kset[k] = PAPI_create_eventset(&es) == PAPI_OK &&
			  PAPI_add_named_event(es, name) == PAPI_OK ? es : -1;
	}
	for (int b = 0; b < BATCHES; b++)
		for (int k = 0; k < NKINDS; k++)
			tk[k][b] = time_reads(kset[k]);
	printf("1 event of each kind, median ns per PAPI_read:");
	for (int k = 0; k < NKINDS; k++) {
		printf(" %s", kind_events[k][0]);
		if (kset[k] < 0)
			printf(" -");
		else
			printf(" %.1f", bench_median(tk[k], BATCHES));
		printf(k + 1 < NKINDS ? "," : "\n");
		if (kset[k] >= 0) {
			PAPI_cleanup_eventset(kset[k]);
			PAPI_destroy_eventset(&kset[k]);
		}
	}
	double mutex_ns, tsc_ns, add_ns;
	floor_ns(&mutex_ns, &tsc_ns, &add_ns);
	printf("fixed steps of an emulated read: TSC read %.1f ns, atomic add %.1f ns", tsc_ns, add_ns);
	if (ex[0] > 0)
		printf("; with the example's read: %.1f ns", tsc_ns + add_ns + ex[0]);
	printf(" (no lock taken; a mutex lock+unlock costs %.1f ns)\n", mutex_ns);
	printf("resident memory: this program %.1f MiB (peak %.1f MiB), an example-only PAPI program %.1f MiB"
	       "   (target: <= 10 MiB)\n",
	       bench_status_kib("VmRSS:") / 1024.0, bench_status_kib("VmHWM:") / 1024.0, base_kib / 1024.0);
	PAPI_shutdown();
	return 0;
}
