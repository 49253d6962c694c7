/*
 * session_internal.h - what the rooms of a session share: its state, and
 * the calls between them (not part of the API: include/pmon/pmon.h has it).
 *
 *   session.c          the API: events in, start (programming), stop
 *   session_plan.c     the start's read-only pre-pass (boxes, saved
 *                      registers, free counters) and the plan of every read
 *   session_own.c      ownership: box locks between processes, the journal,
 *                      the checks that the registers still hold what pmon wrote
 *   session_share.c    hand-over between running sessions of one machine
 *   session_restore.c  putting back what a session changed
 *   session_fold.c     wrap folding and the reads (locked and lock-free)
 */
#ifndef PMON_SESSION_INTERNAL_H
#define PMON_SESSION_INTERNAL_H

#include "regs.h"
#include "why.h"

struct sess_event {
	pmon_encoding_t enc;
	int counter;              /* -1: fixed */
	int box;                  /* index into boxes[] */
	uint64_t last, total;     /* while running, changed under fold_begin/fold_end only */
	const uint64_t *raw[2];   /* its counter's value at the last read of each reader */
	uint64_t wmask;           /* its counter's width */
	uint64_t slack;           /* what a delta may exceed the box's rate by (plausible) */
	uint64_t seen;            /* its counter at the owner's last read (the owner's thread
				     alone: read_unlocked, accumulate) */
};

struct saved_reg {
	enum pmon_reg_kind kind;
	int idx;
	uint64_t value;
	uint64_t wrote;           /* what the session wrote, checked while counting */
	int written;
	uint64_t vmask;           /* the bits of it checked (plan_reads) */
	int taken;                /* found no longer holding wrote (in the bits of vmask):
				     another agent's now, never written again (mark_taken) */
	int back;                 /* taken, yet holding wrote again at the stop's check:
				     the other agent gave it back, so the stop restores it */
	uint64_t found;           /* what was found in it then */
};

struct sess_box {
	struct pmon_box_regs regs;
	const char *name;         /* its PMU's name (the catalogue's, for messages) */
	struct saved_reg saved[16];
	int nsaved;
	uint32_t ctr_mask;        /* counters the session's events use (regs.h) */
	/* by reader (enum reader): */
	uint64_t raw[2][PMON_MAX_COUNTERS + 1];  /* their values at the last read */
	struct pmon_reg_also also[2][16];       /* saved[i], read beside the counters */
	uint64_t global_bits;     /* a gated box: our enable bits in its global control */
	uint64_t global_saved;    /* their values before start */
	int global_on;            /* start set them */
	int global_taken;         /* found cleared by another agent (global_found) */
	uint64_t global_found;
	uint64_t ovf_saved;       /* our counters' overflow bits set before start (ovf_kept) */
	char lock[80];            /* boxlock name */
	int locked;               /* 1: holds a reference on the box lock */
	int drop_lines;           /* restore_all: its journal lines are to go */
	const volatile uint32_t *forced; /* its lock's mark: another process's pid once it took
					    the box by force (pmon_boxlock_mark) */
};

/* Who reads the counters: the session's own calls (its owner's thread,
 * without the registry lock when it can: read_unlocked), or the machine's
 * fold (another thread, always under the lock).  Each has a read plan and
 * buffers of its own, so the two never write the same memory. */
enum reader { BY_OWNER, BY_FOLD };

struct pmon_session {
	struct pmon_machine *m;
	struct sess_event *ev;
	int n, cap;
	/* room for cap events: their encodings and counters while placing one */
	pmon_encoding_t **evp;
	int *ctr;
	struct sess_box *boxes;
	int nboxes;
	struct pmon_reg_plan plan[2]; /* how read_counters reads them all, by reader */
	unsigned fold_seq;        /* odd while the fold state changes (fold_begin) */
	int running;
	uint64_t seq;             /* start order (the earliest user of a filter holds its original) */
	uint64_t bound_ns;        /* longest gap between folds that stays exact */
	uint64_t last_fold;       /* backend clock at the last fold */
	uint64_t last_verify;     /* backend clock at the last full verification */
	uint64_t seen_at;         /* backend clock at the owner's last read (ev[].seen) */
	uint64_t owner_at;        /* backend clock of the owner's last totals (pmon_session_read_ns) */
	uint64_t fast_until;      /* the last clock at which a read needs neither a fold nor
	                             the full check (set_fast_until) */
	int fault;                /* error found by a fold, reported by the next read */
	char fault_msg[1024];
	char err[1024];
	char warn[1024];          /* the last stop's journal cleanup that failed (restore_all) */
};

#define SET(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)
#define GET(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)

/* What a delta may exceed the box's rate by (plausible_ns): on silicon
 * 2^26, the counts of 262 us at that rate (the backend's clock is read
 * once for a batch of reads, which take microseconds each); on the
 * emulated machine, which counts memory traffic without emulated time
 * passing, 1/16 of the counter's range. */
