/*
 * vrun.h - what every experiment of the validation suite shares: options,
 * the opened machine, geometry, the checks gathered, arrays in the machine's
 * memory, pinned threads that run kernels, and the counting window.
 */
#ifndef PMON_VALIDATE_VRUN_H
#define PMON_VALIDATE_VRUN_H

#include <stdio.h>

#include <pmon/pmon.h>
#include <pmon/sim.h>

#include "vcheck.h"
#include "count.h"
#include "expect.h"
#include "geom.h"
#include "kern.h"
#include "vplace.h"
#include "vprefetch.h"
#include "hwinfo.h"

enum vkernel { VK_STREAM, VK_DGEMM, VK_CHASE, VK_NUMA, VK_CHAN, VK_CLOCK, VK_SHARE, VK_POWER,
	       VK_DRAM, VK_LOCK, VK_PARTIAL, VK_PFREQ, VK_N };
extern const char *const vkernel_name[VK_N];

/* Deliberate breakage (the test that the suite can fail). */
/* lose: the run drops the first check of each step on the floor (the plan's
 * guard must FAIL it). */
/* baseline: the idle windows are taken and reported, but their background
 * is not subtracted nor its spread added (with load= or noise= the checks
 * of socket-wide events must FAIL). */
enum vbreak { VB_NONE, VB_UMASK, VB_CHANNEL, VB_SOCKET, VB_WRAP, VB_LOSE, VB_SNOOP,
	      VB_STATE, VB_VICTIM, VB_R3, VB_PCU, VB_DRAM, VB_METRIC, VB_LOCK, VB_PARTIAL, VB_PFREQ,
	      VB_BASELINE, VB_CLOCK, VB_N };
extern const char *const vbreak_name[VB_N];
/* Generic breakage of one field of every event whose name contains a
 * pattern, as a wrong entry in the event tables would program it
 * (--break=code:PATTERN, umask:PATTERN, filter:PATTERN):
 *   code    the event select's bit 0 flipped (events of a fixed counter,
 *           which have no code, are left alone);
 *   umask   the umask's lowest set bit cleared (bit 0 set when it is 0);
 *   filter  the lowest set bit of the first filter word the event programs
 *           cleared (bit 0 set when it is 0; events that program none are
 *           left alone). */
enum vbfield { VBF_NONE, VBF_CODE, VBF_UMASK, VBF_FILTER, VBF_N };
extern const char *const vbfield_name[VBF_N];
/* Apply the breakage to an encoding: 1 when it applied, 0 when the event
 * is left alone. */
int vbreak_field(enum vbfield f, const char *pattern, pmon_encoding_t *enc);

struct vopts {
	const char *backend;     /* "auto", "sim", "msr" */
	const char *shape;       /* emulated machine shape (PMON_SIM syntax) */
	const char *outdir;
	unsigned kernels;        /* bit per enum vkernel */
	int threads;             /* kernel threads (on the local socket) */
	const char *cpus;        /* --cpus: the threads' CPUs, comma list */
	int socket;              /* local socket */
	int remote;              /* remote socket for NUMA (-1: the next one) */
	int place_remote;        /* --place=remote: every kernel's memory on the remote socket */
	int prefetch_off;        /* --prefetch=off: MSR 0x1A4 bits 0-3 set for the run, restored */
	int quick;               /* the short suite of make check */
	double stream_mult;      /* STREAM arrays = stream_mult x LLC */
	unsigned long dgemm_n[2];/* fits-LLC and exceeds-LLC sizes (0: from the LLC) */
	double clock_ms;         /* clock window */
	enum vbreak brk;
	enum vbfield brk_field;  /* --break=FIELD:PATTERN */
	const char *brk_pat;
	int strict;              /* --strict: a skipped check fails the run */
	unsigned long long seed; /* --seed: the chase orders' and the threads' interleaving's */
	int list;                /* --list: print the plan, run nothing */
	const char *record_known;/* --record-known FILE */
	double idle_ms;          /* --idle-ms: each idle window of the baseline (0: none) */
	int repeat;              /* --repeat N: every window run N times, the median checked */
	int break_once;          /* --break-once: the breakage in the first run of N only */
	int verbose;
	int measure_clocks;      /* --measure-clocks: UCLK, DCLK, QCLK measured, not the shape's */
};

struct vskip {
	char what[200];
	int times;               /* how many checks it skipped */
};

