/*
 * sim_hier.h - private helpers of the memory hierarchy shared by
 * sim_cache.c (the arrays) and the access path (sim_path.h: the cores'
 * L1/L2, LLC slices, home agents, QPI): the set-associative arrays, the
 * DRAM access and the request context.
 *
 * A set keeps its lines in most-recently-used order: the victim is the
 * last lane, a hit or a fill shifts the lanes before it by one.  Finding a
 * line compares eight lanes at once (AVX-512) or two (SSE2).
 */
#ifndef PMON_SIM_HIER_H
#define PMON_SIM_HIER_H

#include "sim_events.h"

#pragma GCC visibility push(hidden)      /* the emulator's own, as in sim_machine.h */

/* Who issues the request being modelled. */
struct sim_ctx {
	struct pmon_sim *sim;
	int cpu, sock, lcore;
	struct sim_pcore *pc;
	struct pmon_sim_cache_truth *t;
};

/* A set: its entries in most-recently-used order (lane 0 the most recent,
 * lane ways-1 the least: the victim), the empty ones last.  An entry is
 * (line + 1) << 12 | core-valid bits << 4 | state, 0 when empty.  A fill
 * shifts every lane down one and puts the line in lane 0; a hit moves its
 * lane to lane 0; a drop closes the gap and leaves an empty lane last.
 * Lanes from ways to the next multiple of 8 are padding and always 0. */
struct sim_set {
	uint64_t *e;
	uint32_t ways;
};

#define SIM_E_SHIFT 12
#define SIM_E_CV_SHIFT 4
#define SIM_E_ST 0x7ull
#define SIM_E_CV (0xffull << SIM_E_CV_SHIFT)

static inline uint32_t round_up(uint32_t n, uint32_t m)
{
	return (n + m - 1) / m * m;
}

static inline uint64_t e_key(uint64_t line)
{
	return (line + 1) << SIM_E_SHIFT;
}

static inline uint64_t e_make(uint64_t line, int st, unsigned cv)
{
	return e_key(line) | (uint64_t)cv << SIM_E_CV_SHIFT | (uint64_t)st;
}

static inline uint64_t e_line(uint64_t e)
{
	return (e >> SIM_E_SHIFT) - 1;
}

static inline int e_st(uint64_t e)
{
	return (int)(e & SIM_E_ST);
}

static inline unsigned e_cv(uint64_t e)
{
	return (unsigned)(e >> SIM_E_CV_SHIFT) & 0xff;
}

static inline void set_st(const struct sim_set *s, int w, int st)
{
	s->e[w] = (s->e[w] & ~SIM_E_ST) | (uint64_t)st;
}

static inline void set_cv(const struct sim_set *s, int w, unsigned cv)
{
	s->e[w] = (s->e[w] & ~SIM_E_CV) | (uint64_t)cv << SIM_E_CV_SHIFT;
}

/* Bytes of a set: its lanes rounded up to 8 (one 64-byte host line per 8
 * ways; the arrays are 64-byte aligned). */
static inline size_t cache_set_bytes(uint32_t ways)
{
	return 8 * (size_t)round_up(ways, 8);
}

static inline struct sim_set cache_set_at(const struct sim_cache *c, uint32_t set)
{
	struct sim_set s = { (uint64_t *)(void *)(c->mem + (size_t)set * c->stride), c->ways };

	return s;
}

static inline struct sim_set cache_set(const struct sim_cache *c, uint64_t line)
{
	return cache_set_at(c, c->setmask ? (uint32_t)(line & c->setmask)
					  : (uint32_t)(line % c->sets));
}

/* The access path is compiled twice (sim_path.h): for any machine on any
 * x86-64, the way counts and sockets read from the machine
 * (sim_path_base.c), and for AVX-512 hosts and the machines of two sockets
 * with 8-way L1 and L2 caches (the default shape, the Nehalem shapes):
 * those counts constants, the L1 and L2 set loops unrolled
 * (sim_path_avx512.c, which defines SIM_PATH_DEFAULT).  The LLC's way
 * count is the machine's in both (its commonest counts have kernels of
 * their own: SIM_SET_KERNEL).  The set operations below use AVX-512 where
 * the including file enables it, else SSE2. */
#define SIM_HOT static inline __attribute__((always_inline))
#define SIM_L1W 8               /* the L1, L2 way counts and sockets of */
#define SIM_L2W 8               /* the machines sim_path_avx512.c serves */
#define SIM_SOCKETS 2

#ifdef SIM_PATH_DEFAULT
#define SIM_PATH_CONST 1        /* those counts are constants */
#else
#define SIM_PATH_CONST 0
#endif

/* The L1 and L2 way counts and the sockets the path runs with: constants
 * in the AVX-512 copy, the machine's in the other. */
