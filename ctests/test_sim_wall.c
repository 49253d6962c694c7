/*
 * test_sim_wall.c - emulated time that follows the wall clock: clock=wall
 * moves at every register access and pmon_sim_now_ns, explicit advances add
 * on top; clock=auto hands over to the program at its first advance or
 * traffic call; clock=manual never moves by itself; the load= stream issues
 * exactly floor(t * rate / 64e9) lines through the normal traffic path, and
 * modelling them takes no emulated time (counters read one after the other
 * agree); the process-wide machine made from $PMON_SIM defaults to clock=auto.
 *
 * The sleeps are about 20 ms; the checks allow any scheduling delay up to
 * 2 s beyond them.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* exact demand traffic: the prefetchers (test_sim_prefetch.c) off */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"

#define SLEEP_NS 20000000ull
#define SLACK_NS 2000000000ull

static void nap(void)
{
	struct timespec ts = { 0, (long)SLEEP_NS };

	while (nanosleep(&ts, &ts))
		;
}

#define IMC0          imc(0x3f, 0)        /* socket 0, channel 0 */
#define IMC_FIXED_CTL 0xF0
#define IMC_FIXED_LO  0xD0
#define IMC_CTL0      0xD8
#define IMC_CTR0_LO   0xA0
#define FIXED_EN      0x400000u
#define CAS_RD        0x400304u
#define EVT_B7        0x4101B7u           /* EN | USR | umask 1 | 0xB7 */
#define DRD_LOCAL_DRAM 0x600400001ull

static uint64_t dclk(uint64_t ns)
{
	return (uint64_t)((unsigned __int128)ns * 800000000u / 1000000000u);
}

/* Lines the load stream owes after t ns at rate bytes per second. */
static uint64_t lines_at(uint64_t t, uint64_t rate)
{
	return (uint64_t)((unsigned __int128)t * rate / 64000000000u);
}

static uint64_t cas_rd_sum(int socket)
{
	struct pmon_sim_truth t;
	uint64_t n = 0;

	for (int c = 0; c < pmon_sim_shape(sim)->channels; c++) {
		pmon_sim_channel_truth(sim, socket, c, &t);
		n += t.cas_rd;
	}
	return n;
}

static void manual(void)
{
	machine(NULL);
	CHECK_EQ_INT(pmon_sim_shape(sim)->clock, PMON_SIM_CLOCK_MANUAL, "parse default manual");
	pci_wr_ok(IMC0, IMC_FIXED_CTL, FIXED_EN);
	nap();
	CHECK_EQ_U64(pmon_sim_now_ns(sim), 0, "manual: a sleep moves nothing");
	CHECK_EQ_U64(pci_rd(IMC0, IMC_FIXED_LO), 0, "manual: DCLK still 0 after a sleep");
	pmon_sim_advance_ns(sim, 1000);
	nap();
	CHECK_EQ_U64(pmon_sim_now_ns(sim), 1000, "manual: only the advance");
	CHECK_EQ_U64(pci_rd(IMC0, IMC_FIXED_LO), 800, "manual: 800 DCLK");

	machine("clock=manual,load=1G");
	nap();
	pmon_sim_advance_ns(sim, 5000000);
	nap();
	CHECK_EQ_U64(pmon_sim_now_ns(sim), 5000000, "manual with load: time");
	CHECK_EQ_U64(cas_rd_sum(0), 0, "manual: load= issues nothing");
}

