/*
 * sim_core_path.h - the access path in the cores: the private caches (L1D
 * and L2, L2 inclusive of L1), the entry of every line access, and the
 * loops over a batch of line references (the prefetchers' in
 * sim_pf_path.h).  What happens past the L2 is in sim_llc_path.h.
 * Included by sim_path.h only.
 */
#ifndef PMON_SIM_CORE_PATH_H
#define PMON_SIM_CORE_PATH_H

#include "sim_llc_path.h"

#pragma GCC visibility push(hidden)

static int sim_core_snoop(struct sim_pcore *pc, uint64_t line, int newst)
{
	return core_snoop(pc, line, newst, path_l1w(pc), path_l2w(pc));
}

/* Room in the L1 for a line: a Modified victim's data goes to its L2 copy. */
SIM_HOT void l1_fill(struct sim_pcore *pc, const struct sim_set *s1, uint64_t line, int st,
		     uint32_t w2)
{
	uint64_t ve = s1->e[set_victim(s1)];

	if (e_st(ve) == SIM_M) {
		uint64_t v = e_line(ve);
		struct sim_set s2 = pcache_set_w(&pc->l2, v, w2);
		int j = set_find(&s2, v);
		if (j >= 0)
			set_st(&s2, j, SIM_M);
	}
	set_fill(s1, line, st, 0);
}

/* Room in the L2: the victim leaves the L1 too; if dirty it is written back
 * to the LLC (WbMtoI), a clean one leaves silently. */
SIM_HOT void l2_fill(struct sim_ctx *x, const struct sim_set *s2, uint64_t line, int st,
		     uint32_t w1)
{
	uint64_t ve = s2->e[set_victim(s2)];

	if (ve) {
		uint64_t v = e_line(ve);
		int vst = e_st(ve);
		struct sim_set s1 = pcache_set_w(&x->pc->l1, v, w1);
		int j = set_find(&s1, v);
		if (j >= 0) {
			if (e_st(s1.e[j]) == SIM_M)
				vst = SIM_M;
			set_drop(&s1, j);
		}
		if (vst == SIM_M)
			sim_llc_writeback(x, v);
	}
	set_fill(s2, line, st, 0);
}

