/*
 * sim_hier.h - private helpers of the memory hierarchy shared by
 * sim_cache.c (the cores' L1/L2) and sim_llc.c (LLC slices, home agents,
 * QPI): the set-associative arrays and the request context.
 */
#ifndef PMON_SIM_HIER_H
#define PMON_SIM_HIER_H

#include "sim_internal.h"

/* Who issues the request being modelled. */
struct sim_ctx {
	struct pmon_sim *sim;
	int cpu, sock, lcore;
	struct sim_pcore *pc;
	struct pmon_sim_cache_truth *t;
};

static inline size_t cache_base(const struct sim_cache *c, uint64_t line)
{
	uint32_t set = c->setmask ? (uint32_t)(line & c->setmask)
				  : (uint32_t)(line % c->sets);
	return (size_t)set * c->ways;
}

/* Index of the line's way, or -1; *vict = the way to fill (an empty one,
 * else the least recently used). */
static inline long cache_find(const struct sim_cache *c, size_t base, uint64_t line)
{
	const uint64_t *t = c->tag + base, tag = line + 1;

	for (uint32_t w = 0; w < c->ways; w++)
		if (t[w] == tag)
			return (long)(base + w);
	return -1;
}

static inline size_t cache_victim(const struct sim_cache *c, size_t base)
{
	const uint64_t *t = c->tag + base;
	const uint32_t *a = c->age + base;
	uint32_t best = 0, bage = UINT32_MAX;

	for (uint32_t w = 0; w < c->ways; w++) {
		if (!t[w])
			return base + w;
		if (a[w] < bage) {
			bage = a[w];
			best = w;
		}
	}
	return base + best;
}

void sim_cache_renorm(struct sim_cache *c);

static inline void cache_touch(struct sim_cache *c, size_t i)
{
	if (__builtin_expect(++c->clk == 0, 0))
		sim_cache_renorm(c);          /* keeps the order, restarts the stamps */
	c->age[i] = c->clk;
}

/* What the LLC answered a core's request. */
struct sim_llc_res {
	int grant;              /* state the core receives: S, E or M */
	int supplier;           /* enum pmon_sim_supplier */
	uint64_t rsp_sup, rsp_snoop;    /* offcore-response supplier and snoop bits */
	int hitm;
};

/* sim_llc.c */
void sim_llc_request(struct sim_ctx *x, uint64_t line, int rfo, struct sim_llc_res *r);
void sim_llc_writeback(struct sim_ctx *x, uint64_t line);
void sim_llc_nt_store(struct sim_ctx *x, uint64_t line);
/* sim_cache.c: the state a core holds a line in (M when dirty in L1 or L2),
 * then newst: SIM_I drops its copies, SIM_S makes them shared, -1 keeps. */
int sim_core_snoop(struct sim_pcore *pc, uint64_t line, int newst);
void sim_cores_clear(struct pmon_sim *sim);

#endif
