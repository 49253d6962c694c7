/*
 * sim_cache.c - the cores' private caches (L1D and L2, L2 inclusive of L1),
 * the entry of every line access, and the set-associative arrays the LLC
 * shares.  What happens past the L2 is in sim_llc.c.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_hier.h"

static int cache_init(struct sim_cache *c, uint64_t sets, uint32_t ways, int with_cv)
{
	size_t n = (size_t)sets * ways;

	memset(c, 0, sizeof *c);
	c->sets = (uint32_t)sets;
	c->ways = ways;
	c->setmask = (sets & (sets - 1)) ? 0 : (uint32_t)(sets - 1);
	c->tag = calloc(n, sizeof *c->tag);
	c->age = calloc(n, sizeof *c->age);
	c->st = calloc(n, 1);
	c->cv = with_cv ? calloc(n, 1) : NULL;
	return (c->tag && c->age && c->st && (!with_cv || c->cv)) ? 0 : -1;
}

static void cache_free(struct sim_cache *c)
{
	free(c->tag);
	free(c->age);
	free(c->st);
	free(c->cv);
	memset(c, 0, sizeof *c);
}

/* The stamp counter wrapped: renumber each set's ways 1..ways in their LRU
 * order, so that the order survives. */
void sim_cache_renorm(struct sim_cache *c)
{
	for (size_t b = 0; b < (size_t)c->sets * c->ways; b += c->ways) {
		uint32_t rank[32];
		for (uint32_t w = 0; w < c->ways; w++) {
			rank[w] = 1;
			for (uint32_t v = 0; v < c->ways; v++)
				if (c->age[b + v] < c->age[b + w] ||
				    (c->age[b + v] == c->age[b + w] && v < w))
					rank[w]++;
		}
		for (uint32_t w = 0; w < c->ways; w++)
			c->age[b + w] = rank[w];
	}
	c->clk = c->ways + 1;
}

int sim_hier_init(struct pmon_sim *sim)
{
	const struct pmon_sim_shape *sh = &sim->shape;
	int ncores = sh->sockets * sh->cores;
	uint64_t slice_sets = sh->llc_bytes / (uint64_t)sh->cores / 64 / (uint64_t)sh->llc_ways;

	sim->lines_per_socket = sh->mem_bytes / 64;
	sim->lps_shift = -1;
	if (!(sim->lines_per_socket & (sim->lines_per_socket - 1)))
		sim->lps_shift = __builtin_ctzll(sim->lines_per_socket);
	for (int i = 0; i < PMON_SIM_NSUPPLIERS; i++)
		sim->occ_uclk[i] = (uint64_t)(((unsigned __int128)sh->lat_ns[i] * sh->uclk_hz +
					       500000000u) / 1000000000u);
	for (int c = 0; c < sim->ncpus; c++) {
		struct sim_thread *t = &sim->cpu[c];
		t->sock = c / (sh->cores * sh->threads);
		t->gcore = c / sh->threads;
		t->lcore = t->gcore % sh->cores;
	}
	sim->pcore = calloc((size_t)ncores, sizeof *sim->pcore);
	if (!sim->pcore)
		return -1;
	for (int i = 0; i < ncores; i++) {
		struct sim_pcore *pc = &sim->pcore[i];
		if (cache_init(&pc->l1, sh->l1_bytes / 64 / (uint64_t)sh->l1_ways,
			       (uint32_t)sh->l1_ways, 0) ||
		    cache_init(&pc->l2, sh->l2_bytes / 64 / (uint64_t)sh->l2_ways,
			       (uint32_t)sh->l2_ways, 0))
			return -1;
	}
	for (int s = 0; s < sh->sockets; s++)
		for (int k = 0; k < sh->cores; k++)
			if (cache_init(&sim->sock[s].llc[k], slice_sets, (uint32_t)sh->llc_ways, 1))
				return -1;
	return 0;
}

