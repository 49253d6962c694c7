/*
 * test_sim_paths.c - the access path's two copies count alike.  The base
 * copy (any shape, any x86-64) and the AVX-512 copy (8-way L1 and L2, as
 * constants) are fed the same seeded traffic (loads, stores and streaming
 * stores of every CPU, runs of lines, flushes, on first-touch, one-socket
 * and interleaved memory) on the kinds of machine the AVX-512 copy claims
 * (two sockets, 8-way L1 and L2: the default shape, other cores, LLCs and
 * LLC way counts, 20, 16 and others, the Nehalem-EP and Westmere-EP
 * shapes), with the uncore and offcore counters programmed; every
 * ground-truth count and every counter must come out the same.  A machine
 * the AVX-512 copy does not claim (L1 or L2 not 8-way, other sockets) must
 * run the base copy even when PMON_SIM_ISA=avx512 asks for it.
 * Skipped where the host cannot run the AVX-512 copy (nothing to compare).
 * Also: an unknown PMON_SIM_ISA (avx2 among them: that copy is gone) is
 * named on stderr and changes nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_fixture.h"
#include "sim/sim_machine.h"
#include "xorshift.h"

#define MAXV 8192

struct dump {
	uint64_t v[MAXV];
	size_t n;
};

static void put(struct dump *d, uint64_t v)
{
	if (d->n < MAXV)
		d->v[d->n] = v;
	d->n++;
}

static void put_all(struct dump *d, const void *p, size_t bytes)
{
	for (size_t i = 0; i < bytes / 8; i++)
		put(d, ((const uint64_t *)p)[i]);
}

/* The Nehalem uncore's events the test counts (UNC_LLC_MISS.ANY,
 * UNC_QHL_REQUESTS.LOCAL_READS and REMOTE_READS, UNC_QMC_NORMAL_READS.ANY),
 * enabled. */
static const uint64_t nhm_sel[] = { 0x400309, 0x401020, 0x400420, 0x40072c };
#define NHM_NSEL (sizeof nhm_sel / sizeof nhm_sel[0])

/* Counters of every box the hierarchy drives, on every socket and CPU. */
static void program(const struct pmon_sim_shape *sh)
{
	int per_sock = pmon_sim_ncpus(sh) / sh->sockets;

	if (sh->gen != PMON_SIM_GEN_SNBEP) {      /* one uncore PMU a socket */
		for (int s = 0; s < sh->sockets; s++) {
			for (unsigned i = 0; i < NHM_NSEL; i++)
				wrmsr_ok(s * per_sock, 0x3C0 + i, nhm_sel[i]);
			wrmsr_ok(s * per_sock, 0x391, (1u << NHM_NSEL) - 1);
		}
		return;
	}
	for (int s = 0; s < sh->sockets; s++) {
		int cpu = s * per_sock, bus = pmon_sim_socket_bus(sim, s);
		for (int k = 0; k < sh->cores; k++) {
			wrmsr_ok(cpu, 0xD14 + 0x20 * k, 0x7c0000);          /* state filter: all */
			wrmsr_ok(cpu, 0xD10 + 0x20 * k, 0x400334);          /* LLC_LOOKUP */
			wrmsr_ok(cpu, 0xD11 + 0x20 * k, 0x400A35);          /* TOR_INSERTS MISS_OPCODE */
			wrmsr_ok(cpu, 0xD12 + 0x20 * k, 0x400737);          /* LLC_VICTIMS M/E/S */
			wrmsr_ok(cpu, 0xD13 + 0x20 * k, 0x400435);          /* TOR_INSERTS EVICTION */
		}
		wr_ok(bus, 14, 1, 0xD8, 0x400301);                  /* HA REQUESTS reads */
		wr_ok(bus, 14, 1, 0xDC, 0x400C01);                  /* HA REQUESTS writes */
		wr_ok(bus, 8, 2, 0xD8, 0x400200);                   /* QPI port 0 TxL flits */
		wr_ok(bus, 9, 2, 0xD8, 0x400100);                   /* QPI port 1 */
		for (int c = 0; c < sh->channels; c++) {
			pci_wr_ok(imc(bus, c), 0xD8, 0x400304);     /* CAS reads */
			pci_wr_ok(imc(bus, c), 0xDC, 0x400C04);     /* CAS writes */
			pci_wr_ok(imc(bus, c), 0xE0, 0x400101);     /* ACT */
		}
	}
	for (int c = 0; c < pmon_sim_ncpus(sh); c++) {
		wrmsr_ok(c, 0x1A6, c & 1 ? 0x3fffff8fffull : 0x3f803c0001ull);
		wrmsr_ok(c, 0x186, 0x4101B7);
		wrmsr_ok(c, 0x38F, 1);
	}
}