static void wall(void)
{
	uint64_t n0, n1, n2, n3, v;

	machine("clock=wall");
	n0 = pmon_sim_now_ns(sim);
	nap();
	n1 = pmon_sim_now_ns(sim);
	CHECK(n1 - n0 >= SLEEP_NS && n1 - n0 < SLEEP_NS + SLACK_NS,
	      "wall: a 20 ms sleep moved time by %llu ns", (unsigned long long)(n1 - n0));
	CHECK(pmon_sim_now_ns(sim) >= n1, "wall: never backwards");

	/* a register access moves time too: DCLK counts the wall interval */
	n0 = pmon_sim_now_ns(sim);
	pci_wr_ok(IMC0, IMC_FIXED_CTL, FIXED_EN);
	n1 = pmon_sim_now_ns(sim);
	nap();
	n2 = pmon_sim_now_ns(sim);
	v = pci_rd(IMC0, IMC_FIXED_LO);
	n3 = pmon_sim_now_ns(sim);
	CHECK(v >= dclk(n2) - dclk(n1) && v <= dclk(n3) - dclk(n0),
	      "wall: DCLK %llu within [%llu, %llu]", (unsigned long long)v,
	      (unsigned long long)(dclk(n2) - dclk(n1)), (unsigned long long)(dclk(n3) - dclk(n0)));
	CHECK(v >= dclk(SLEEP_NS), "wall: DCLK over the sleep (%llu)", (unsigned long long)v);

	/* time moves between two reads with nothing else in between */
	uint32_t a = pci_rd(IMC0, IMC_FIXED_LO);
	nap();
	uint32_t b = pci_rd(IMC0, IMC_FIXED_LO);
	CHECK(b - a >= dclk(SLEEP_NS) && b - a < dclk(SLEEP_NS + SLACK_NS),
	      "wall: two reads 20 ms apart differ by %u DCLK", b - a);

	/* explicit advances add on top of the wall time */
	n0 = pmon_sim_now_ns(sim);
	pmon_sim_advance_ns(sim, 1000000000000ull);
	n1 = pmon_sim_now_ns(sim);
	CHECK(n1 - n0 >= 1000000000000ull && n1 - n0 < 1000000000000ull + SLACK_NS,
	      "wall: an advance of 1000 s adds on top (%llu)", (unsigned long long)(n1 - n0));
	nap();
	n2 = pmon_sim_now_ns(sim);
	CHECK(n2 - n1 >= SLEEP_NS && n2 - n1 < SLEEP_NS + SLACK_NS,
	      "wall: still following after an advance (%llu)", (unsigned long long)(n2 - n1));
	/* traffic does not take control either */
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 1), 0, "traffic");
	nap();
	n3 = pmon_sim_now_ns(sim);
	CHECK(n3 - n2 >= SLEEP_NS, "wall: still following after traffic");
}

static void auto_mode(void)
{
	uint64_t n0, n1, n2, n3;

	machine("clock=auto");
	n0 = pmon_sim_now_ns(sim);
	nap();
	n1 = pmon_sim_now_ns(sim);
	CHECK(n1 - n0 >= SLEEP_NS && n1 - n0 < SLEEP_NS + SLACK_NS,
	      "auto: follows the wall clock at first (%llu)", (unsigned long long)(n1 - n0));
	pci_wr_ok(IMC0, IMC_FIXED_CTL, FIXED_EN);
	nap();
	pmon_sim_advance_ns(sim, 1000);          /* the program takes control */
	n2 = pmon_sim_now_ns(sim);
	CHECK(n2 >= n1 + SLEEP_NS + 1000 && n2 < n1 + SLEEP_NS + SLACK_NS,
	      "auto: caught up with the wall, then the advance (%llu)",
	      (unsigned long long)(n2 - n1));
	uint32_t a = pci_rd(IMC0, IMC_FIXED_LO);
	nap();
	n3 = pmon_sim_now_ns(sim);
	CHECK_EQ_U64(n3, n2, "auto: a sleep after the first advance adds nothing");
	CHECK_EQ_U64(pci_rd(IMC0, IMC_FIXED_LO), a, "auto: DCLK frozen after the switch");
	pmon_sim_advance_ns(sim, 5000);
	CHECK_EQ_U64(pmon_sim_now_ns(sim), n2 + 5000, "auto: manual from then on");
	CHECK_EQ_U64(pci_rd(IMC0, IMC_FIXED_LO), a + dclk(n2 + 5000) - dclk(n2),
		     "auto: DCLK exact under manual advances");

	/* traffic takes control as well */
	machine("clock=auto");
	nap();
	CHECK_EQ_INT(pmon_sim_traffic(sim, 0, 0, PMON_SIM_LOAD, 1), 0, "traffic");
	n0 = pmon_sim_now_ns(sim);
	CHECK(n0 >= SLEEP_NS, "auto: caught up before the traffic (%llu)", (unsigned long long)n0);
	nap();
	CHECK_EQ_U64(pmon_sim_now_ns(sim), n0, "auto: traffic took control");
}