void sim_hier_free(struct pmon_sim *sim)
{
	if (sim->pcore)
		for (int i = 0; i < sim->shape.sockets * sim->shape.cores; i++) {
			cache_free(&sim->pcore[i].l1);
			cache_free(&sim->pcore[i].l2);
		}
	free(sim->pcore);
	sim->pcore = NULL;
	for (int s = 0; s < SIM_MAX_SOCKETS; s++)
		for (int k = 0; k < SIM_MAX_CORES; k++)
			cache_free(&sim->sock[s].llc[k]);
}

int sim_core_snoop(struct sim_pcore *pc, uint64_t line, int newst)
{
	long i2 = cache_find(&pc->l2, cache_base(&pc->l2, line), line), i1;
	int st;

	if (i2 < 0)
		return SIM_I;                 /* the L2 includes the L1 */
	st = pc->l2.st[i2];
	i1 = cache_find(&pc->l1, cache_base(&pc->l1, line), line);
	if (i1 >= 0 && pc->l1.st[i1] == SIM_M)
		st = SIM_M;
	if (newst == SIM_I) {
		pc->l2.tag[i2] = 0;
		if (i1 >= 0)
			pc->l1.tag[i1] = 0;
	} else if (newst == SIM_S) {
		pc->l2.st[i2] = SIM_S;
		if (i1 >= 0)
			pc->l1.st[i1] = SIM_S;
	}
	return st;
}

/* Room in the L1 for a line: a Modified victim's data goes to its L2 copy. */
static size_t l1_fill(struct sim_pcore *pc, uint64_t line, int st)
{
	struct sim_cache *l1 = &pc->l1;
	size_t i = cache_victim(l1, cache_base(l1, line));

	if (l1->tag[i] && l1->st[i] == SIM_M) {
		uint64_t v = l1->tag[i] - 1;
		long j = cache_find(&pc->l2, cache_base(&pc->l2, v), v);
		if (j >= 0)
			pc->l2.st[j] = SIM_M;
	}
	l1->tag[i] = line + 1;
	l1->st[i] = (uint8_t)st;
	cache_touch(l1, i);
	return i;
}

/* Room in the L2: the victim leaves the L1 too; if dirty it is written back
 * to the LLC (WbMtoI), a clean one leaves silently. */
static size_t l2_fill(struct sim_ctx *x, uint64_t line, int st)
{
	struct sim_cache *l2 = &x->pc->l2;
	size_t i = cache_victim(l2, cache_base(l2, line));

	if (l2->tag[i]) {
		uint64_t v = l2->tag[i] - 1;
		int vst = l2->st[i];
		long j = cache_find(&x->pc->l1, cache_base(&x->pc->l1, v), v);
		if (j >= 0) {
			if (x->pc->l1.st[j] == SIM_M)
				vst = SIM_M;
			x->pc->l1.tag[j] = 0;
		}
		l2->tag[i] = 0;
		if (vst == SIM_M)
			sim_llc_writeback(x, v);
	}
	l2->tag[i] = line + 1;
	l2->st[i] = (uint8_t)st;
	cache_touch(l2, i);
	return i;
}

static void offcore(struct sim_ctx *x, uint64_t req, const struct sim_llc_res *r)
{
	sim_core_offcore(x->sim, x->cpu, req, r->rsp_sup, r->rsp_snoop);
}

/* The L2 streamer: line+1 in the same 4 KiB page, into the L2 only. */
static void prefetch(struct sim_ctx *x, uint64_t line, int rfo)
{
	struct sim_llc_res r;
	uint64_t next = line + 1;

	if (!(next & 63) || cache_find(&x->pc->l2, cache_base(&x->pc->l2, next), next) >= 0)
		return;
	if (sim_line_home(x->sim, next) >= x->sim->shape.sockets)
		return;                       /* beyond the last socket's memory */
	x->t->prefetches++;
	sim_llc_request(x, next, rfo, &r);
	offcore(x, rfo ? SIM_RSP_PF_RFO : SIM_RSP_PF_DATA_RD, &r);
	l2_fill(x, next, r.grant == SIM_M ? SIM_E : r.grant);
}