static void traffic(const struct pmon_sim_shape *sh, uint64_t seed, uint64_t accesses)
{
	uint64_t base[3], sz = 24ull << 20, r = seed, done = 0, pos[4] = { 0 };
	static uint64_t refs[512];
	int ncpu = pmon_sim_ncpus(sh);

	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, sz, PMON_SIM_FIRST_TOUCH, 0, &base[0]), 0, "alloc");
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, sz, PMON_SIM_ON_SOCKET, sh->sockets - 1, &base[1]), 0,
		     "alloc");
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, sz, PMON_SIM_INTERLEAVE, 0, &base[2]), 0, "alloc");
	while (done < accesses) {
		int cpu = (int)(xorshift64(&r) % (uint64_t)ncpu), mode = (int)(xorshift64(&r) % 8);
		size_t n = 1 + xorshift64(&r) % 512;
		uint64_t b = base[xorshift64(&r) % 3];
		if (mode == 7 && xorshift64(&r) % 64 == 0) {
			pmon_sim_flush_caches(sim);
			continue;
		}
		if (mode == 6) {                  /* a run of lines */
			unsigned k = (unsigned)(xorshift64(&r) % 10);
			pmon_sim_vtraffic(sim, cpu, b + (xorshift64(&r) % (sz / 64 - 512)) * 64,
					  k < 6 ? PMON_SIM_LOAD : k < 9 ? PMON_SIM_STORE
									: PMON_SIM_NT_STORE, n);
			done += n;
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			uint64_t x = xorshift64(&r), line;
			if (mode < 2)             /* 64 KiB every CPU shares */
				line = x % 1024;
			else if (mode < 4)        /* a stream */
				line = (pos[cpu % 4] += 1) % (sz / 64);
			else if (mode < 5)        /* 4 MiB */
				line = x % 65536;
			else
				line = x % (sz / 64);
			unsigned k = (unsigned)(x >> 40) % 16;
			refs[i] = (b + line * 64) | (k < 10 ? PMON_SIM_LOAD : k < 15 ? PMON_SIM_STORE
										 : PMON_SIM_NT_STORE);
		}
		CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, cpu, refs, n), 0, "references");
		done += n;
	}
}

/* Every truth and counter of the machine under test. */
static void collect(const struct pmon_sim_shape *sh, struct dump *d)
{
	int per_sock = pmon_sim_ncpus(sh) / sh->sockets;

	d->n = 0;
	for (int c = 0; c < pmon_sim_ncpus(sh); c++) {
		struct pmon_sim_cache_truth t;
		struct pmon_sim_cpu_truth ct;
		uint64_t v = 0;
		pmon_sim_cache_truth(sim, c, &t);
		pmon_sim_cpu_truth(sim, c, &ct);
		put_all(d, &t, sizeof t);
		put_all(d, &ct, sizeof ct);
		acc->ops->msr_read(acc, c, 0xC1, &v, op_why, sizeof op_why);
		put(d, v);
	}
	for (int s = 0; s < sh->sockets; s++) {
		if (sh->gen != PMON_SIM_GEN_SNBEP) {
			for (unsigned i = 0; i < NHM_NSEL; i++) {
				uint64_t v = 0;
				acc->ops->msr_read(acc, s * per_sock, 0x3B0 + i, &v, op_why,
						   sizeof op_why);
				put(d, v);
			}
			for (int c = 0; c < sh->channels; c++) {
				struct pmon_sim_truth t;
				pmon_sim_channel_truth(sim, s, c, &t);
				put_all(d, &t, sizeof t);
			}
			continue;
		}
		int bus = pmon_sim_socket_bus(sim, s);
		for (int k = 0; k < sh->cores; k++) {
			struct pmon_sim_slice_truth t;
			pmon_sim_slice_truth(sim, s, k, &t);
			put_all(d, &t, sizeof t);
			for (int j = 0; j < 4; j++) {
				uint64_t v = 0;
				acc->ops->msr_read(acc, s * per_sock, 0xD16 + 0x20 * k + j, &v, op_why,
						   sizeof op_why);
				put(d, v);
			}
		}
		struct pmon_sim_ha_truth h;
		pmon_sim_ha_truth(sim, s, &h);
		put_all(d, &h, sizeof h);
		put(d, pci_rd64(at(bus, 14, 1), 0xA0));
		put(d, pci_rd64(at(bus, 14, 1), 0xA8));
		for (int l = 0; l < 2; l++) {
			struct pmon_sim_qpi_truth q;
			pmon_sim_qpi_truth(sim, s, l, &q);
			put_all(d, &q, sizeof q);
			put(d, pci_rd64(at(bus, 8 + l, 2), 0xA0));
		}
		for (int c = 0; c < sh->channels; c++) {
			struct pmon_sim_truth t;
			pmon_sim_channel_truth(sim, s, c, &t);
			put_all(d, &t, sizeof t);
			for (uint32_t off = 0xA0; off <= 0xB0; off += 8)
				put(d, pci_rd64(imc(bus, c), off));
		}
	}
}

