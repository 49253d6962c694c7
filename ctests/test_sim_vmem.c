/*
 * test_sim_vmem.c - the emulated machine's virtual memory: regions, first
 * touch / explicit socket / interleave placement, pseudo-random frames,
 * translation, freeing (frames come back, cached lines go), the virtual
 * traffic calls (single runs and reference arrays, checked before anything
 * is modelled) and their thread safety.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* exact demand traffic: the prefetchers (test_sim_prefetch.c) off */
#define SIM_FIXTURE_PIN "prefetch=off,"
#include "sim_fixture.h"

#define PAGE 4096ull

static uint64_t pa(uint64_t va)
{
	uint64_t p = 0;
	CHECK_EQ_INT(pmon_sim_mem_translate(sim, va, &p), 0, "translate");
	return p;
}

static void placement(void)
{
	const uint64_t mem = 64ull << 20;          /* per socket */
	uint64_t a, b, c, p;

	machine("sockets=2,cores=2,threads=1,mem=64M");
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, 10 * PAGE + 1, PMON_SIM_FIRST_TOUCH, 0, &a), 0,
		     "alloc first touch");
	CHECK(a != 0 && a % PAGE == 0, "page-aligned non-zero base 0x%llx", (unsigned long long)a);
	CHECK_EQ_INT(pmon_sim_mem_translate(sim, a, &p), PMON_EINVAL, "untouched page");
	/* CPU 2 is socket 1: its first touch takes socket 1 frames */
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 2, a, PMON_SIM_LOAD, 11 * 64), 0, "touch 11 pages");
	for (int i = 0; i < 11; i++) {
		p = pa(a + (uint64_t)i * PAGE + 64);
		CHECK(p / mem == 1, "page %d on socket 1 (0x%llx)", i, (unsigned long long)p);
		CHECK_EQ_U64(p % PAGE, 64, "offset kept");
	}
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 2, a + 11 * PAGE, PMON_SIM_LOAD, 1), PMON_ERANGE,
		     "past the region");
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 2, a + 10 * PAGE, PMON_SIM_LOAD, 65), PMON_ERANGE,
		     "a run past the region");

	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, 8 * PAGE, PMON_SIM_ON_SOCKET, 0, &b), 0, "on socket 0");
	CHECK(b >= a + 11 * PAGE, "regions do not overlap");
	pmon_sim_vtraffic(sim, 3, b, PMON_SIM_STORE, 8 * 64);   /* a socket 1 CPU touches */
	for (int i = 0; i < 8; i++)
		CHECK(pa(b + (uint64_t)i * PAGE) / mem == 0, "explicit socket 0, page %d", i);

	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, 8 * PAGE, PMON_SIM_INTERLEAVE, 0, &c), 0, "interleave");
	pmon_sim_vtraffic(sim, 0, c, PMON_SIM_LOAD, 8 * 64);
	for (int i = 0; i < 8; i++)
		CHECK(pa(c + (uint64_t)i * PAGE) / mem == (uint64_t)(i % 2), "interleave page %d", i);

	/* frames: distinct, and not handed out in address order */
	uint64_t f[11];
	int ordered = 1;
	for (int i = 0; i < 11; i++)
		f[i] = pa(a + (uint64_t)i * PAGE) / PAGE;
	for (int i = 0; i < 11; i++)
		for (int j = 0; j < i; j++)
			CHECK(f[i] != f[j], "frames %d and %d differ", i, j);
	for (int i = 1; i < 11; i++)
		ordered &= f[i] == f[i - 1] + 1;
	CHECK(!ordered, "frames are not consecutive");

	/* errors */
	uint64_t v;
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, 0, PMON_SIM_FIRST_TOUCH, 0, &v), PMON_EINVAL, "0 bytes");
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, PAGE, PMON_SIM_ON_SOCKET, 2, &v), PMON_EINVAL,
		     "no socket 2");
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, PAGE, (enum pmon_sim_place)3, 0, &v), PMON_EINVAL,
		     "bad placement");
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, 2 * mem + PAGE, PMON_SIM_INTERLEAVE, 0, &v),
		     PMON_ENOMEM, "more than the machine has");
	CHECK_EQ_INT(pmon_sim_mem_free(sim, a + PAGE), PMON_EINVAL, "free needs the base");

	/* a socket runs out: 64M = 16384 frames; 16384 - 8 (b) - 4 (c) are left */
	uint64_t big;
	CHECK_EQ_INT(pmon_sim_mem_alloc(sim, mem, PMON_SIM_ON_SOCKET, 0, &big), 0, "64M region");
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 0, big, PMON_SIM_NT_STORE, (mem - 12 * PAGE) / 64), 0,
		     "every frame left");
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 0, big + mem - 12 * PAGE, PMON_SIM_NT_STORE, 1),
		     PMON_ENOMEM, "no frame left on socket 0");
	/* freeing returns frames: the last freed is taken first */
	uint64_t fb7 = pa(b + 7 * PAGE) / PAGE;   /* the last page freed */
	CHECK_EQ_INT(pmon_sim_mem_free(sim, b), 0, "free b");
	CHECK_EQ_INT(pmon_sim_mem_translate(sim, b, &v), PMON_EINVAL, "freed: no translation");
	CHECK_EQ_INT(pmon_sim_vtraffic(sim, 0, big + mem - 12 * PAGE, PMON_SIM_NT_STORE, 1), 0,
		     "a freed frame serves");
	uint64_t got = pa(big + mem - 12 * PAGE) / PAGE;
	CHECK_EQ_U64(got, fb7, "the last freed frame is taken first");
	CHECK_EQ_INT(pmon_sim_mem_free(sim, big), 0, "free big");
	CHECK_EQ_INT(pmon_sim_mem_free(sim, big), PMON_EINVAL, "double free");
}

