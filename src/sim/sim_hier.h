/*
 * sim_hier.h - private helpers of the memory hierarchy shared by
 * sim_cache.c (the arrays) and the access path (sim_path.h: the cores'
 * L1/L2, LLC slices, home agents, QPI): the set-associative arrays, the
 * DRAM access and the request context.
 *
 * A set keeps its lines in most-recently-used order: the victim is the
 * last lane, a hit or a fill shifts the lanes before it by one.  Finding a
 * line compares every lane at once (AVX-512) or in a branch-free loop.
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

/* The hot paths are compiled twice: for the default way counts (8-way
 * L1/L2, 20-way LLC) as constants, where the set loops unroll, and for any
 * other count: the way counts are the hot functions' arguments, constants
 * in the one copy, variables in the other.  They are also compiled once
 * per instruction set (sim_path.h): the set operations below use AVX-512
 * or AVX2 where the including file enables it, else SSE2. */
#define SIM_HOT static inline __attribute__((always_inline))
#define SIM_L1W 8
#define SIM_L2W 8
#define SIM_LLCW 20
#define SIM_SOCKETS 2           /* the default machine's sockets */

/* cache_set with the way count passed in (a constant in the specialised
 * copies). */
SIM_HOT struct sim_set cache_set_w(const struct sim_cache *c, uint64_t line, uint32_t ways)
{
	uint32_t set = c->setmask ? (uint32_t)(line & c->setmask) : (uint32_t)(line % c->sets);
	struct sim_set s = { (uint64_t *)(void *)(c->mem + (size_t)set * c->stride), ways };

	return s;
}

/* The set of line in slice `slice` of a socket's LLC (ways: its way count,
 * a constant in the specialised copies; cores: the slices).  The slices'
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

/* The lanes whose tags are line's, as bits (way w: bit w). */
SIM_HOT uint32_t set_match(const struct sim_set *s, uint64_t line)
{
	__m512i key = _mm512_set1_epi64((long long)e_key(line));
	__m512i tag = _mm512_set1_epi64((long long)~(SIM_E_ST | SIM_E_CV));
	uint32_t m = 0;

	for (uint32_t k = 0; k < s->ways; k += 8)
		m |= (uint32_t)_mm512_cmpeq_epi64_mask(
			_mm512_and_si512(_mm512_loadu_si512(s->e + k), tag), key) << k;
	return m;
}

/* Lanes 0..last (last < ways) move one lane down, lane 0 becomes first;
 * lanes after last keep their entries. */
SIM_HOT void set_shift_in(const struct sim_set *s, uint32_t last, uint64_t first)
{
	__m512i prev = _mm512_set1_epi64((long long)first);
	uint64_t keep = (2ull << last) - 1;       /* the lanes written */

	/* a vector's store leaves the next one's lanes alone: load, shift,
	 * store one at a time (no copy of the set: with a variable way count
	 * the compiler made a copy loop a memcpy call) */
	for (uint32_t k = 0; k < s->ways; k += 8) {
		__m512i v = _mm512_loadu_si512(s->e + k);
		_mm512_storeu_si512(s->e + k, _mm512_mask_blend_epi64((__mmask8)(keep >> k), v,
									_mm512_alignr_epi64(v, prev, 7)));
		prev = v;
	}
}

/* Lanes w+1..ways-1 move one lane up, lane ways-1 becomes empty. */
SIM_HOT void set_shift_out(const struct sim_set *s, uint32_t w)
{
	uint64_t keep = ((1ull << s->ways) - 1) & ~((1ull << w) - 1);
	__m512i v = _mm512_loadu_si512(s->e);

	/* the next vector is loaded before this one's store (which leaves it
	 * alone) */
	for (uint32_t k = 0; k < s->ways; k += 8) {
		__m512i next = k + 8 < s->ways ? _mm512_loadu_si512(s->e + k + 8)
					       : _mm512_setzero_si512();
		_mm512_storeu_si512(s->e + k, _mm512_mask_blend_epi64((__mmask8)(keep >> k), v,
									_mm512_alignr_epi64(next, v, 1)));
		v = next;
	}
	s->e[s->ways - 1] = 0;
}
#elif defined(__AVX2__)
#include <immintrin.h>

/* Four lanes a compare. */
SIM_HOT uint32_t set_match(const struct sim_set *s, uint64_t line)
{
	__m256i key = _mm256_set1_epi64x((long long)e_key(line));
	__m256i tag = _mm256_set1_epi64x((long long)~(SIM_E_ST | SIM_E_CV));
	uint32_t m = 0;

	for (uint32_t k = 0; k < s->ways; k += 4) {
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(s->e + k));
		m |= (uint32_t)_mm256_movemask_pd(_mm256_castsi256_pd(
			     _mm256_cmpeq_epi64(_mm256_and_si256(v, tag), key))) << k;
	}
	return m;
}