static inline void offcore(struct sim_ctx *x, uint64_t req, const struct sim_llc_res *r)
{
	sim_core_offcore(x->sim, x->cpu, req, r->rsp_sup, r->rsp_snoop);
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

/* An access of th to line counted by kind and by whether line's home is
 * th's socket (pmon_sim_cpu_truth). */
SIM_HOT void access_truth(const struct pmon_sim *sim, struct sim_thread *th, uint64_t line,
			  int kind)
{
	if (sim_line_home(sim, line) == th->sock) {
		if (kind == PMON_SIM_LOAD) th->truth.load_local++;
		else if (kind == PMON_SIM_STORE) th->truth.store_local++;
		else th->truth.nt_local++;
	} else {
		if (kind == PMON_SIM_LOAD) th->truth.load_remote++;
		else if (kind == PMON_SIM_STORE) th->truth.store_remote++;
		else th->truth.nt_remote++;
	}
}

/* Who issues a request: cpu, its thread th, on the core pc. */
SIM_HOT struct sim_ctx ctx_of(struct pmon_sim *sim, struct sim_thread *th, int cpu,
			      struct sim_pcore *pc)
{
	struct sim_ctx x = { sim, cpu, th->sock, th->lcore, pc, &th->ctruth };

	return x;
}

/* A load or store that missed the L2 (e1, e2: line's L1 and L2 sets): the
 * LLC request, the counts, the fills.  Inlined in the loop that runs while
 * accesses miss (run_misses); out of line (core_miss_out) in the one that
 * runs while they hit, which stays compact. */
SIM_HOT int core_miss(struct pmon_sim *sim, struct sim_thread *th, int cpu, struct sim_pcore *pc,
		      uint64_t line, int store, uint64_t *e1, uint64_t *e2, uint32_t w1, uint32_t w2)
{
	struct pmon_sim_cache_truth *t = &th->ctruth;
	int kind = store ? PMON_SIM_STORE : PMON_SIM_LOAD;
	struct sim_set s1 = { e1, w1 }, s2 = { e2, w2 };
	struct sim_ctx x = ctx_of(sim, th, cpu, pc);
	struct sim_llc_res r;
	if (SIM_PATH_CONST)
		/* the AVX-512 copy: the clean read's path inline (its other
		 * paths are out of line, llc_rest) */
		llc_request(&x, line, store, &r, path_llcw(sim), w1, w2, path_sockets(sim));
	else
		sim_llc_request(&x, line, store, &r);
	if (r.clean) {
		/* the commonest miss: its supplier, LLC miss and offcore
		 * response are the same for every such one of a kind, added
		 * when the batch ends (clean_core_flush) */
		th->clean_core[store * 2 + (r.supplier == PMON_SIM_SUP_DRAM)]++;
	} else {
		access_truth(sim, th, line, kind);
		offcore(&x, store ? SIM_RSP_DEMAND_RFO : SIM_RSP_DEMAND_DATA_RD, &r);
		t->supplied[r.supplier]++;
		if (r.supplier == PMON_SIM_SUP_LLC)
			t->llc_hit[kind]++;
		else
			t->llc_miss[kind]++;
		if (r.hitm)
			t->hitm++;
	}
	l2_fill(&x, &s2, line, r.grant, w1);
	l1_fill(pc, &s1, line, r.grant, w2);
	return 1;
}

static __attribute__((noinline)) int core_miss_out(struct pmon_sim *sim, struct sim_thread *th,
						   int cpu, struct sim_pcore *pc, uint64_t line,
						   int store, uint64_t *e1, uint64_t *e2)
{
	return core_miss(sim, th, cpu, pc, line, store, e1, e2, path_l1w(pc), path_l2w(pc));
}

/* A load or store by a core (w1, w2: its L1 and L2 way counts; inl: the
 * miss path inline); 1 when it missed the L2. */
SIM_HOT int core_access(struct pmon_sim *sim, struct sim_thread *th, int cpu,
			struct sim_pcore *pc, uint64_t line, int store, uint32_t w1, uint32_t w2,
			int inl)
{
	struct pmon_sim_cache_truth *t = &th->ctruth;
	int kind = store ? PMON_SIM_STORE : PMON_SIM_LOAD, w;
	struct sim_set s1 = pcache_set_w(&pc->l1, line, w1), s2;

	w = set_find(&s1, line);
	if (w >= 0) {
		access_truth(sim, th, line, kind);
		t->l1_hit[kind]++;
		set_touch(&s1, w);            /* the line is in lane 0 now */
		if (store && e_st(s1.e[0]) < SIM_E) {
			struct sim_ctx x = ctx_of(sim, th, cpu, pc);
			t->supplied[upgrade(&x, line)]++;
			set_st(&s1, 0, SIM_M);
			s2 = pcache_set_w(&pc->l2, line, w2);
			int j = set_find(&s2, line);
			if (j >= 0)
				set_st(&s2, j, SIM_M);
			return 0;
		}
		if (store)
			set_st(&s1, 0, SIM_M);
		t->supplied[PMON_SIM_SUP_L1]++;
		return 0;
	}
	t->l1_miss[kind]++;
	s2 = pcache_set_w(&pc->l2, line, w2);
	w = set_find(&s2, line);
	if (w >= 0) {
		int sup = PMON_SIM_SUP_L2;
		access_truth(sim, th, line, kind);
		t->l2_hit[kind]++;
		set_touch(&s2, w);            /* the line is in lane 0 now */
		if (store && e_st(s2.e[0]) < SIM_E) {
			struct sim_ctx x = ctx_of(sim, th, cpu, pc);
			sup = upgrade(&x, line);
		}
		if (store)
			set_st(&s2, 0, SIM_M);
		t->supplied[sup]++;
		l1_fill(pc, &s1, line, e_st(s2.e[0]), w2);
		return 0;
	}
	t->l2_miss[kind]++;
	if (inl)
		return core_miss(sim, th, cpu, pc, line, store, s1.e, s2.e, w1, w2);
	return core_miss_out(sim, th, cpu, pc, line, store, s1.e, s2.e);
}

/* The core-side counts of the batch's demand clean reads (core_access):
 * those its path makes for any other miss, n at a time. */
static void clean_core_flush(struct pmon_sim *sim, int cpu)
{
	struct sim_thread *th = &sim->cpu[cpu];

	for (int c = 0; c < 4; c++) {
		uint64_t n = th->clean_core[c];
		int store = c / 2, local = c % 2, kind = store ? PMON_SIM_STORE : PMON_SIM_LOAD;

		if (!n)
			continue;
		th->clean_core[c] = 0;
		th->ctruth.supplied[local ? PMON_SIM_SUP_DRAM : PMON_SIM_SUP_RDRAM] += n;
		th->ctruth.llc_miss[kind] += n;
		if (store && local) th->truth.store_local += n;
		else if (store) th->truth.store_remote += n;
		else if (local) th->truth.load_local += n;
		else th->truth.load_remote += n;
		if (th->offcore_on)     /* as clean_read answers (sim_llc_path.h) */
			sim_pend_add(sim, &th->pq,
				     (store ? SIM_RSP_DEMAND_RFO : SIM_RSP_DEMAND_DATA_RD) |
				     clean_rsp_sup(local) | clean_rsp_snoop(sim->shape.sockets), 0, n);
	}
}

/* One access of th (its core pc) to line; 1 when it missed the L2. */
SIM_HOT int line_access(struct pmon_sim *sim, struct sim_thread *th, int cpu,
			struct sim_pcore *pc, uint64_t line, int kind, uint32_t w1, uint32_t w2, int inl)
{
	int store = kind == PMON_SIM_STORE;

	/* the access is counted by core_access where it is served */
	if (__builtin_expect(kind == PMON_SIM_NT_STORE, 0)) {
		struct sim_ctx x = ctx_of(sim, th, cpu, pc);
		access_truth(sim, th, line, kind);
		sim_llc_nt_store(&x, line);
		return 0;
	}
	return core_access(sim, th, cpu, pc, line, store, w1, w2, inl);
}

/* Bring the LLC set a coming access to line will look at into the host
 * caches (the core's L1/L2 arrays are small enough to stay there). */
SIM_HOT void prefetch_llc(const struct pmon_sim *sim, int sock, uint64_t line, uint32_t ways)
{
	const uint8_t *p = (const uint8_t *)llc_set_w(&sim->sock[sock],
						     sim_line_slice(line, sim->shape.cores), line,
						     ways, sim->shape.cores).e;
	/* the set's host lines: a constant for the commonest LLCs, as
	 * SIM_SET_KERNEL (sim_hier.h) */
	size_t bytes = ways == 20 ? cache_set_bytes(20)
		     : ways == 16 ? cache_set_bytes(16) : cache_set_bytes(ways);

#pragma GCC unroll 8
	for (size_t off = 0; off < bytes; off += 64)     /* sets are 64-byte aligned */
		__builtin_prefetch(p + off, 0);
}

/* References from i on while they hit the L1 or L2 (no miss in the last
 * 64: recent 0): the miss path out of line.  Returns the next reference,
 * after the first miss (recent is then 64). */
SIM_HOT size_t run_hits(struct pmon_sim *sim, int cpu, const uint64_t *ref, size_t i, size_t n,
			int *recent, uint32_t w1, uint32_t w2)
{
	struct sim_thread *th = &sim->cpu[cpu];
	struct sim_pcore *pc = &sim->pcore[th->gcore];

	while (i < n) {
		int missed = line_access(sim, th, cpu, pc, ref[i] >> 2, (int)(ref[i] & 3), w1, w2, 0);
		i++;
		if (missed) {
			*recent = 64;
			break;
		}
	}
	return i;
}

/* References from i on while accesses miss the L2 (one did in the last
 * 64): the look-ahead brings the LLC sets of the coming ones into the host
 * caches, the miss path is inline.  Returns the next reference when none
 * of the last 64 missed (recent 0), or n. */
SIM_HOT size_t run_misses(struct pmon_sim *sim, int cpu, const uint64_t *ref, size_t i, size_t n,
			  int *recent, uint32_t w1, uint32_t w2, uint32_t wl)
{
	struct sim_thread *th = &sim->cpu[cpu];
	struct sim_pcore *pc = &sim->pcore[th->gcore];
	int missed = 0, r = *recent;

	for (size_t k = i; k < n && k < i + SIM_LOOKAHEAD; k++)   /* the first ones */
		prefetch_llc(sim, th->sock, ref[k] >> 2, wl);
	while (i < n && r) {
		if (i + SIM_LOOKAHEAD < n) {
			uint64_t f = ref[i + SIM_LOOKAHEAD] >> 2;
			prefetch_llc(sim, th->sock, f, wl);
			if (missed) {
				/* should f miss too, a Modified L2 victim is
				 * written into the LLC */
				struct sim_set s2 = pcache_set_w(&pc->l2, f, w2);
				uint64_t ve = s2.e[set_victim(&s2)];
				if (e_st(ve) == SIM_M)
					prefetch_llc(sim, th->sock, e_line(ve), wl);
			}
		}
		missed = line_access(sim, th, cpu, pc, ref[i] >> 2, (int)(ref[i] & 3), w1, w2, 1);
		r = missed ? 64 : r - 1;
		i++;
	}
	*recent = r;
	return i;
}

static __attribute__((noinline)) size_t run_hits_out(struct pmon_sim *sim, int cpu,
						     const uint64_t *ref, size_t i, size_t n,
						     int *recent)
{
	const struct sim_pcore *pc = &sim->pcore[sim->cpu[cpu].gcore];

	return run_hits(sim, cpu, ref, i, n, recent, path_l1w(pc), path_l2w(pc));
}

static __attribute__((noinline)) size_t run_misses_out(struct pmon_sim *sim, int cpu,
						       const uint64_t *ref, size_t i, size_t n,
						       int *recent)
{
	const struct sim_pcore *pc = &sim->pcore[sim->cpu[cpu].gcore];

	return run_misses(sim, cpu, ref, i, n, recent, path_l1w(pc), path_l2w(pc),
			  path_llcw(sim));
}

#include "sim_pf_path.h"

/* The loop over a batch of references: with the core's prefetchers when
 * any is on (sim_pf_path.h), else in turns while accesses hit and while
 * they miss. */
void SIM_PATH_LINES(struct pmon_sim *sim, int cpu, const uint64_t *ref, size_t n)
{
	int recent = sim->cpu[cpu].pf_recent;

	if (sim->pcore[sim->cpu[cpu].gcore].pf_dis != SIM_PF_OFF) {
		run_pf_out(sim, cpu, ref, n);
	} else {
		for (size_t i = 0; i < n;)
			i = recent ? run_misses_out(sim, cpu, ref, i, n, &recent)
				   : run_hits_out(sim, cpu, ref, i, n, &recent);
		sim->cpu[cpu].pf_recent = recent;
	}
	tally_flush(sim, sim->cpu[cpu].sock);
	clean_core_flush(sim, cpu);
	sim_core_offcore_end(sim, cpu);
}

#pragma GCC visibility pop

#endif