/* A store to a line the core holds Shared: ownership from the LLC. */
static int upgrade(struct sim_ctx *x, uint64_t line)
{
	struct sim_llc_res r;

	x->t->upgrades++;
	sim_llc_request(x, line, 1, &r);
	offcore(x, SIM_RSP_DEMAND_RFO, &r);
	if (r.hitm)
		x->t->hitm++;
	return r.supplier;
}

void sim_line_access(struct pmon_sim *sim, int cpu, uint64_t line, enum pmon_sim_kind kind)
{
	struct sim_thread *th = &sim->cpu[cpu];
	struct sim_ctx x = { sim, cpu, th->sock, th->lcore, &sim->pcore[th->gcore], &th->ctruth };
	struct sim_cache *l1 = &x.pc->l1, *l2 = &x.pc->l2;
	struct pmon_sim_cache_truth *t = x.t;
	int store = kind == PMON_SIM_STORE, home = sim_line_home(sim, line);
	long i;

	if (home == th->sock) {
		if (kind == PMON_SIM_LOAD) th->truth.load_local++;
		else if (store) th->truth.store_local++;
		else th->truth.nt_local++;
	} else {
		if (kind == PMON_SIM_LOAD) th->truth.load_remote++;
		else if (store) th->truth.store_remote++;
		else th->truth.nt_remote++;
	}
	if (kind == PMON_SIM_NT_STORE) {
		sim_llc_nt_store(&x, line);
		return;
	}
	i = cache_find(l1, cache_base(l1, line), line);
	if (i >= 0) {
		t->l1_hit[kind]++;
		cache_touch(l1, (size_t)i);
		if (store && l1->st[i] < SIM_E) {
			t->supplied[upgrade(&x, line)]++;
			l1->st[i] = SIM_M;
			long j = cache_find(l2, cache_base(l2, line), line);
			if (j >= 0)
				l2->st[j] = SIM_M;
			return;
		}
		if (store)
			l1->st[i] = SIM_M;
		t->supplied[PMON_SIM_SUP_L1]++;
		return;
	}
	t->l1_miss[kind]++;
	i = cache_find(l2, cache_base(l2, line), line);
	if (i >= 0) {
		int sup = PMON_SIM_SUP_L2;
		t->l2_hit[kind]++;
		cache_touch(l2, (size_t)i);
		if (store && l2->st[i] < SIM_E)
			sup = upgrade(&x, line);
		if (store)
			l2->st[i] = SIM_M;
		t->supplied[sup]++;
		l1_fill(x.pc, line, l2->st[i]);
		return;
	}
	t->l2_miss[kind]++;
	struct sim_llc_res r;
	sim_llc_request(&x, line, store, &r);
	offcore(&x, store ? SIM_RSP_DEMAND_RFO : SIM_RSP_DEMAND_DATA_RD, &r);
	t->supplied[r.supplier]++;
	if (r.supplier == PMON_SIM_SUP_LLC)
		t->llc_hit[kind]++;
	else
		t->llc_miss[kind]++;
	if (r.hitm)
		t->hitm++;
	l2_fill(&x, line, r.grant);
	l1_fill(x.pc, line, r.grant);
	if (sim->shape.prefetch)
		prefetch(&x, line, store);
}

/* Forget every core's cached lines (after the LLC let go of them). */
void sim_cores_clear(struct pmon_sim *sim)
{
	for (int i = 0; i < sim->shape.sockets * sim->shape.cores; i++) {
		struct sim_pcore *pc = &sim->pcore[i];
		memset(pc->l1.tag, 0, (size_t)pc->l1.sets * pc->l1.ways * sizeof *pc->l1.tag);
		memset(pc->l2.tag, 0, (size_t)pc->l2.sets * pc->l2.ways * sizeof *pc->l2.tag);
	}
}