static void load(void)
{
	const uint64_t rate = 64000000;          /* 1 line per us */
	uint64_t t, lines, base_cas, base_core, v;
	struct pmon_sim_truth tr;
	struct pmon_sim_cpu_truth ct;

	machine("clock=wall,load=64M");
	/* CAS RD on channel 0 and offcore DRD local DRAM on CPU 0 */
	pci_wr_ok(IMC0, IMC_CTL0, CAS_RD);
	pmon_sim_channel_truth(sim, 0, 0, &tr);
	base_cas = tr.cas_rd;
	wrmsr_ok(0, 0x1A6, DRD_LOCAL_DRAM);
	wrmsr_ok(0, 0x186, EVT_B7);
	wrmsr_ok(0, 0x38F, 0xF);
	pmon_sim_cpu_truth(sim, 0, &ct);
	base_core = ct.load_local;
	for (int round = 0; round < 3; round++) {
		nap();
		t = pmon_sim_now_ns(sim);
		lines = lines_at(t, rate);
		CHECK(lines > 0, "load: lines due");
		CHECK_EQ_U64(cas_rd_sum(0), lines, "load: floor(t * rate / 64e9) lines in all");
		for (int c = 0; c < 4; c++) {
			pmon_sim_channel_truth(sim, 0, c, &tr);
			CHECK_EQ_U64(tr.cas_rd, (lines + 3 - (uint64_t)c) / 4,
				     "load: lines interleave over the 4 channels");
			/* a new 8 KiB row every 128 lines of the channel; the 16
			 * banks first open row 0, later rows are page misses */
			uint64_t rows = (tr.cas_rd + 127) / 128;
			CHECK_EQ_U64(tr.cas_wr, 0, "load: reads only");
			CHECK_EQ_U64(tr.act, rows, "load: one ACT per row");
			CHECK_EQ_U64(tr.pre_miss, rows > 16 ? rows - 16 : 0, "load: page misses");
		}
		CHECK_EQ_U64(cas_rd_sum(1), 0, "load: socket 1 untouched");
		pmon_sim_cpu_truth(sim, 0, &ct);
		CHECK(ct.load_local == lines && ct.load_remote == 0 && ct.store_local == 0,
		      "load: CPU 0 issued them (%llu local loads)", (unsigned long long)ct.load_local);
	}
	/* the counters saw them through the normal path: the lower dword reads
	 * (and catch up) first, then the truth of the same instant */
	v = pci_rd(IMC0, IMC_CTR0_LO);
	pmon_sim_channel_truth(sim, 0, 0, &tr);
	CHECK_EQ_U64(v, tr.cas_rd - base_cas, "load: iMC CAS_COUNT.RD = truth");
	CHECK(v > 0, "load: CAS counted");
	v = rdmsr(0, 0xC1);
	pmon_sim_cpu_truth(sim, 0, &ct);
	CHECK_EQ_U64(v, ct.load_local - base_core, "load: OFFCORE_RESPONSE DRD local = truth");
	/* traffic of the program adds to it; the stream stays exact */
	CHECK_EQ_INT(pmon_sim_traffic(sim, 5, 1ull << 30, PMON_SIM_LOAD, 1000), 0, "traffic");
	nap();
	t = pmon_sim_now_ns(sim);
	CHECK_EQ_U64(cas_rd_sum(0), lines_at(t, rate) + 1000, "load: program traffic on top");
	/* an explicit advance adds time but no load (it catches up first) */
	pmon_sim_advance_ns(sim, 1000000000);
	t = pmon_sim_now_ns(sim);
	CHECK_EQ_U64(cas_rd_sum(0), lines_at(t - 1000000000, rate) + 1000,
		     "load: none for explicit advances");

	/* an odd rate, exact all the same */
	machine("clock=wall,load=333333333");
	for (int round = 0; round < 2; round++) {
		nap();
		t = pmon_sim_now_ns(sim);
		CHECK_EQ_U64(cas_rd_sum(0), lines_at(t, 333333333), "load=333333333: exact");
	}

	/* auto: the stream stops when the program takes control */
	machine("clock=auto,load=64M");
	nap();
	pmon_sim_advance_ns(sim, 7);
	t = pmon_sim_now_ns(sim);
	lines = cas_rd_sum(0);
	CHECK_EQ_U64(lines, lines_at(t - 7, rate), "auto load: lines up to the switch");
	CHECK(lines >= SLEEP_NS / 1000, "auto load: ran while following (%llu)",
	      (unsigned long long)lines);
	nap();
	pci_rd(IMC0, IMC_FIXED_LO);
	CHECK_EQ_U64(cas_rd_sum(0), lines, "auto load: stopped after the switch");
}

/* Two counters read one after the other cover the same interval: the lines
 * the first read models are no emulated time for the second. */