struct vctx {
	struct vopts o;
	int argc;                /* the command line, for the report */
	char **argv;
	char date[32];           /* when the run started, UTC (ISO 8601) */
	const char *shape_spec;  /* the shape's text and where it came from */
	const char *shape_src;
	pmon_machine_t *m;
	pmon_sim_t *sim;         /* NULL on hardware */
	int hw;
	struct vgeom g;
	struct vchecks checks;
	struct vskip skips[64];  /* distinct reasons (the first 64) */
	int nskips;
	int nskipped;            /* checks skipped, all reasons */
	int nrefused;            /* events the backend refused (each window's) */
	int brk_hits;            /* events the --break=FIELD:PATTERN changed */
	/* The plan: before any kernel runs, every experiment runs once with
	 * planning set.  Nothing is counted or fed, but every event it will
	 * use is encoded and asked of the backend (the pre-check), and every
	 * check it will make is recorded (--list, and the guard against checks
	 * lost on the way: a kernel that makes fewer than planned FAILs). */
	int planning;
	int lost;                /* --break=lose: checks dropped */
	size_t lost_at;          /* 1 + step_first of the step that lost one */
	size_t step_first;       /* index of the running step's first check */
	struct vchecks plan;
	int plan_skipped;        /* checks the plan skips */
	int cpus[64];            /* CPUs of the kernel threads, local socket */
	int rcpus[64];           /* same cores on the remote socket */
	int nthreads;
	uint64_t refs_fed;       /* line references fed to the model */
	uint64_t vpar_calls;     /* seeds each call's turn order */
	double model_s;          /* wall seconds of emulated kernels */
	int idle_windows;        /* idle windows taken (vbase.h) and their machine time */
	double idle_s;
	int rep;                 /* --repeat: the run of the step (0..repeat-1) */
	/* Hardware: how arrays and threads are placed (vplace.h); whether
	 * memory can be bound to the remote socket (checked before any
	 * kernel, remote_why says why not); an array whose placement failed
	 * during the run (its FAIL is recorded, the experiment stops). */
	struct vplace_ops place;
	struct vpf pf;           /* the prefetchers (MSR 0x1A4) of the run's CPUs */
	struct vhwinfo hwinfo;   /* identity and settings, for report.json */
	int remote_ok;
	char remote_why[256];
	int place_failed;
	const char *phase;       /* the experiment running (vkernel_name), for placement checks */
	char notes[4][256];      /* what the suite changed of what it was asked (report) */
	int nnotes;
	char err[512];
};