SIM_HOT uint32_t path_l1w(const struct sim_pcore *pc)
{
	return SIM_PATH_CONST ? SIM_L1W : pc->l1.ways;
}

SIM_HOT uint32_t path_l2w(const struct sim_pcore *pc)
{
	return SIM_PATH_CONST ? SIM_L2W : pc->l2.ways;
}

SIM_HOT int path_sockets(const struct pmon_sim *sim)
{
	return SIM_PATH_CONST ? SIM_SOCKETS : sim->shape.sockets;
}

/* The LLC's way count: the machine's in both copies. */
SIM_HOT uint32_t path_llcw(const struct pmon_sim *sim)
{
	return sim->sock[0].llc[0].ways;
}

/* cache_set with the way count passed in (a constant where the copy has
 * it as one). */
SIM_HOT struct sim_set cache_set_w(const struct sim_cache *c, uint64_t line, uint32_t ways)
{
	uint32_t set = c->setmask ? (uint32_t)(line & c->setmask) : (uint32_t)(line % c->sets);
	struct sim_set s = { (uint64_t *)(void *)(c->mem + (size_t)set * c->stride), ways };

	return s;
}

/* The set of line in slice `slice` of a socket's LLC (ways: its way count,
 * the machine's; cores: the slices).  The slices'
 * sets are interleaved (sim_hier_init): set i of slice k is number
 * i * cores + k of the socket's array. */
SIM_HOT struct sim_set llc_set_w(const struct sim_socket *k, unsigned slice, uint64_t line,
				 uint32_t ways, int cores)
{
	const struct sim_cache *c = &k->llc[0];   /* every slice has its sets and mask */
	uint64_t set = c->setmask ? (line & c->setmask) : line % c->sets;
	struct sim_set s = { (uint64_t *)(void *)(k->llc_mem + (set * (uint64_t)cores + slice) *
						  cache_set_bytes(ways)), ways };

	return s;
}

/* The same for a core's private cache: a power-of-two number of sets, each
 * cache_set_bytes(ways) apart. */
SIM_HOT struct sim_set pcache_set_w(const struct sim_cache *c, uint64_t line, uint32_t ways)
{
	struct sim_set s = { (uint64_t *)(void *)(c->mem + (size_t)(line & c->setmask) *
						  cache_set_bytes(ways)), ways };

	return s;
}

#ifdef __AVX512F__
#include <immintrin.h>

/* The lanes of a set (e: its entries, ways: its way count) whose tags are
 * line's, as bits (way w: bit w). */
SIM_HOT uint32_t set_match_w(const uint64_t *e, uint32_t ways, uint64_t line)
{
	__m512i key = _mm512_set1_epi64((long long)e_key(line));
	__m512i tag = _mm512_set1_epi64((long long)~(SIM_E_ST | SIM_E_CV));
	uint32_t m = 0;

	for (uint32_t k = 0; k < ways; k += 8)
		m |= (uint32_t)_mm512_cmpeq_epi64_mask(
			_mm512_and_si512(_mm512_loadu_si512(e + k), tag), key) << k;
	return m;
}

/* Lanes 0..last (last < ways) move one lane down, lane 0 becomes first;
 * lanes after last keep their entries. */
SIM_HOT void set_shift_in_w(uint64_t *e, uint32_t ways, uint32_t last, uint64_t first)
{
	__m512i prev = _mm512_set1_epi64((long long)first);
	uint64_t keep = (2ull << last) - 1;       /* the lanes written */

	/* a vector's store leaves the next one's lanes alone: load, shift,
	 * store one at a time (no copy of the set: with a variable way count
	 * the compiler made a copy loop a memcpy call) */
	for (uint32_t k = 0; k < ways; k += 8) {
		__m512i v = _mm512_loadu_si512(e + k);
		_mm512_storeu_si512(e + k, _mm512_mask_blend_epi64((__mmask8)(keep >> k), v,
								     _mm512_alignr_epi64(v, prev, 7)));
		prev = v;
	}
}

/* Lanes w+1..ways-1 move one lane up, lane ways-1 becomes empty. */
SIM_HOT void set_shift_out_w(uint64_t *e, uint32_t ways, uint32_t w)
{
	uint64_t keep = ((1ull << ways) - 1) & ~((1ull << w) - 1);
	__m512i v = _mm512_loadu_si512(e);

	/* the next vector is loaded before this one's store (which leaves it
	 * alone) */
	for (uint32_t k = 0; k < ways; k += 8) {
		__m512i next = k + 8 < ways ? _mm512_loadu_si512(e + k + 8) : _mm512_setzero_si512();
		_mm512_storeu_si512(e + k, _mm512_mask_blend_epi64((__mmask8)(keep >> k), v,
								     _mm512_alignr_epi64(next, v, 1)));
		v = next;
	}
	e[ways - 1] = 0;
}
#else
#include <emmintrin.h>