/* Freed memory leaves no line in the caches. */
static void free_drops_lines(void)
{
	uint64_t a, p;
	struct pmon_sim_cache_truth t;

	machine("sockets=1,cores=1,threads=1,llc=128K,llcways=8,l1=4K,l1ways=4,l2=16K,l2ways=4");
	pmon_sim_mem_alloc(sim, PAGE, PMON_SIM_FIRST_TOUCH, 0, &a);
	pmon_sim_vtraffic(sim, 0, a, PMON_SIM_STORE, 64);
	p = pa(a);
	CHECK_EQ_INT(pmon_sim_mem_free(sim, a), 0, "free");
	/* the same frame through its physical address: every line misses */
	pmon_sim_traffic(sim, 0, p, PMON_SIM_LOAD, 64);
	pmon_sim_cache_truth(sim, 0, &t);
	CHECK_EQ_U64(t.l1_hit[PMON_SIM_LOAD], 0, "no stale L1 line");
	CHECK_EQ_U64(t.llc_miss[PMON_SIM_LOAD], 64, "no stale LLC line");
	struct pmon_sim_truth ch;
	uint64_t wr = 0;
	for (int c = 0; c < 4; c++) {
		pmon_sim_channel_truth(sim, 0, c, &ch);
		wr += ch.cas_wr;
	}
	CHECK_EQ_U64(wr, 0, "freed dirty lines are dropped, not written");
}

/* vtraffic_refs: checked first, same model as vtraffic. */
static void refs(void)
{
	uint64_t a, r[6];
	struct pmon_sim_cache_truth t1, t2;

	machine("sockets=1,cores=2,threads=1");
	pmon_sim_mem_alloc(sim, 4 * PAGE, PMON_SIM_FIRST_TOUCH, 0, &a);
	r[0] = a | PMON_SIM_LOAD;
	r[1] = (a + 64) | PMON_SIM_STORE;
	r[2] = (a + PAGE) | PMON_SIM_NT_STORE;
	r[3] = (a + 4 * PAGE) | PMON_SIM_LOAD;          /* outside */
	CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, 0, r, 4), PMON_ERANGE, "outside the region");
	pmon_sim_cache_truth(sim, 0, &t1);
	CHECK_EQ_U64(t1.l1_miss[0] + t1.l1_miss[1], 0, "nothing modelled");
	CHECK_EQ_INT(pmon_sim_mem_translate(sim, a, &r[5]), PMON_EINVAL, "no page touched");
	r[3] = (a + 128) | 5;                            /* kind 5 */
	CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, 0, r, 4), PMON_EINVAL, "bad kind");
	CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, 5, r, 3), PMON_EINVAL, "no CPU 5");
	CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, 0, NULL, 0), 0, "empty");
	CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, 0, r, 3), 0, "three refs");
	r[3] = a | PMON_SIM_LOAD;
	CHECK_EQ_INT(pmon_sim_vtraffic_refs(sim, 0, r + 3, 1), 0, "reload");
	pmon_sim_cache_truth(sim, 0, &t1);
	CHECK_EQ_U64(t1.l1_miss[PMON_SIM_LOAD], 1, "one load miss");
	CHECK_EQ_U64(t1.l1_hit[PMON_SIM_LOAD], 1, "the reload hits L1");
	CHECK_EQ_U64(t1.l1_miss[PMON_SIM_STORE], 1, "one store miss");
	/* the same pattern as runs on CPU 1 over another region */
	uint64_t b;
	pmon_sim_mem_alloc(sim, 4 * PAGE, PMON_SIM_FIRST_TOUCH, 0, &b);
	pmon_sim_vtraffic(sim, 1, b, PMON_SIM_LOAD, 1);
	pmon_sim_vtraffic(sim, 1, b + 64, PMON_SIM_STORE, 1);
	pmon_sim_vtraffic(sim, 1, b + PAGE, PMON_SIM_NT_STORE, 1);
	pmon_sim_vtraffic(sim, 1, b, PMON_SIM_LOAD, 1);
	pmon_sim_cache_truth(sim, 1, &t2);
	CHECK(!memcmp(&t1, &t2, sizeof t1), "refs and runs model the same");
}

struct worker { int cpu; uint64_t base; };

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t r[256];
	for (int rep = 0; rep < 50; rep++) {
		for (int i = 0; i < 256; i++)
			r[i] = (w->base + (uint64_t)(rep * 256 + i) * 64) | PMON_SIM_LOAD;
		pmon_sim_vtraffic_refs(sim, w->cpu, r, 256);
	}
	return NULL;
}

static void threads(void)
{
	pthread_t th[2];
	struct worker w[2];
	struct pmon_sim_cache_truth t;

	machine("sockets=2,cores=1,threads=1");
	for (int i = 0; i < 2; i++) {
		w[i].cpu = i;
		pmon_sim_mem_alloc(sim, 50 * 256 * 64, PMON_SIM_FIRST_TOUCH, 0, &w[i].base);
	}
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, work, &w[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 2; i++) {
		pmon_sim_cache_truth(sim, i, &t);
		CHECK_EQ_U64(t.l2_miss[PMON_SIM_LOAD], 50 * 256, "every line once, per thread");
		CHECK_EQ_U64(t.supplied[PMON_SIM_SUP_DRAM], 50 * 256, "local DRAM (first touch)");
	}
}

int main(void)
{
	placement();
	free_drops_lines();
	refs();
	threads();
	sim_teardown();
	return check_done("test_sim_vmem");
}