#define PLAUSIBLE_SLACK_HW (1ull << 26)
#define PLAUSIBLE_SLACK_SIM_SHIFT 4

/* The bits of a box control pmon saves, checks and restores: the freeze
 * bits (the reset bits act once and are never kept). */
#define BOX_CTL_KEPT ((uint64_t)(PMON_BOX_FRZ_EN | PMON_BOX_FRZ))


/* Hidden: the library's own calls between the session's rooms. */
#pragma GCC visibility push(hidden)

/* session.c */
int sess_global_update(pmon_session_t *s, struct sess_box *bx, int enable);

/* session_plan.c */
int sess_prepare(pmon_session_t *s);
int sess_plan_reads(pmon_session_t *s);
void sess_expect_written(struct sess_box *bx, int i);
int sess_read_failed(int rc, const struct pmon_box_regs *bad, const char *why, char *err,
		     size_t errlen);

/* session_own.c */
int sess_forced(void);
int sess_take_locks(pmon_session_t *s);
void sess_release_locks(pmon_session_t *s);
int sess_journal_boxes(pmon_session_t *s);
int sess_journal_wrote(pmon_session_t *s);
int sess_verify(pmon_session_t *s, enum reader who, int full, char *err, size_t errlen);
int sess_verify_read(pmon_session_t *s, enum reader who, char *err, size_t errlen);
int sess_find_taken(pmon_session_t *s, char *err, size_t errlen);

/* session_share.c (caller holds the registry lock) */
pmon_session_t *sess_next_other(const pmon_session_t *s, int *o);
int sess_uses_filter(const pmon_session_t *s, int box, int r);
uint64_t sess_filter_mask(const pmon_session_t *s, int b, int r);
uint64_t sess_others_filter(pmon_session_t *s, const struct sess_box *bx, int r);
const struct saved_reg *sess_taken_by_other(pmon_session_t *s, const struct sess_box *bx,
					    enum pmon_reg_kind k, int idx);
struct sess_box *sess_filter_user(pmon_session_t *s, const struct sess_box *bx, int r);
struct sess_box *sess_successor(pmon_session_t *s, const struct sess_box *bx);
void sess_mark_taken(pmon_session_t *s, struct sess_box *bx, struct saved_reg *r, uint64_t v);
int sess_hand_over(pmon_session_t *s, const struct sess_box *bx, const struct saved_reg *r);

/* session_restore.c */
int sess_restore_all(pmon_session_t *s, char *left, size_t len, char *kept, size_t klen);
int sess_restore_error(pmon_session_t *s, int rc, int rr, const char *left, const char *kept);

/* session_fold.c */
int sess_fold_setup(pmon_session_t *s);
int sess_check_and_fold(pmon_session_t *s, enum reader who, uint64_t *values, int full,
			const uint64_t *read_at, char *err, size_t errlen);

#pragma GCC visibility pop

static inline int is_core(const struct sess_box *bx) { return bx->regs.t->space == PMON_SPACE_CORE; }
static inline int freezable(const struct sess_box *bx) { return bx->regs.t->has_box_ctl && !is_core(bx); }
/* A box whose counters a global control enables (tables.h: msr_glb_ctl):
 * programmed before the starting values are read, enabled after. */
static inline int gated(const struct sess_box *bx) { return bx->regs.t->msr_glb_ctl != 0; }
/* A gated box whose counters' overflow bits pmon clears (REG_GLOBAL_OVF):
 * those its counting set, so the status is as before the session. */
static inline int ovf_kept(const struct sess_box *bx)
{
	return gated(bx) && bx->global_bits && bx->regs.t->msr_glb_ovf && bx->regs.t->msr_glb_status;
}

static inline int same_box(const struct pmon_box_regs *a, const struct pmon_box_regs *b)
{
	return a->pmu == b->pmu && a->socket == b->socket &&
	       (a->t->space != PMON_SPACE_CORE || a->cpu == b->cpu);
}

/* Do the registers that came with the counters' blocks at who's read
 * hold what was written?  The read's plan checked them (each also[who][i]
 * of a written register expects what was written, in the bits of vmask:
 * plan_reads, wr, restore_all). */
static inline int blocks_intact(const pmon_session_t *s, enum reader who)
{
	return !s->plan[who].differs;
}

/* Every counter of the session, as sess_plan_reads() compiled it; *now: the
 * backend's clock at those reads.  Inline: it is most of a read. */
static inline __attribute__((always_inline)) int read_counters(pmon_session_t *s, enum reader who,
							       uint64_t *now, char *err,
							       size_t errlen)
{
	char why[PMON_WHY_LEN];
	const struct pmon_box_regs *bad = NULL;
	int rc = pmon_reg_plan_run(s->m, &s->plan[who], now, &bad, why, sizeof why);
	return rc ? sess_read_failed(rc, bad, why, err, errlen) : PMON_OK;
}

#endif
