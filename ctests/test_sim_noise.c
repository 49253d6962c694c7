/*
 * test_sim_noise.c - the noise= shape key: an OS-like trickle of DRAM reads
 * and writes on every socket, RATE bytes per emulated second per socket.
 * From its definition (include/pmon/sim.h): after t ns, floor(t * RATE /
 * 64e9) lines per socket, alternately a load (lower half of the socket's
 * memory) and a streaming store (upper half), so ceil(n/2) lines read and
 * floor(n/2) written by each socket's memory controller with the
 * prefetchers off.  With them on, the writes stay exact and the reads can
 * only grow.  The key is range-checked like load=.
 */
#include <string.h>

#include "sim_fixture.h"

/* imc lines read and written by socket s's memory controller */
static void dram(pmon_sim_t *m, int s, uint64_t *rd, uint64_t *wr)
{
	struct pmon_sim_ha_truth h;

	CHECK_EQ_INT(pmon_sim_ha_truth(m, s, &h), 0, "ha truth");
	*rd = h.imc_reads;
	*wr = h.imc_writes;
}

/* noise=10M for one emulated second: 10e6 / 64 = 156250 lines a socket,
 * 78125 read and 78125 written (640 KB each way), on both sockets. */
static void one_second(void)
{
	struct pmon_sim_shape sh;
	pmon_sim_t *m;
	uint64_t rd, wr, loads = 0, nts = 0;

	CHECK_EQ_INT(pmon_sim_shape_parse("prefetch=off,mem=64M,noise=10M", &sh, NULL, 0), 0,
		     "shape");
	m = pmon_sim_create(&sh);
	CHECK(m != NULL, "machine");
	pmon_sim_advance_ns(m, 1000000000ull);
	for (int s = 0; s < 2; s++) {
		dram(m, s, &rd, &wr);
		CHECK_EQ_U64(rd * 64, 5000000, "socket's DRAM bytes read in 1 s at noise=10M");
		CHECK_EQ_U64(wr * 64, 5000000, "socket's DRAM bytes written in 1 s at noise=10M");
	}
	for (int c = 0; c < pmon_sim_ncpus(&sh); c++) {
		struct pmon_sim_cpu_truth t;
		pmon_sim_cpu_truth(m, c, &t);
		loads += t.load_local;
		nts += t.nt_local;
		CHECK_EQ_U64(t.load_remote + t.store_remote + t.nt_remote + t.store_local, 0,
			     "only local loads and streaming stores");
	}
	CHECK_EQ_U64(loads, 2 * 78125, "loads issued: both sockets");
	CHECK_EQ_U64(nts, 2 * 78125, "streaming stores issued: both sockets");
	pmon_sim_destroy(m);
}

/* Sliced time gives the same lines as one step: noise=1M over 0.5 s is
 * 5e5 / 64 = 7812.5, so 7812 lines, 3906 each way, however it is cut; an
 * odd count puts the extra line on the read side (line 0 is a load). */
static void sliced(void)
{
	pmon_sim_t *m = sim_new("prefetch=off,mem=64M,noise=1M");
	uint64_t rd, wr;

	for (int i = 0; i < 7; i++)
		pmon_sim_advance_ns(m, 1000000ull * 37);       /* 259 ms */
	pmon_sim_advance_ns(m, 241000000ull);                  /* 500 ms */
	dram(m, 1, &rd, &wr);
	CHECK_EQ_U64(rd, 3906, "reads after 0.5 s in 8 slices");
	CHECK_EQ_U64(wr, 3906, "writes after 0.5 s in 8 slices");
	pmon_sim_advance_ns(m, 16000000ull);                   /* 516 ms: 8062.5 lines */
	dram(m, 0, &rd, &wr);
	CHECK_EQ_U64(rd, 4031, "8062 lines: 4031 read");
	CHECK_EQ_U64(wr, 4031, "8062 lines: 4031 written");
	pmon_sim_advance_ns(m, 64000ull);                      /* 516.064 ms: 8063.5 lines */
	dram(m, 0, &rd, &wr);
	CHECK_EQ_U64(rd, 4032, "8063 lines: the odd one a read");
	CHECK_EQ_U64(wr, 4031, "8063 lines: writes unchanged");
	pmon_sim_destroy(m);
}

/* Prefetchers on (the default): the streaming stores are still exactly the
 * writes; the loads' misses bring the prefetchers' lines too, never fewer. */
static void prefetch_on(void)
{
	pmon_sim_t *m = sim_new("mem=64M,noise=10M");
	uint64_t rd, wr;

	pmon_sim_advance_ns(m, 1000000000ull);
	dram(m, 0, &rd, &wr);
	CHECK_EQ_U64(wr, 78125, "writes exact with the prefetchers on");
	CHECK(rd >= 78125, "reads at least the trickle's: %llu", (unsigned long long)rd);
	pmon_sim_destroy(m);
}

/* noise=0 (the default): nothing reaches DRAM however long the machine runs. */
static void quiet(void)
{
	struct pmon_sim_shape sh;
	pmon_sim_t *m;
	uint64_t rd, wr;

	CHECK_EQ_INT(pmon_sim_shape_parse("", &sh, NULL, 0), 0, "defaults");
	CHECK_EQ_U64(sh.noise_bps, 0, "default noise: none");
	m = sim_new("mem=64M");
	pmon_sim_advance_ns(m, 1000000000ull);
	dram(m, 0, &rd, &wr);
	CHECK_EQ_U64(rd + wr, 0, "no noise, no DRAM traffic");
	pmon_sim_destroy(m);
}

static void parse(void)
{
	struct pmon_sim_shape sh;
	char err[256];

	CHECK_EQ_INT(pmon_sim_shape_parse("noise=2G", &sh, err, sizeof err), 0, err);
	CHECK_EQ_U64(sh.noise_bps, PMON_SIM_LOAD_MAX, "noise=2G, the highest");
	CHECK_EQ_INT(pmon_sim_shape_parse("noise=1.5M", &sh, err, sizeof err), 0, err);
	CHECK_EQ_U64(sh.noise_bps, 1500000, "noise=1.5M (powers of ten)");
	err[0] = 0;
	CHECK_EQ_INT(pmon_sim_shape_parse("noise=2000000001", &sh, err, sizeof err), -1,
		     "noise above 2G refused");
	CHECK(strstr(err, "noise") && strstr(err, "0..2G"), "message names key and range: %s", err);
	err[0] = 0;
	CHECK_EQ_INT(pmon_sim_shape_parse("noise=lots", &sh, err, sizeof err), -1,
		     "noise=lots refused");
	CHECK(strstr(err, "noise") != NULL, "message names the key: %s", err);
}

int main(void)
{
	parse();
	quiet();
	one_second();
	sliced();
	prefetch_on();
	return check_done("test_sim_noise");
}