static struct dump a, b;

static void compare(const char *spec, uint64_t seed)
{
	const char *isa = "avx512";
	const struct pmon_sim_shape *sh;
	uint64_t sum = 0;

	setenv("PMON_SIM_ISA", "base", 1);
	machine(spec);
	CHECK(!strcmp(sim->lines_isa, "base"), "%s: the base copy runs", spec);
	sh = pmon_sim_shape(sim);
	program(sh);
	traffic(sh, seed, 300000);
	collect(sh, &a);
	setenv("PMON_SIM_ISA", isa, 1);
	machine(spec);
	CHECK(!strcmp(sim->lines_isa, isa), "%s: the %s copy runs", spec, isa);
	sh = pmon_sim_shape(sim);
	program(sh);
	traffic(sh, seed, 300000);
	collect(sh, &b);
	CHECK(a.n == b.n && a.n <= MAXV, "%s: %zu values each", spec, a.n);
	size_t diff = 0, first = 0;
	for (size_t i = 0; i < a.n && i < MAXV; i++) {
		sum += a.v[i];
		if (a.v[i] != b.v[i] && !diff++)
			first = i;
	}
	CHECK(diff == 0, "%s: base and %s copies agree on %zu counts (%zu differ, first #%zu)",
	      spec, isa, a.n, diff, first);
	CHECK(sum > 1000000, "%s: the traffic was counted (%llu in all)", spec,
	      (unsigned long long)sum);
}

/* What a machine created with PMON_SIM_ISA=value runs, and what the
 * emulator wrote on stderr meanwhile (into err). */
static const char *isa_with(const char *value, char *err, size_t len)
{
	int saved = dup(2);
	FILE *f = tmpfile();

	fflush(stderr);
	dup2(fileno(f), 2);
	setenv("PMON_SIM_ISA", value, 1);
	machine("");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	size_t got = fread(err, 1, len - 1, f);
	err[got] = 0;
	fclose(f);
	return sim->lines_isa;
}

/* An unknown PMON_SIM_ISA is named on stderr and runs the copy an unset
 * one runs; a known one runs without a word. */
static void isa_values(void)
{
	char err[512], best[16];

	unsetenv("PMON_SIM_ISA");
	machine("");
	snprintf(best, sizeof best, "%s", sim->lines_isa);
	CHECK(!strcmp(isa_with("AVX2", err, sizeof err), best), "PMON_SIM_ISA=AVX2 runs %s", best);
	CHECK(strstr(err, "PMON_SIM_ISA=AVX2 is not avx512 or base") != NULL,
	      "an unknown PMON_SIM_ISA is named: %s", err);
	CHECK(!strcmp(isa_with("avx2", err, sizeof err), best) &&
	      strstr(err, "PMON_SIM_ISA=avx2 is not avx512 or base") != NULL,
	      "the gone AVX2 copy is named, %s runs: %s", best, err);
	CHECK(!strcmp(isa_with("base", err, sizeof err), "base") && !err[0],
	      "PMON_SIM_ISA=base runs the base copy, silently (%s)", err);
}

/* A machine that the AVX-512 copy does not claim runs the base copy,
 * whatever PMON_SIM_ISA asks. */
static void unclaimed(const char *spec)
{
	setenv("PMON_SIM_ISA", "avx512", 1);
	machine(spec);
	CHECK(!strcmp(sim->lines_isa, "base"), "%s: the base copy runs (%s)", spec, sim->lines_isa);
}

int main(void)
{
	isa_values();
	unclaimed("l1ways=4,l2ways=16,llcways=32,llc=4M");
	unclaimed("l2ways=4,l2=128K");
	unclaimed("l1ways=16,l1=64K");
	unclaimed("sockets=4,cores=3,threads=2,llc=3M,mem=256M,channels=3");
	unclaimed("sockets=1,llc=2M");
	setenv("PMON_SIM_ISA", "avx512", 1);
	machine("");
	if (strcmp(sim->lines_isa, "avx512")) {
		sim_teardown();
		return check_skip("test_sim_paths", "this host cannot run the AVX-512 copy: "
				  "nothing to compare");
	}
	/* 20-, 16- and other-way LLCs: the set kernels of each */
	compare("", 1);
	compare("prefetch=on,llc=2M", 2);
	compare("cores=3,threads=2,llc=3M,mem=256M,channels=3", 3);
	compare("llcways=32,llc=4M,prefetch=off", 4);
	compare("llcways=5,llc=640K,l1=8K,l2=64K", 5);
	compare("gen=nhm-ep", 6);
	compare("gen=wsm-ep,prefetch=off", 7);
	compare("llcways=16,llc=1M,cores=4", 8);
	sim_teardown();
	return check_done("test_sim_paths");
}
