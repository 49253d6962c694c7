/*
 * sim_hier.h - private helpers of the memory hierarchy shared by
 * sim_cache.c (the cores' L1/L2) and sim_llc.c (LLC slices, home agents,
 * QPI): the set-associative arrays and the request context.
 *
 * The set operations are branch-free loops over the ways (a scan that
 * exits early mispredicts on most accesses): find compares every tag, the
 * victim is the way of rank ways-1, a touch ages the more recent ways.
 */
#ifndef PMON_SIM_HIER_H
#define PMON_SIM_HIER_H

#include <emmintrin.h>

#include "sim_internal.h"

#pragma GCC visibility push(hidden)      /* the emulator's own, as in sim_internal.h */

/* Who issues the request being modelled. */
struct sim_ctx {
	struct pmon_sim *sim;
	int cpu, sock, lcore;
	struct sim_pcore *pc;
	struct pmon_sim_cache_truth *t;
};

struct sim_set {
	uint64_t *tag;          /* line + 1, 0 empty */
	uint16_t *ptag;         /* partial tag (never 0) of each way, 0 empty/padding */
	int8_t *rank;           /* LRU rank 0..ways-1; padding lanes SIM_RANK_PAD */
	uint8_t *st, *cv;
	uint32_t ways;
};

#define SIM_RANK_PAD 127

static inline uint32_t round_up(uint32_t n, uint32_t m)
{
	return (n + m - 1) / m * m;
}

/* Layout of a set, what every access reads first, then the full tags:
 * ptag[ways rounded to 8], rank[ways rounded to 16], st[ways], cv[ways],
 * tag[ways] (8-byte aligned); the whole a multiple of the 64-byte host
 * cache line (the arrays are 64-byte aligned).  A lookup that misses then
 * reads the host lines of the first four arrays (2 for 20 ways) and one
 * full tag, the victim's. */
static inline uint32_t cache_off_tag(uint32_t ways)
{
	return round_up(2 * round_up(ways, 8) + round_up(ways, 16) + 2 * ways, 8);
}

static inline size_t cache_set_bytes(uint32_t ways)
{
	return round_up(cache_off_tag(ways) + 8 * ways, 64);
}

static inline struct sim_set cache_set_at(const struct sim_cache *c, uint32_t set)
{
	uint8_t *p = c->mem + (size_t)set * c->stride;
	struct sim_set s = { (uint64_t *)(void *)(p + c->off_tag), (uint16_t *)(void *)p,
			     (int8_t *)(p + c->off_rank), p + c->off_st, p + c->off_cv, c->ways };

	return s;
}

static inline struct sim_set cache_set(const struct sim_cache *c, uint64_t line)
{
	return cache_set_at(c, c->setmask ? (uint32_t)(line & c->setmask)
					  : (uint32_t)(line % c->sets));
}

/* The hot paths are compiled twice: for the default way counts (8-way
 * L1/L2, 20-way LLC) as constants, where the layout offsets fold and the
 * set loops unroll, and for any other count: the way counts are the hot
 * functions' arguments, constants in the one copy, variables in the other. */
#define SIM_HOT static inline __attribute__((always_inline))
#define SIM_L1W 8
#define SIM_L2W 8
#define SIM_LLCW 20
#define SIM_SOCKETS 2           /* the default machine's sockets */

/* cache_set with the way count passed in (a constant in the specialised
 * copies): offsets from the layout rule instead of the stored ones. */
SIM_HOT struct sim_set cache_set_w(const struct sim_cache *c, uint64_t line, uint32_t ways)
{
	uint32_t set = c->setmask ? (uint32_t)(line & c->setmask) : (uint32_t)(line % c->sets);
	uint8_t *p = c->mem + (size_t)set * c->stride;
	uint32_t off_rank = 2 * round_up(ways, 8), off_st = off_rank + round_up(ways, 16);
	struct sim_set s = { (uint64_t *)(void *)(p + cache_off_tag(ways)), (uint16_t *)(void *)p,
			     (int8_t *)(p + off_rank), p + off_st, p + off_st + ways, ways };

	return s;
}

static inline uint16_t ptag_of(uint64_t line)
{
	return (uint16_t)(((line * 0xD6E8FEB86659FD93ull) >> 48) | 1);
}

/* v in every 16-bit / 8-bit lane, in registers (the compiler's
 * _mm_set1 goes through memory on plain SSE2). */
static inline __m128i splat16(uint16_t v)
{
	return _mm_shuffle_epi32(_mm_cvtsi32_si128((int)(v * 0x00010001u)), 0);
}

static inline __m128i splat8(uint8_t v)
{
	return _mm_shuffle_epi32(_mm_cvtsi32_si128((int)(v * 0x01010101u)), 0);
}

/* The way holding line, or -1: the partial tags (8 per compare) pick the
 * candidates, the full tag decides. */
static inline int set_find(const struct sim_set *s, uint64_t line)
{
	__m128i key = splat16(ptag_of(line));

	for (uint32_t k = 0; k < s->ways; k += 8) {
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(const void *)(s->ptag + k)),
					key));
		while (m) {
			uint32_t w = k + ((unsigned)__builtin_ctz(m) >> 1);
			m &= m - 1;
			m &= m - 1;           /* two mask bits per 16-bit lane */
			if (s->tag[w] == line + 1)
				return (int)w;
		}
	}
	return -1;
}

/* The way to fill: an empty one if any (empty ways rank last), else the
 * least recently used: the way of rank ways-1. */
static inline int set_victim(const struct sim_set *s)
{
	__m128i key = splat8((uint8_t)(s->ways - 1));

	for (uint32_t k = 0;; k += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s->rank + k)),
				       key));
		if (m)
			return (int)(k + (unsigned)__builtin_ctz(m));
	}
}