/* Kernel call: the native build on hardware, the emulated one otherwise. */
#define KCALL(c, name, ...) \
	((c)->sim ? name##_emu(__VA_ARGS__) : name##_native(__VA_ARGS__))

/* ------------------------------------------------------------- setup */
/* The backend to use: opt (--backend) if given, else env ($PMON_BACKEND) if
 * set and not empty, else "auto".  Returns "auto", "sim" or "msr" ("hw" is
 * msr, case ignored, as libpmon reads PMON_BACKEND), or NULL with why naming
 * the bad value and the valid ones. */
const char *vbackend_choose(const char *opt, const char *env, char *why, size_t len);
/* Parse the emulated machine's shape spec (from src, "--shape" or
 * "$PMON_SIM"; NULL or "" is the default machine) and screen the keys that
 * would make the expected counts wrong:
 *   clock= (not wall) the clock checks and the windows need emulated time to
 *          follow the wall clock: set to wall, with a note (note[0] = 0 when
 *          nothing was changed).
 * load= and noise= (background traffic) are accepted: the idle baseline
 * subtracts their background (vbase.h).  Every other key is geometry the
 * expectations derive from.  0, or -1 (a bad spec: why names it). */
int vshape_screen(const char *spec, const char *src, struct pmon_sim_shape *shape, char *note,
		  size_t notelen, char *why, size_t whylen);
/* Open the machine: the hardware, or the emulated machine of the shape
 * (--shape, $PMON_SIM).  0, or 2 after saying why on stderr. */
int vopen_backend(struct vctx *c);
/* The kernel threads' CPUs (--threads, --cpus) on the local socket and the
 * same cores on the remote one.  0, or -1 after saying why on stderr. */
int vpick_cpus(struct vctx *c);
/* Record a note for the report (also printed on stderr). */
void vnote(struct vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 0 when report files can be written in dir (created if missing), else -1
 * with why. */
int voutdir_ready(const char *dir, char *why, size_t len);

/* ------------------------------------------------------------- memory */
/* The remote socket, and the socket that holds the kernels' memory (local,
 * or remote with --place=remote). */
int vremote(const struct vctx *c);
int vhome(const struct vctx *c);
enum vplace { VP_SOCKET, VP_FIRST_TOUCH };
/* bytes of memory the kernel sees (host) and its address on the emulated
 * machine, placed on socket (VP_SOCKET) or by the first touch. */
int varr_alloc(struct vctx *c, struct karr *a, size_t bytes, enum vplace place, int socket);
void varr_free(struct vctx *c, struct karr *a);
/* Hardware, before any kernel: bind a page to the local and to the remote
 * socket's node and read back where it is.  Local failing: -1 with c->err
 * (nothing can be trusted).  Remote failing: c->remote_ok = 0 and
 * c->remote_why (the remote kernels are skipped with it), 0. */
int vplace_preflight(struct vctx *c);
/* 1 when memory can be placed on the remote socket (always on the
 * emulated machine); else records the skip of what (the kernel's name)
 * with the reason, and 0. */
int vremote_ok(struct vctx *c, const char *what);

/* ------------------------------------------------------------- threads */
/* Run fn(c, t, feed, arg) on n threads, thread t on cpus[t] (bound to it on
 * the hardware; on the emulated machine cpus[t] is the model's CPU).
 * While planning: runs nothing (an experiment checks a kernel's results
 * only when !c->planning). */
typedef void (*vwork_fn)(struct vctx *c, int t, int n, struct kfeed *f, void *arg);
int vpar(struct vctx *c, int n, const int *cpus, vwork_fn fn, void *arg);
/* vpar for threads that wait on each other (a spin on a line another
 * thread writes): they run freely, without turns (which would hold a
 * spinner's turn forever); the kernel's own hand-offs fix the order. */
int vpar_free(struct vctx *c, int n, const int *cpus, vwork_fn fn, void *arg);
/* A barrier among vpar's threads, inside fn (instead of omp barrier: on
 * the emulated machine the threads take turns, vrun.c). */
void vbarrier(struct vctx *c, struct kfeed *f);
/* Chunk [lo, hi) of thread t of n over count elements, in whole lines. */
void vchunk(size_t count, int t, int n, size_t *lo, size_t *hi);

/* ------------------------------------------------------------- window */
/* While planning the window functions touch nothing and return 0. */
/* Clean caches (write back and drop) so the window starts cold, if flush. */
int vwin_clean(struct vctx *c, struct karr *const *arrs, int n);
/* Start the events; returns the start time (ns, CLOCK_MONOTONIC). */
int vwin_start(struct vctx *c, struct vevents *e, double *t0);
/* Write back dirty lines inside the window (if flush), then stop; *t1 is
 * the time the kernels ended, before the write-back (rates exclude it). */
int vwin_stop(struct vctx *c, struct vevents *e, int flush, struct karr *const *arrs, int n,
	      double *t1);
double vnow_ns(void);

/* ------------------------------------------------------------- checks */
/* Record a skipped check with its reason: only for a reason known from the
 * geometry or the options before running (never a refused event). */
void vskip(struct vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for n checks at once (e.g. one per slice). */
void vskip_n(struct vctx *c, int n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Add event by name.  An event the backend refuses (not modeled by the
 * emulated machine, box absent) still gets an index, and every check that
 * uses it FAILs naming the event and the reason: never a skip.  -2 with
 * c->err set for other failures (a bad name, no counter left). */
int vadd(struct vctx *c, struct vevents *e, const char *kernel, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Attach events idx[0..n) to check k: their names, counts, broken and
 * refused marks. */
void vcheck_events(struct vcheck *k, struct vevents *e, const int *idx, int n);
/* A check on the sum of events idx[0..n), divided by per. */
struct vcheck *vcheck_sum(struct vctx *c, struct vevents *e, const char *kernel,
			  const char *event, const char *unit, const int *idx, int n, double per,
			  double expected, struct vband b);
/* A check on sum(num) / sum(den), e.g. occupancy over inserts. */
struct vcheck *vcheck_quot(struct vctx *c, struct vevents *e, const char *kernel,
			   const char *event, const char *unit, const int *num, const int *den,
			   int n, double expected, struct vband b);
struct vcheck *vcheck_zero(struct vctx *c, struct vevents *e, const char *kernel,
			   const char *event, const char *unit, const int *idx, int n, double per,
			   double bound, const char *why);

/* Progress line on stderr. */
void vprogress(struct vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Breakage "wrap" (brk_wrap.c): preset event idx's counter before_top
 * below the top of its width before the window; after it, put the reading
 * of a reader that misses the wrap in e->val[idx] (marked broken) and
 * libpmon's own total in *handled. */
int vbreak_wrap_preset(struct vctx *c, struct vevents *e, int idx, uint64_t before_top);
int vbreak_wrap_apply(struct vctx *c, struct vevents *e, int idx, uint64_t *handled);

/* ------------------------------------------------------------- experiments */
int exp_stream(struct vctx *c);
int exp_numa(struct vctx *c);
int exp_chase(struct vctx *c);
int exp_dgemm(struct vctx *c);
int exp_chan(struct vctx *c);
int exp_clock(struct vctx *c);
/* Before the plan: measure UCLK, DCLK and QCLK when their frequency is not
 * known (the hardware) or --measure-clocks asks (the emulated machine), and
 * take them (c->g, its clk_tol) for every later check; recorded in
 * c->hwinfo.clk.  0, or -1 when the run cannot go on (c->err). */
int vclock_measure(struct vctx *c);
int exp_share(struct vctx *c);
int exp_power(struct vctx *c);
int exp_dram(struct vctx *c);
int exp_lock(struct vctx *c);
int exp_partial(struct vctx *c);
int exp_pfreq(struct vctx *c);

#endif
