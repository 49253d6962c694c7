/*
 * kern.h - how one kernel source is compiled twice.
 *
 * Every kernel in validate/kern_*.c is written once with plain loads and
 * stores.  Each memory touch of the kernel is announced beside it with
 * KTOUCH(), which compiles to nothing in the native build (the inner loop is
 * exactly the C statement) and, in the emulated build (-DKERN_EMU), appends
 * the touched cache line, as a virtual address of the emulated machine, to
 * the thread's reference buffer (struct kfeed).  The buffer goes to the
 * memory model in order, from the emulated CPU the thread runs on
 * (pmon_sim_vtraffic_refs), whenever it is full and when the kernel ends.
 *
 * A touch names a stream slot: a line is fed when it differs from the last
 * line fed on that slot.  So a run of touches of one line by one access
 * stream is fed once, at its first touch; the touches skipped are of lines
 * fed a few references before, whose cache outcome is a hit in L1 in any
 * case (kernels use at most KF_SLOTS streams, far below L1's 8 ways).
 *
 * Function names: KERN(name) is name_native or name_emu, so both builds
 * link into one program.
 */
#ifndef PMON_VALIDATE_KERN_H
#define PMON_VALIDATE_KERN_H

#include <stddef.h>
#include <stdint.h>

/* An array the kernel works on: its memory in this process, and the same
 * bytes' virtual address on the emulated machine (0 in the native build). */
struct karr {
	void *host;
	uint64_t vbase;
	size_t bytes;
};

#define KF_SLOTS 8
#define KF_BUF 4096

/* enum pmon_sim_kind values, kept here so the kernels need no emulator
 * header. */
#define K_LOAD 0u
#define K_STORE 1u
#define K_NT 2u
#define K_NT_PARTIAL 3u
#define K_SPLIT_LOCK 4u

/* One thread's feed of line references. */
struct kfeed {
	void *sim;               /* pmon_sim_t * (emulated build) */
	int cpu;                 /* emulated CPU the thread runs on */
	int err;                 /* first error of pmon_sim_vtraffic_refs, 0 if none */
	uint64_t fed;            /* references handed to the model */
	/* Called after each batch is handed to the model (NULL: none): the
	 * runner's turn-taking, which makes the threads' interleaving a
	 * function of the seed (vrun.c). */
	void (*turn)(struct kfeed *f);
	void *turn_ctx;
	int tid;
	uint64_t last[KF_SLOTS];
	size_t n;
	uint64_t buf[KF_BUF];
};

/* Set up a feed (clears the slots and the buffer). */
void kfeed_init(struct kfeed *f, void *sim, int cpu);
/* Hand the buffered references to the model, in order. */
void kfeed_flush(struct kfeed *f);
/* Forget the last line of every slot (a kernel starts afresh). */
void kfeed_reset_slots(struct kfeed *f);

#ifdef KERN_EMU
#define KERN(name) name##_emu

static inline void kfeed_put(struct kfeed *f, uint64_t ref)
{
	f->buf[f->n++] = ref;
	if (f->n == KF_BUF)
		kfeed_flush(f);
}

#define KTOUCH(f, slot, arr, ptr, kind) do { \
	uint64_t ln_ = ((arr)->vbase + (uint64_t)((const char *)(ptr) - \
		(const char *)(arr)->host)) & ~(uint64_t)63; \
	if (ln_ != (f)->last[slot]) { \
		(f)->last[slot] = ln_; \
		kfeed_put((f), ln_ | (kind)); \
	} \
} while (0)
#define KSTART(f) kfeed_reset_slots(f)
#define KDONE(f) kfeed_flush(f)
#else
#define KERN(name) name##_native
#define KTOUCH(f, slot, arr, ptr, kind) ((void)0)
#define KSTART(f) ((void)(f))
#define KDONE(f) ((void)(f))
#endif

/* ------------------------------------------------------------ the kernels */