static void load_consistent(void)
{
	struct timespec ts = { 0, 50000000 };

	machine("clock=wall,load=1G");
	pci_wr_ok(IMC0, 0xF4, 0x10100);          /* freeze the box */
	pci_wr_ok(IMC0, IMC_FIXED_CTL, FIXED_EN);
	pci_wr_ok(IMC0, IMC_CTL0, CAS_RD);
	pci_wr_ok(IMC0, 0xF4, 0x10000);          /* both start at this access */
	nanosleep(&ts, NULL);
	uint64_t d = pci_rd(IMC0, IMC_FIXED_LO); /* models ~780000 lines */
	uint64_t c = pci_rd(IMC0, IMC_CTR0_LO);
	/* channel 0 gets 1e9 / 64 / 4 lines a second, DCLK 0.8e9: c = d / 204.8 */
	uint64_t want = d * 5 / 1024;
	CHECK(c + want / 50 + 64 >= want && c <= want + want / 50 + 64,
	      "load: CAS %llu read after DCLK %llu (expected %llu)", (unsigned long long)c,
	      (unsigned long long)d, (unsigned long long)want);
	CHECK(d >= dclk(50000000), "load: DCLK over the sleep (%llu)", (unsigned long long)d);
}

/* The stream wraps within socket 0's memory (mem=64M: 1 Mi lines). */
static void load_wrap(void)
{
	const uint64_t rate = PMON_SIM_LOAD_MAX;   /* 31.25 lines per us */
	const uint64_t per = (64ull << 20) / 64;
	struct timespec ts = { 0, 60000000 };
	struct pmon_sim_cpu_truth ct;
	clock_t c0;

	machine("mem=64M,clock=wall,load=2G");
	c0 = clock();
	while (pmon_sim_now_ns(sim) < 40000000)   /* 1.25 Mi lines at least */
		nanosleep(&ts, NULL);
	uint64_t t = pmon_sim_now_ns(sim), lines = lines_at(t, rate);
	CHECK(lines > per, "wrap: more lines (%llu) than socket 0 holds", (unsigned long long)lines);
	CHECK_EQ_U64(cas_rd_sum(0), lines, "wrap: every line on socket 0");
	CHECK_EQ_U64(cas_rd_sum(1), 0, "wrap: none on socket 1");
	pmon_sim_cpu_truth(sim, 0, &ct);
	CHECK(ct.load_local == lines && ct.load_remote == 0, "wrap: all local loads");
	printf("test_sim_wall: %llu load lines in %.3f s of CPU time\n", (unsigned long long)lines,
	       (double)(clock() - c0) / CLOCKS_PER_SEC);
}

/* The process's machine made from $PMON_SIM: auto unless it names a clock. */
static void process_machine(void)
{
	char why[256];
	pmon_sim_t *m;

	sim_teardown();
	CHECK(pmon_sim_current() == NULL, "no current machine");
	setenv("PMON_SIM", "sockets=1,load=64M,prefetch=off", 1);
	CHECK_EQ_INT(pmon_sim_access_open(&acc, why, sizeof why), 0, why);
	m = pmon_sim_current();
	CHECK(m != NULL && pmon_sim_shape(m)->clock == PMON_SIM_CLOCK_AUTO,
	      "$PMON_SIM without clock: auto");
	uint64_t n0 = pmon_sim_now_ns(m);
	nap();
	uint64_t n1 = pmon_sim_now_ns(m);
	CHECK(n1 - n0 >= SLEEP_NS, "process machine: time passes by itself");
	sim = m;
	CHECK_EQ_U64(cas_rd_sum(0), lines_at(n1, 64000000), "process machine: the load runs");
	sim_teardown();                     /* sim is m */

	setenv("PMON_SIM", "sockets=1,clock=manual", 1);
	CHECK_EQ_INT(pmon_sim_access_open(&acc, why, sizeof why), 0, why);
	m = pmon_sim_current();
	CHECK(m != NULL && pmon_sim_shape(m)->clock == PMON_SIM_CLOCK_MANUAL,
	      "$PMON_SIM clock=manual is kept");
	nap();
	CHECK_EQ_U64(pmon_sim_now_ns(m), 0, "process machine, manual: still 0");
	acc->ops->close(acc);
	acc = NULL;
	pmon_sim_destroy(m);
	unsetenv("PMON_SIM");
}

int main(void)
{
	manual();
	wall();
	auto_mode();
	load();
	load_consistent();
	load_wrap();
	process_machine();
	sim_teardown();
	return check_done("test_sim_wall");
}