/* Way w becomes the most recently used: the more recent ways age by one. */
static inline void set_touch(const struct sim_set *s, int w)
{
	__m128i r = splat8((uint8_t)s->rank[w]);

	for (uint32_t k = 0; k < s->ways; k += 16) {
		__m128i *p = (__m128i *)(void *)(s->rank + k), v = _mm_loadu_si128(p);
		_mm_storeu_si128(p, _mm_sub_epi8(v, _mm_cmpgt_epi8(r, v)));   /* +1 where v < r */
	}
	s->rank[w] = 0;
}

/* Way w is emptied and becomes the next to fill. */
static inline void set_drop(const struct sim_set *s, int w)
{
	__m128i r = splat8((uint8_t)s->rank[w]), n = splat8((uint8_t)s->ways);

	for (uint32_t k = 0; k < s->ways; k += 16) {
		__m128i *p = (__m128i *)(void *)(s->rank + k), v = _mm_loadu_si128(p);
		__m128i older = _mm_and_si128(_mm_cmpgt_epi8(v, r), _mm_cmpgt_epi8(n, v));
		_mm_storeu_si128(p, _mm_add_epi8(v, older));                  /* -1 where r < v < n */
	}
	s->rank[w] = (int8_t)(s->ways - 1);
	s->tag[w] = 0;
	s->ptag[w] = 0;
}

/* Way w now holds line. */
static inline void set_fill(const struct sim_set *s, int w, uint64_t line, int st)
{
	s->tag[w] = line + 1;
	s->ptag[w] = ptag_of(line);
	s->st[w] = (uint8_t)st;
}

/* The same for a core's private cache: a power-of-two number of sets, each
 * cache_set_bytes(ways) apart. */
SIM_HOT struct sim_set pcache_set_w(const struct sim_cache *c, uint64_t line, uint32_t ways)
{
	uint8_t *p = c->mem + (size_t)(line & c->setmask) * cache_set_bytes(ways);
	uint32_t off_rank = 2 * round_up(ways, 8), off_st = off_rank + round_up(ways, 16);
	struct sim_set s = { (uint64_t *)(void *)(p + cache_off_tag(ways)), (uint16_t *)(void *)p,
			     (int8_t *)(p + off_rank), p + off_st, p + off_st + ways, ways };

	return s;
}

/* ---- DRAM (sim_dram.c; inline here for the home agent's path) ----
 * Within the home socket: line = addr / 64, channel = line % channels,
 * cl = line / channels, column = cl % 128, bank = (cl / 128) % 8,
 * rank = (cl / 1024) % 2, row = cl / 2048. */

/* line / channels with a constant divisor (a division by a variable is one
 * of the dearest steps of an access). */
static inline uint64_t dram_per_channel(uint64_t line, int channels)
{
	switch (channels) {
	case 1: return line;
	case 2: return line / 2;
	case 3: return line / 3;
	default: return line / 4;
	}
}

static inline void dram_locate(const struct pmon_sim_shape *sh, uint64_t local_addr,
			       struct pmon_sim_dram_loc *out)
{
	uint64_t line = local_addr / 64, cl = dram_per_channel(line, sh->channels);

	out->channel = (int)(line - cl * (uint64_t)sh->channels);
	out->column = cl % SIM_DRAM_ROWLINES;
	out->bank = (int)((cl / SIM_DRAM_ROWLINES) % SIM_DRAM_BANKS);
	out->rank = (int)((cl / (SIM_DRAM_ROWLINES * SIM_DRAM_BANKS)) % SIM_DRAM_RANKS);
	out->row = cl / (SIM_DRAM_ROWLINES * SIM_DRAM_BANKS * SIM_DRAM_RANKS);
}

/* One line read or written at its home's DRAM: open-page bank state, the
 * channel's truth, the iMC signals. */
SIM_HOT void dram_access(struct pmon_sim *sim, int home, uint64_t local_addr, int write)
{
	struct pmon_sim_dram_loc loc;
	struct sim_socket *s = &sim->sock[home];
	struct sim_chan *ch;
	int64_t *open;
	uint32_t sigs = 0;

	dram_locate(&sim->shape, local_addr, &loc);
	ch = &s->chan[loc.channel];
	open = &ch->open_row[loc.rank * SIM_DRAM_BANKS + loc.bank];
	if (*open != (int64_t)loc.row) {
		if (*open >= 0) {             /* another row open: page miss */
			sigs |= SIM_SIG_PRE_MISS;
			ch->truth.pre_miss++;
		}
		sigs |= SIM_SIG_ACT;
		ch->truth.act++;
		*open = (int64_t)loc.row;
	}
	if (write) {
		sigs |= SIM_SIG_CAS_WR_WMM | SIM_SIG_WPQ;
		ch->truth.cas_wr++;
		ch->wpq++;
	} else {
		sigs |= SIM_SIG_CAS_RD_REG | SIM_SIG_RPQ;
		ch->truth.cas_rd++;
		ch->rpq++;
	}
	sim_imc_signal(sim, &s->imc[loc.channel], sigs);
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
/* Fill the cache arrays (empty sets); sim_lines_access does it first. */
void sim_hier_prepare(struct pmon_sim *sim);
void sim_cores_clear(struct pmon_sim *sim);
/* Set up a cache of sets x ways whose sets lie stride bytes apart in mem
 * (ranks initialised: way w has rank w). */
void sim_cache_setup(struct sim_cache *c, uint8_t *mem, size_t stride, uint64_t sets,
		     uint32_t ways);

#pragma GCC visibility pop

#endif