/* STREAM over elements [lo, hi) (chunks start on a line: lo % 8 == 0).
 * nt: non-temporal stores for the written array. */
#define KERN_DECL_STREAM(sfx) \
void stream_copy_##sfx(struct kfeed *f, const struct karr *c, const struct karr *a, \
		       size_t lo, size_t hi, int nt); \
void stream_scale_##sfx(struct kfeed *f, const struct karr *b, const struct karr *c, \
			double q, size_t lo, size_t hi, int nt); \
void stream_add_##sfx(struct kfeed *f, const struct karr *c, const struct karr *a, \
		      const struct karr *b, size_t lo, size_t hi, int nt); \
void stream_triad_##sfx(struct kfeed *f, const struct karr *a, const struct karr *b, \
			const struct karr *c, double q, size_t lo, size_t hi, int nt); \
void stream_init_##sfx(struct kfeed *f, const struct karr *x, double v, size_t lo, size_t hi); \
double line_sum_##sfx(struct kfeed *f, const struct karr *x, const uint64_t *offs, size_t n);

/* Pointer chase: hops loads from element start; returns where it stopped. */
struct chase_el {
	struct chase_el *next;
	uint64_t pad[7];
};
#define KERN_DECL_CHASE(sfx) \
struct chase_el *chase_##sfx(struct kfeed *f, const struct karr *x, struct chase_el *start, \
			     uint64_t hops);

/* Blocked DGEMM, row-major n x n, C += A * B: the k-panels [k0, k1) (whole
 * panels of bk) for rows [r0, r1); bk % 8 == 0, n % bk == 0, r1 - r0 even.  Threads that
 * share the rows run one panel at a time with a barrier between panels. */
#define KERN_DECL_DGEMM(sfx) \
void dgemm_blocked_##sfx(struct kfeed *f, const struct karr *c, const struct karr *a, \
			 const struct karr *b, size_t n, size_t bk, size_t k0, size_t k1, \
			 size_t r0, size_t r1);

/* Sharing (kern_share.c): pingpong's thread me (0 or 1) plays rounds turns
 * on the 8-byte counter at byte off of x, from the counter's value first
 * (even): it waits for first + 2r + me, then loads and stores the line
 * (the value + 1).  Returns the value after its last turn. */
#define KERN_DECL_SHARE(sfx) \
uint64_t pingpong_##sfx(struct kfeed *f, const struct karr *x, size_t off, int me, \
			uint64_t first, uint64_t rounds); \
void lines_write_##sfx(struct kfeed *f, const struct karr *x, size_t n, double v); \
double lines_read_##sfx(struct kfeed *f, const struct karr *x, size_t n); \
void lines_nt_##sfx(struct kfeed *f, const struct karr *x, const uint64_t *offs, size_t n, \
		    double v);

/* Locks and partial lines (kern_lock.c). */
#define KERN_DECL_LOCK(sfx) \
void locked_add_##sfx(struct kfeed *f, const struct karr *x, size_t n, int split); \
void lines_nt_half_##sfx(struct kfeed *f, const struct karr *x, size_t n, double v); \
double page_lines_##sfx(struct kfeed *f, const struct karr *x, size_t pages, const int *at, \
			int nl, int store);

KERN_DECL_STREAM(native)
KERN_DECL_STREAM(emu)
KERN_DECL_LOCK(native)
KERN_DECL_LOCK(emu)
KERN_DECL_CHASE(native)
KERN_DECL_CHASE(emu)
KERN_DECL_DGEMM(native)
KERN_DECL_DGEMM(emu)
KERN_DECL_SHARE(native)
KERN_DECL_SHARE(emu)
/* Both threads' turns of pingpong, alternating, from one host thread
 * (emulated build only): f[0] thread 0's CPU, f[1] thread 1's. */
uint64_t pingpong_both_emu(struct kfeed *const f[2], const struct karr *x, size_t off,
			   uint64_t first, uint64_t rounds);

#endif