/* Two lanes a compare: the 32-bit halves compared, a lane matching where
 * both halves do.  Padding lanes (0) never match. */
SIM_HOT uint32_t set_match_w(const uint64_t *e, uint32_t ways, uint64_t line)
{
	__m128i key = _mm_set1_epi64x((long long)e_key(line));
	__m128i tag = _mm_set1_epi64x((long long)~(SIM_E_ST | SIM_E_CV));
	uint32_t m = 0;

	for (uint32_t k = 0; k < ways; k += 2) {
		__m128i c = _mm_cmpeq_epi32(
			_mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(e + k)), tag),
			key);
		c = _mm_and_si128(c, _mm_shuffle_epi32(c, _MM_SHUFFLE(2, 3, 0, 1)));
		m |= (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(c)) << k;
	}
	return m;
}

SIM_HOT void set_shift_in_w(uint64_t *e, uint32_t ways, uint32_t last, uint64_t first)
{
	(void)ways;
	__builtin_memmove(e + 1, e, 8 * (size_t)last);
	e[0] = first;
}

SIM_HOT void set_shift_out_w(uint64_t *e, uint32_t ways, uint32_t w)
{
	__builtin_memmove(e + w, e + w + 1, 8 * (size_t)(ways - 1 - w));
	e[ways - 1] = 0;
}
#endif

/* The set operations with the set's way count: the commonest counts, 8
 * (L1, L2), 20 (the default LLC) and 16 (the Nehalem shapes' LLC), take
 * kernels with the count as a constant (their loops unrolled, the
 * base copy's memmoves of a fixed size), any other count the loop over it.
 * Where the count is a constant already (the AVX-512 copy's L1 and L2
 * sets) the tests fold away. */
#define SIM_SET_KERNEL(s, call) \
	((s)->ways == 8 ? call(8) : (s)->ways == 20 ? call(20) : \
	 (s)->ways == 16 ? call(16) : call((s)->ways))

SIM_HOT uint32_t set_match(const struct sim_set *s, uint64_t line)
{
#define MATCH(w) set_match_w(s->e, (w), line)
	return SIM_SET_KERNEL(s, MATCH);
#undef MATCH
}

/* Lanes 0..last (last < ways) move one lane down, lane 0 becomes first;
 * lanes after last keep their entries. */
SIM_HOT void set_shift_in(const struct sim_set *s, uint32_t last, uint64_t first)
{
#define SHIFT_IN(w) set_shift_in_w(s->e, (w), last, first)
	SIM_SET_KERNEL(s, SHIFT_IN);
#undef SHIFT_IN
}

/* Lanes w+1..ways-1 move one lane up, lane ways-1 becomes empty. */
SIM_HOT void set_shift_out(const struct sim_set *s, uint32_t w)
{
#define SHIFT_OUT(n) set_shift_out_w(s->e, (n), w)
	SIM_SET_KERNEL(s, SHIFT_OUT);
#undef SHIFT_OUT
}

/* The lane holding line, or -1. */
SIM_HOT int set_find(const struct sim_set *s, uint64_t line)
{
	uint32_t m = set_match(s, line);

	return m ? __builtin_ctz(m) : -1;
}

/* The lane to fill: the last, empty or least recently used. */
static inline int set_victim(const struct sim_set *s)
{
	return (int)s->ways - 1;
}

/* Lane w becomes the most recently used (lane 0). */
SIM_HOT void set_touch(const struct sim_set *s, int w)
{
	if (w > 0)
		set_shift_in(s, (uint32_t)w, s->e[w]);
}

/* Lane w is emptied (the lanes after it close the gap). */
SIM_HOT void set_drop(const struct sim_set *s, int w)
{
	set_shift_out(s, (uint32_t)w);
}

/* The victim lane (the last) is replaced by line, which becomes the most
 * recently used. */
