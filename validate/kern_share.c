/*
 * kern_share.c - sharing kernels, written once (see kern.h):
 *   pingpong     two threads take turns on one line: each waits for its
 *                turn (the line's counter even for thread 0, odd for
 *                thread 1), then loads it and stores the next value;
 *   lines_write  one store to the first double of each of n lines;
 *   lines_read   one load of the first double of each of n lines.
 *
 * pingpong's wait is a spin on the counter.  In the emulated build the spin
 * is not fed (how often it spins is the host's timing): each round feeds
 * the final load and the store, and hands them to the model before the
 * store that passes the turn, so the model sees the two threads' rounds
 * strictly alternating, as the turns force on silicon.  On silicon the
 * spinning loads hit the waiting core's own copy until the other core's
 * store takes it away: the round's load then misses once.
 */
#include <sched.h>

#include <immintrin.h>

#include "kern.h"

static inline void kspin(unsigned *n)
{
#ifdef KERN_EMU
	/* The emulated machine's threads share few host CPUs: give the turn's
	 * owner the CPU rather than spin a whole time slice. */
	if (++*n % 16 == 0)
		sched_yield();
	else
		_mm_pause();
#else
	(void)n;
	_mm_pause();
#endif
}

/* One turn: the counter holds want (the wait is over): load it, store the
 * next value, the touches handed to the model before the store that passes
 * the turn. */
static inline void pp_turn(struct kfeed *f, const struct karr *X, uint64_t *v, uint64_t want)
{
	(void)X;
	KSTART(f);
	KTOUCH(f, 0, X, v, K_LOAD);
	KTOUCH(f, 1, X, v, K_STORE);
	KDONE(f);
	__atomic_store_n(v, want + 1, __ATOMIC_RELEASE);
}

uint64_t KERN(pingpong)(struct kfeed *f, const struct karr *X, size_t off, int me, uint64_t first,
			uint64_t rounds)
{
	uint64_t *v = (uint64_t *)((char *)X->host + off);
	uint64_t want = first + (uint64_t)me;

	for (uint64_t r = 0; r < rounds; r++, want += 2) {
		unsigned spins = 0;
		while (__atomic_load_n(v, __ATOMIC_ACQUIRE) != want)
			kspin(&spins);
		pp_turn(f, X, v, want);
	}
	return want;
}

#ifdef KERN_EMU
/* The emulated build can play both threads' turns from one host thread,
 * alternating as the turns force them to (each turn's touches from its own
 * CPU's feed): the same references in the same order, without a host thread
 * hand-off per turn, which a loaded host makes slow. */
uint64_t pingpong_both_emu(struct kfeed *const f[2], const struct karr *X, size_t off,
			   uint64_t first, uint64_t rounds)
{
	uint64_t *v = (uint64_t *)((char *)X->host + off);
	uint64_t want = first;

	for (uint64_t r = 0; r < 2 * rounds; r++, want++)
		pp_turn(f[r & 1], X, v, want);
	return want;
}
#endif

void KERN(lines_write)(struct kfeed *f, const struct karr *X, size_t n, double v)
{
	char *x = X->host;

	KSTART(f);
	for (size_t i = 0; i < n; i++) {
		double *p = (double *)(x + 64 * i);
		KTOUCH(f, 0, X, p, K_STORE);
		*p = v;
	}
	KDONE(f);
}

double KERN(lines_read)(struct kfeed *f, const struct karr *X, size_t n)
{
	const char *x = X->host;
	double s = 0;

	KSTART(f);
	for (size_t i = 0; i < n; i++) {
		const volatile double *p = (const volatile double *)(x + 64 * i);
		KTOUCH(f, 0, X, p, K_LOAD);
		s += *p;
	}
	KDONE(f);
	return s;
}