/* Which lanes k..k+3 of a set are at most lim (all ones where so). */
SIM_HOT __m256i lanes_upto(uint32_t k, uint32_t lim)
{
	__m256i idx = _mm256_add_epi64(_mm256_set1_epi64x((long long)k), _mm256_set_epi64x(3, 2, 1, 0));

	return _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)lim + 1), idx);
}

/* Lanes 0..last move one lane down, lane 0 becomes first: each vector
 * rotated up one lane, its lane 0 the previous vector's lane 3, blended
 * with the lanes that stay into a full store (as the AVX-512 copy). */
SIM_HOT void set_shift_in(const struct sim_set *s, uint32_t last, uint64_t first)
{
	__m256i prev = _mm256_set1_epi64x((long long)first);

	for (uint32_t k = 0; k < s->ways; k += 4) {    /* one vector at a time */
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(s->e + k));
		__m256i up = _mm256_permute4x64_epi64(v, _MM_SHUFFLE(2, 1, 0, 3));
		__m256i out = _mm256_blend_epi32(up, _mm256_permute4x64_epi64(prev, _MM_SHUFFLE(2, 1, 0, 3)),
						 0x03);
		_mm256_storeu_si256((__m256i *)(void *)(s->e + k),
				    _mm256_blendv_epi8(v, out, lanes_upto(k, last)));
		prev = v;
	}
}

/* Lanes w+1..ways-1 move one lane up, lane ways-1 becomes empty. */
SIM_HOT void set_shift_out(const struct sim_set *s, uint32_t w)
{
	__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)s->e);

	for (uint32_t k = 0; k < s->ways; k += 4) {    /* the next one loaded first */
		__m256i next = k + 4 < s->ways
			       ? _mm256_loadu_si256((const __m256i *)(const void *)(s->e + k + 4))
			       : _mm256_setzero_si256();
		__m256i down = _mm256_permute4x64_epi64(v, _MM_SHUFFLE(0, 3, 2, 1));
		__m256i out = _mm256_blend_epi32(down, _mm256_permute4x64_epi64(next, _MM_SHUFFLE(0, 3, 2, 1)),
						 0xC0);
		/* the lanes from w on: all but those below w */
		__m256i keep = _mm256_xor_si256(_mm256_set1_epi64x(-1),
						w ? lanes_upto(k, w - 1) : _mm256_setzero_si256());
		_mm256_storeu_si256((__m256i *)(void *)(s->e + k), _mm256_blendv_epi8(v, out, keep));
		v = next;
	}
	s->e[s->ways - 1] = 0;
}
#else
#include <emmintrin.h>

/* Two lanes a compare: the 32-bit halves compared, a lane matching where
 * both halves do.  Padding lanes (0) never match. */
SIM_HOT uint32_t set_match(const struct sim_set *s, uint64_t line)
{
	__m128i key = _mm_set1_epi64x((long long)e_key(line));
	__m128i tag = _mm_set1_epi64x((long long)~(SIM_E_ST | SIM_E_CV));
	uint32_t m = 0;

	for (uint32_t k = 0; k < s->ways; k += 2) {
		__m128i c = _mm_cmpeq_epi32(
			_mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)(s->e + k)), tag),
			key);
		c = _mm_and_si128(c, _mm_shuffle_epi32(c, _MM_SHUFFLE(2, 3, 0, 1)));
		m |= (uint32_t)_mm_movemask_pd(_mm_castsi128_pd(c)) << k;
	}
	return m;
}

SIM_HOT void set_shift_in(const struct sim_set *s, uint32_t last, uint64_t first)
{
	__builtin_memmove(s->e + 1, s->e, 8 * (size_t)last);
	s->e[0] = first;
}

SIM_HOT void set_shift_out(const struct sim_set *s, uint32_t w)
{
	__builtin_memmove(s->e + w, s->e + w + 1, 8 * (size_t)(s->ways - 1 - w));
	s->e[s->ways - 1] = 0;
}
#endif

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
	set_shift_in(s, s->ways - 1, e_make(line, st, cv));
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
sim_lines_fn sim_lines_base, sim_lines_avx2, sim_lines_avx512;
/* Fill the cache arrays (empty sets); sim_lines_access does it first. */
void sim_hier_prepare(struct pmon_sim *sim);
void sim_cores_clear(struct pmon_sim *sim);
/* Set up a cache of sets x ways whose sets lie stride bytes apart in mem
 * (every set empty). */
void sim_cache_setup(struct sim_cache *c, uint8_t *mem, size_t stride, uint64_t sets,
		     uint32_t ways);

#pragma GCC visibility pop

#endif