SIM_HOT void set_fill(const struct sim_set *s, uint64_t line, int st, unsigned cv)
{
#define FILL(w) set_shift_in_w(s->e, (w), (w) - 1, e_make(line, st, cv))
	SIM_SET_KERNEL(s, FILL);
#undef FILL
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

/* Of a line's number within its channel (cl): its bank among the
 * channel's, rank * banks + bank (the index of the open-row array), and its
 * row. */
static inline unsigned dram_bank_index(uint64_t cl)
{
	return (unsigned)((cl / SIM_DRAM_ROWLINES) % (SIM_DRAM_BANKS * SIM_DRAM_RANKS));
}

static inline uint64_t dram_row(uint64_t cl)
{
	return cl / (SIM_DRAM_ROWLINES * SIM_DRAM_BANKS * SIM_DRAM_RANKS);
}

static inline void dram_locate(const struct pmon_sim_shape *sh, uint64_t local_addr,
			       struct pmon_sim_dram_loc *out)
{
	uint64_t line = local_addr / 64, cl = dram_per_channel(line, sh->channels);
	unsigned bank = dram_bank_index(cl);

	out->channel = (int)(line - cl * (uint64_t)sh->channels);
	out->column = cl % SIM_DRAM_ROWLINES;
	out->bank = (int)(bank % SIM_DRAM_BANKS);
	out->rank = (int)(bank / SIM_DRAM_BANKS);
	out->row = dram_row(cl);
}

/* A bank of channel ch at home opens row (another row was open unless
 * *open < 0): the activate and the precharge before it, counted at once. */
static __attribute__((noinline, unused)) void dram_open(struct pmon_sim *sim, int home, int ch,
						int64_t *open, int64_t row)
{
	struct sim_chan *c = &sim->sock[home].chan[ch];
	uint32_t sigs = SIM_SIG_ACT;

	if (*open >= 0) {                     /* another row open: page miss */
		sigs |= SIM_SIG_PRE_MISS;
		c->truth.pre_miss++;
	}
	c->truth.act++;
	*open = row;
	sim_imc_signal(sim, &sim->sock[home].imc[ch], sigs, 1);
}

/* One line (its number within the home socket) read or written at its
 * home's DRAM: the bank's open row now (it depends on the order of
 * accesses); the CAS and queue counts and their iMC signals tallied by
 * home, channel and direction, added when the batch ends (dram_flush).
 * The mapping is dram_locate's. */
SIM_HOT void dram_access(struct pmon_sim *sim, int home, uint64_t line, int write)
{
	int channels = sim->shape.channels;
	uint64_t cl = dram_per_channel(line, channels);
	int ch = (int)(line - cl * (uint64_t)channels);
	int64_t *open = &sim->sock[home].chan[ch].open_row[dram_bank_index(cl)];
	int64_t row = (int64_t)dram_row(cl);

	if (*open != row)
		dram_open(sim, home, ch, open, row);
	unsigned cell = ((unsigned)home * SIM_MAX_CHANS + (unsigned)ch) * 2 + (unsigned)write;

	sim->dram_n[cell]++;
	sim->dram_used |= 1ull << cell;
}

/* Add the batch's tallied DRAM reads and writes. */
static inline void dram_flush(struct pmon_sim *sim)
{
	static const uint32_t sigs[2] = { SIM_SIG_CAS_RD_REG | SIM_SIG_RPQ,
					  SIM_SIG_CAS_WR_WMM | SIM_SIG_WPQ };

	for (uint64_t u = sim->dram_used; u; u &= u - 1) {
		unsigned cell = (unsigned)__builtin_ctzll(u), w = cell % 2;
		unsigned h = cell / 2 / SIM_MAX_CHANS, ch = cell / 2 % SIM_MAX_CHANS;
		uint64_t n = sim->dram_n[cell];
		struct sim_chan *c = &sim->sock[h].chan[ch];

		sim->dram_n[cell] = 0;
		if (w) {
			c->truth.cas_wr += n;
			c->wpq += n;
		} else {
			c->truth.cas_rd += n;
			c->rpq += n;
		}
		sim_imc_signal(sim, &sim->sock[h].imc[ch], sigs[w], n);
	}
	sim->dram_used = 0;
}

/* What the LLC answered a core's request. */
struct sim_llc_res {
	int grant;              /* state the core receives: S, E or M */
	int supplier;           /* enum pmon_sim_supplier */
	uint64_t rsp_sup, rsp_snoop;    /* offcore-response supplier and snoop bits */
	int hitm;
	int clean;              /* a clean read (clean_read in sim_llc_path.h) */
};

/* A copy of the access path (sim_path.h), one per instruction set: n line
 * references of cpu (line << 2 | kind), after sim_lines_access's set-up. */
typedef void sim_lines_fn(struct pmon_sim *sim, int cpu, const uint64_t *ref, size_t n);
sim_lines_fn sim_lines_base, sim_lines_avx512;
/* Fill the cache arrays (empty sets); sim_lines_access does it first. */
void sim_hier_prepare(struct pmon_sim *sim);
void sim_cores_clear(struct pmon_sim *sim);
/* Set up a cache of sets x ways whose sets lie stride bytes apart in mem
 * (every set empty). */
void sim_cache_setup(struct sim_cache *c, uint8_t *mem, size_t stride, uint64_t sets,
		     uint32_t ways);

#pragma GCC visibility pop

#endif
